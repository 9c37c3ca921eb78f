/**
 * The web page's view of queued one-shot answers, in a real browser against a
 * real daemon: the detail view lists what is queued, and the journal marks the
 * requests a queued answer or fault served.
 */
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

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
  await poll(() => page.locator('.queued-line').textContent()).toBe(
    'Queued one-shot answers (next first): 503 ×2 · reset',
  );
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
