/**
 * The web page's routes editor, in a real browser against a real daemon: a
 * name with routes and no record opens a view listing them (with each route's
 * response headers, streamed answer and LLM answer); the list is edited
 * as JSON text exactly as typed (a big integer in `data` is served byte for
 * byte); a bad route shows the server's code; Clear removes them.
 */
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

async function storedRoutes(name: string): Promise<{ id: string }[]> {
  const response = await fetch(`${web.server.url}/api/endpoints/${name}/routes`);
  return ((await response.json()) as { routes: { id: string }[] }).routes;
}

test('lists, edits exactly, refuses a bad route and clears the routes of a name', async () => {
  const put = await fetch(`${web.server.url}/api/endpoints/fake-api/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        { id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { statusCode: 200, data: { id: 1 } } },
        { id: 'gone', match: { path: '/old' }, answer: { statusCode: 410 } },
        {
          id: 'events',
          match: { path: '/events' },
          answer: {
            headers: { 'x-trace': 'abc', 'cache-control': 'no-store' },
            stream: { format: 'ndjson', events: [{ data: { n: 1 } }], end: 'hang' },
          },
        },
        {
          id: 'chat',
          match: { path: '/v1/messages' },
          answer: { llm: { provider: 'anthropic', api: 'messages', text: 'Hi', stream: true, end: 'reset' } },
        },
        {
          id: 'busy',
          match: { path: '/chat/completions' },
          answer: { llm: { provider: 'anthropic', api: 'messages', error: 'overloaded' } },
        },
      ],
    }),
  });
  expect(put.status).toBe(200);

  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/fake-api`);
  const rows = page.locator('.route-list li');
  await poll(() => rows.locator('.route-line').allTextContents()).toEqual([
    'userGET /users/:id200data',
    'goneANY /old410',
    'eventsANY /events200headers: x-trace, cache-controlstream: ndjson, 1 event, then hang',
    'chatANY /v1/messages200llm: anthropic messages, streamed, then reset',
    'busyANY /chat/completions529llm: anthropic messages, error overloaded',
  ]);
  expect(await rows.nth(2).locator('.answer-headers').getAttribute('title')).toBe(
    'x-trace: abc\ncache-control: no-store',
  );
  expect(await page.locator('.missing').textContent()).toContain('“fake-api” answers by its 5 routes');

  const typed =
    '[{"id":"big","match":{"method":"GET","path":"/big"},"answer":{"data":{"n":12345678901234567890,"x":1.0}}}]';
  await page.locator('#routes-text').fill(typed);
  await page.getByRole('button', { name: 'Save routes' }).click();
  await poll(() => rows.locator('.route-line').allTextContents()).toEqual(['bigGET /big200data']);
  const served = await fetch(`${web.server.url}/endpoint/fake-api/big`);
  expect(served.status).toBe(200);
  expect(await served.text()).toBe('{"n":12345678901234567890,"x":1.0}');

  await page.locator('#routes-text').fill('[{"answer":{}},{"match":{"path":"users"},"answer":{}}]');
  await page.getByRole('button', { name: 'Save routes' }).click();
  await poll(() => page.locator('#routes-problem').textContent()).toMatch(/INVALID_ROUTE_PATTERN: .*routes\[1\]/);
  expect((await storedRoutes('fake-api')).map((route) => route.id)).toEqual(['big']);

  await page.getByRole('button', { name: 'Clear routes' }).click();
  await page.getByRole('button', { name: 'Remove them' }).click();
  await poll(() => storedRoutes('fake-api')).toEqual([]);
  await poll(() => rows.count()).toBe(0);
});
