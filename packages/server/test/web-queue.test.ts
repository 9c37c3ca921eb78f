/**
 * The web page's view of queued one-shot answers, in a real browser against a
 * real daemon: the detail view lists what is queued, and the journal marks the
 * requests a queued answer or fault served.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { closeBrowser, openPage, poll, startWebDaemon, useBrowser } from './web-support.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startWebDaemon();
});

afterAll(async () => {
  await closeBrowser();
  await server?.close();
});

test('the detail view lists queued answers and the journal marks queued answers and faults', async () => {
  const add = await fetch(`${server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'flaky', data: { ok: true } }),
  });
  expect(add.status).toBe(201);
  const queued = await fetch(`${server.url}/api/endpoints/flaky/queue`, {
    method: 'POST',
    body: JSON.stringify({ answers: [{ statusCode: 503, times: 2 }, { fault: 'reset' }] }),
  });
  expect(queued.status).toBe(201);

  const watched = await openPage(await useBrowser());
  const { page } = watched;
  try {
    await page.goto(`${server.url}/#/e/flaky`);
    await poll(() => page.locator('.queued-line').textContent()).toBe(
      'Queued one-shot answers (next first): 503 ×2 · reset',
    );
    await poll(() => page.locator('.live').textContent()).toBe('Live');

    expect((await fetch(`${server.url}/endpoint/flaky`, { method: 'POST' })).status).toBe(503);
    await poll(() => page.locator('.journal-list li').count()).toBe(1);
    expect(await page.locator('.journal-list li summary').first().textContent()).toMatch(/503\s*queued/);

    await fetch(`${server.url}/endpoint/flaky`);
    const reset = await fetch(`${server.url}/endpoint/flaky`).catch((error: unknown) => error);
    expect((reset as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    await poll(() => page.locator('.journal-list li').count()).toBe(3);
    const newest = page.locator('.journal-list li summary').first();
    expect(await newest.locator('.queued').textContent()).toBe('queued reset');
    expect(await newest.locator('.badge').count()).toBe(0); // no status line was sent
    expect(watched.problems).toEqual([]);
  } finally {
    await page.context().close();
  }
});
