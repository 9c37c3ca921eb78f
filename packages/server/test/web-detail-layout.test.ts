/**
 * What an endpoint's page shows first, in Debian's Chromium (issue #31, items 28
 * and 29): the newest requests are on screen without scrolling on a desktop and
 * on a phone, even with queued answers, routes and a signature check set (those
 * panels come after); the endpoint list shows each endpoint's request count,
 * kept current; routes show as readable JSON (the exact text, laid out) with a
 * line per route; a name with routes and no record is shown as what it is (its
 * routes answer) and offered a stored response, not "create it".
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, poll, screenshot, useWebTest } from './web-support.js';

const web = useWebTest();
const NAME = 'checkout-hook';

async function api(path: string, method: string, body: unknown): Promise<void> {
  const response = await fetch(`${web.server.url}/api/${path}`, { method, body: JSON.stringify(body) });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
}

beforeAll(async () => {
  await api('endpoint/add', 'PUT', { name: NAME, data: { received: true, items: [1, 2, 3], note: 'x'.repeat(200) } });
  await api(`endpoints/${NAME}/routes`, 'PUT', {
    routes: [
      { id: 'refund', match: { method: 'POST', path: '/refunds/:id' }, answer: { statusCode: 202, data: { ok: 1 } } },
      { id: 'events', match: { path: '/events' }, answer: { headers: { 'cache-control': 'no-store' }, body: 'hi' } },
      { id: 'gone', match: { path: '/old' }, answer: { statusCode: 410 } },
    ],
  });
  await api(`endpoints/${NAME}/signature`, 'PUT', {
    scheme: 'hmac',
    secret: 'layout-secret-0123456789',
    hmac: { header: 'x-signature', prefix: 'sha256=' },
  });
  for (let i = 1; i <= 3; i++) {
    await fetch(`${web.server.url}/endpoint/${NAME}/refunds/re_${i}`, { method: 'POST', body: `{"n":${i}}` });
  }
  // Queued after the requests, so that none of them takes a queued answer.
  await api(`endpoints/${NAME}/queue`, 'POST', {
    answers: [{ statusCode: 503, data: { error: 'busy' }, times: 2 }, { fault: 'reset' }, { statusCode: 429 }],
  });
});

describe.each([
  { label: 'desktop', width: 1280, height: 800 },
  { label: 'phone', width: 360, height: 740 },
])('$label ($width px)', ({ label, width, height }) => {
  test('the newest request is on screen without scrolling; queue, routes and signature come after it', async () => {
    const { page } = await web.open({ width, height });
    await page.goto(`${web.server.url}/#/e/${NAME}`);
    await poll(() => page.locator('.journal-list li').count()).toBe(3);
    await poll(() => page.locator('.route-list li').count()).toBe(3);
    await poll(() => page.locator('.queue-list li').count()).toBe(3);
    await poll(() => page.locator('.signature-current').textContent()).toMatch(/^hmac/);
    await page.mouse.move(0, 0);
    await screenshot(page, `detail-first-screen-${label}`);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const first = page.locator('.journal-list li').first();
    expect(await first.locator('.path').textContent()).toBe(`/endpoint/${NAME}/refunds/re_3`);
    const box = (await first.boundingBox()) as { y: number; height: number };
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    // The other panels follow the requests.
    const top = (selector: string) => page.locator(selector).evaluate((el) => el.getBoundingClientRect().top);
    const journal = await top('.journal');
    for (const panel of ['.queue-panel', '.routes-panel', '.signature-panel']) {
      expect(await top(panel), panel).toBeGreaterThan(journal);
    }
    // With a route's JSON open, still accessible.
    await page.locator('.route-json summary').first().click();
    expect(await axeViolations(page)).toEqual([]);
  });
});

test('the endpoint list shows how many requests each endpoint holds, and keeps it current', async () => {
  await api('endpoint/add', 'PUT', { name: 'counted', data: {} });
  await api('endpoint/add', 'PUT', { name: 'counted-never', data: {} });
  for (let i = 0; i < 2; i++) await fetch(`${web.server.url}/endpoint/counted`, { method: 'POST' });
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/`);
  const row = (name: string) => page.locator(`.endpoint-list a[data-name="${name}"]`);
  await poll(() => row('counted').locator('.requests').textContent()).toBe('2 req');
  expect(await row('counted').locator('.requests').getAttribute('title')).toBe('2 requests recorded');
  expect(await row('counted-never').locator('.requests').count()).toBe(0);
  await poll(() => row(NAME).locator('.requests').textContent()).toBe('3 req');
  expect(await axeViolations(page)).toEqual([]);
  // Live: a request sent now shows in the count without a reload.
  await fetch(`${web.server.url}/endpoint/counted-never`);
  await poll(() => row('counted-never').locator('.requests').textContent()).toBe('1 req');
});

test('routes read as a line each and as laid-out JSON, the exact text kept', async () => {
  const big =
    '[{"id":"big","match":{"method":"GET","path":"/big"},"answer":{"data":{"n":12345678901234567890,"x":1.0}}}]';
  const put = await fetch(`${web.server.url}/api/endpoints/exact-routes/routes`, {
    method: 'PUT',
    body: `{"routes":${big}}`,
  });
  expect(put.status).toBe(200);
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/exact-routes`);
  const rows = page.locator('.route-list li');
  await poll(() => rows.count()).toBe(1);
  expect(await rows.first().locator('.route-line').textContent()).toBe('bigGET /big200data');
  const laidOut = [
    '[',
    '  {',
    '    "id": "big",',
    '    "match": {',
    '      "method": "GET",',
    '      "path": "/big"',
    '    },',
    '    "answer": {',
    '      "data": {',
    '        "n": 12345678901234567890,',
    '        "x": 1.0',
    '      }',
    '    }',
    '  }',
    ']',
  ].join('\n');
  // The editor holds the list laid out, every token as stored.
  expect(await page.locator('#routes-text').inputValue()).toBe(laidOut);
  // Each route's own JSON, laid out, when opened.
  await rows.first().locator('summary').click();
  expect(await rows.first().locator('pre').textContent()).toBe(
    laidOut
      .split('\n')
      .slice(1, -1)
      .map((line) => line.slice(2))
      .join('\n'),
  );
  // Saving the laid-out text stores the same routes, byte for byte in data.
  await page.getByRole('button', { name: 'Save routes' }).click();
  await poll(async () => (await fetch(`${web.server.url}/endpoint/exact-routes/big`)).text()).toBe(
    '{"n":12345678901234567890,"x":1.0}',
  );
});

test('a name with routes and no record shows its routes and offers a stored response, not "create"', async () => {
  await api('endpoints/routes-only/routes', 'PUT', {
    routes: [{ id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: { id: 1 } } }],
  });
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/routes-only`);
  await poll(() => page.locator('.route-list li').count()).toBe(1);
  const notice = page.locator('.missing');
  await poll(() => notice.textContent()).toContain('“routes-only” answers by its route');
  expect(await notice.textContent()).not.toMatch(/no endpoint|does not exist|Create/);
  expect(await page.getByRole('link', { name: /Create/ }).count()).toBe(0);

  await page.getByRole('button', { name: 'Add a stored response' }).click();
  const nameField = page.getByLabel('Name', { exact: true });
  expect(await nameField.inputValue()).toBe('routes-only');
  expect(await nameField.evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel('Response body (JSON)').fill('{"fallback": true}');
  await page.getByRole('button', { name: 'Save stored response' }).click();
  await poll(() => page.locator('#detail-url').textContent()).toBe(`${web.server.url}/endpoint/routes-only`);
  expect(await (await fetch(`${web.server.url}/api/endpoints/routes-only`)).json()).toMatchObject({
    data: { fallback: true },
  });
  // Its routes are still there, and still answer.
  expect(await page.locator('.route-list li').count()).toBe(1);
  expect(await (await fetch(`${web.server.url}/endpoint/routes-only/users/7`)).json()).toEqual({ id: 1 });
});
