/**
 * The web page's queued one-shot answers, in a real browser against a real
 * daemon: the endpoint's view lists what is queued (status or fault, times,
 * match, body kind, headers, stream, and the exact JSON); an answer typed there
 * is queued exactly as typed (a big integer is listed and served byte for
 * byte); a fault is one click; an answer the API refuses shows its code; Clear
 * asks first. The journal marks the requests a queued answer or fault served.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

async function endpoint(name: string): Promise<void> {
  const add = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name, data: { ok: true } }),
  });
  expect(add.status).toBe(201);
}

/** The queue as the server lists it, as text. */
async function queueText(name: string): Promise<string> {
  const response = await fetch(`${web.server.url}/api/endpoints/${name}/queue`);
  expect(response.status).toBe(200);
  return response.text();
}

const rows = (page: Page) => page.locator('.queue-list .queue-line').allTextContents();

test('the detail view lists queued answers and the journal marks queued answers and faults', async () => {
  const add = await fetch(`${web.server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'flaky', data: { ok: true } }),
  });
  expect(add.status).toBe(201);
  const queued = await fetch(`${web.server.url}/api/endpoints/flaky/queue`, {
    method: 'POST',
    body: JSON.stringify({ answers: [{ statusCode: 503, times: 2 }, { fault: 'reset' }] }),
  });
  expect(queued.status).toBe(201);

  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/flaky`);
  await poll(() => rows(page)).toEqual(['503×2', 'reset']);
  expect(await page.locator('.queue-count').textContent()).toBe('2 queued, next first');
  await poll(() => page.locator('.live').textContent()).toBe('Live');

  expect((await fetch(`${web.server.url}/endpoint/flaky`, { method: 'POST' })).status).toBe(503);
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  expect(await page.locator('.journal-list li summary').first().textContent()).toMatch(/503\s*queued/);

  await fetch(`${web.server.url}/endpoint/flaky`);
  const reset = await fetch(`${web.server.url}/endpoint/flaky`).catch((error: unknown) => error);
  expect((reset as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
  await poll(() => page.locator('.journal-list li').count()).toBe(3);
  const newest = page.locator('.journal-list li summary').first();
  expect(await newest.locator('.queued').textContent()).toBe('queued reset');
  expect(await newest.locator('.badge').count()).toBe(0); // no status line was sent
});

test('an answer typed in the page is queued exactly as typed: a big integer listed and served byte for byte', async () => {
  await endpoint('exact-queue');
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/exact-queue`);
  await poll(() => page.locator('.queue-panel .empty').textContent()).toMatch(/^Nothing queued/);

  const data = '{"n":12345678901234567890,"x":1.0,"z":-0,"b":2,"a":1}';
  await page.getByLabel('Queue an answer (JSON: one answer, or a list)').fill(`{"statusCode": 201, "data": ${data}}`);
  await page.getByRole('button', { name: 'Queue it' }).click();
  await poll(() => rows(page)).toEqual(['201data']);
  expect(await page.locator('#queue-text').inputValue()).toBe('');
  expect(await queueText('exact-queue')).toBe(`{"answers":[{"statusCode":201,"data":${data},"times":1}]}`);

  // Listed by the page as the server holds it: every digit, 1.0, -0 and the key order.
  await page.locator('.queue-json summary').first().click();
  expect(await page.locator('.queue-json pre').first().textContent()).toBe(
    '{\n  "statusCode": 201,\n  "data": {\n    "n": 12345678901234567890,\n    "x": 1.0,\n    "z": -0,\n    "b": 2,\n    "a": 1\n  },\n  "times": 1\n}',
  );

  const served = await fetch(`${web.server.url}/endpoint/exact-queue`);
  expect(served.status).toBe(201);
  expect(await served.text()).toBe(data);
  await poll(() => page.locator('.queue-panel .empty').count()).toBe(1);
});

test('match, headers, body and stream show in the list; a fault is one click; a refused answer shows its code; Clear asks', async () => {
  await endpoint('shapes');
  const { page } = await web.open();
  await page.goto(`${web.server.url}/#/e/shapes`);
  await poll(() => page.locator('.queue-panel .empty').count()).toBe(1);
  const box = page.locator('#queue-text');

  await box.fill(
    '[{"match":{"method":"post","path":"/orders","body":{"id":1}},"statusCode":202,"headers":{"x-trace":"abc","set-cookie":["a=1","b=2"]},"body":"ok","times":3},' +
      '{"stream":{"format":"sse","events":[{"data":{"a":1}},{"data":{"a":2}}],"end":"hang"}}]',
  );
  await page.getByRole('button', { name: 'Queue it' }).click();
  await page.getByRole('button', { name: 'Queue a reset fault' }).click();
  await poll(() => rows(page)).toEqual([
    '202×3only POST /orders + bodytext bodyheaders: x-trace, set-cookie',
    'status as usualstream: sse, 2 events, then hang',
    'reset',
  ]);
  expect(await page.locator('.answer-headers').getAttribute('title')).toBe(
    'x-trace: abc\nset-cookie: a=1\nset-cookie: b=2',
  );

  await box.fill('{"fault":"explode"}');
  await page.getByRole('button', { name: 'Queue it' }).click();
  await poll(() => page.locator('#queue-problem').textContent()).toMatch(/^Could not queue: INVALID_FAULT: /);
  expect(await box.inputValue()).toBe('{"fault":"explode"}'); // kept, to be corrected
  expect(JSON.parse(await queueText('shapes')).answers).toHaveLength(3);

  await page.getByRole('button', { name: 'Clear queue' }).click();
  await page.getByRole('button', { name: 'Keep them' }).click();
  expect(JSON.parse(await queueText('shapes')).answers).toHaveLength(3);
  await page.getByRole('button', { name: 'Clear queue' }).click();
  await page.getByRole('group', { name: 'Clear the queue' }).getByRole('button', { name: 'Remove them' }).click();
  await poll(() => queueText('shapes')).toBe('{"answers":[]}');
  await poll(() => page.locator('.queue-panel .empty').count()).toBe(1);
});
