/**
 * The journal on the page follows the live journal stream (issue 24.9), in
 * Debian's Chromium through a small proxy that can cut connections, refuse the
 * stream or sit on it: pushed rows with no polling, a cut stream resumed after
 * the newest id shown (`Last-Event-ID`) with nothing lost or doubled, and
 * long-polling where the stream is refused or stays silent.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import {
  closeBrowser,
  openPage,
  type PrefixProxy,
  type PrefixProxyOptions,
  poll,
  startPrefixProxy,
  startWebDaemon,
  useBrowser,
  type WatchedPage,
} from './web-support.js';

let server: RunningServer;
const pages: WatchedPage[] = [];
const proxies: PrefixProxy[] = [];

beforeAll(async () => {
  server = await startWebDaemon();
  const added = await fetch(`${server.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'hook', data: { ok: true } }),
  });
  expect(added.status).toBe(201);
});

afterEach(async () => {
  for (const watched of pages.splice(0)) {
    await watched.page.context().close();
    // A cut stream is logged by the browser as a failed load; nothing else may go wrong.
    expect(watched.problems.filter((p) => !/ERR_(EMPTY_RESPONSE|CONNECTION_RESET|INCOMPLETE_CHUNKED)/.test(p))).toEqual(
      [],
    );
  }
  for (const proxy of proxies.splice(0)) await proxy.close();
  expect((await fetch(`${server.url}/api/endpoints/hook/requests`, { method: 'DELETE' })).status).toBe(204);
});

afterAll(async () => {
  await closeBrowser();
  await server?.close();
});

async function through(options: PrefixProxyOptions = {}): Promise<{ page: Page; proxy: PrefixProxy }> {
  const proxy = await startPrefixProxy(server.url, '/mock', options);
  proxies.push(proxy);
  const watched = await openPage(await useBrowser());
  pages.push(watched);
  await watched.page.goto(`${proxy.url}#/e/hook`);
  await poll(() => watched.page.locator('.live').textContent()).toBe('Live');
  return { page: watched.page, proxy };
}

async function send(label: string): Promise<void> {
  expect((await fetch(`${server.url}/endpoint/hook?n=${label}`, { method: 'POST', body: label })).status).toBe(200);
}

const shownIds = (page: Page) =>
  page.locator('.journal-list li').evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.id)));
const transport = (page: Page) => page.locator('.live').getAttribute('data-transport');

test('rows are pushed by the stream (no polling); a cut stream resumes after the newest id, nothing lost or twice', async () => {
  const { page, proxy } = await through();
  expect(await transport(page)).toBe('stream');
  await send('a');
  await send('b');
  await poll(() => page.locator('.journal-list li').count()).toBe(2);
  const newest = (await shownIds(page))[0] as number;

  proxy.cut();
  // Sent while the page reconnects: the stream resumes after the newest id it showed.
  await send('c');
  await send('d');
  await poll(() => shownIds(page)).toEqual([newest + 2, newest + 1, newest, newest - 1]);
  expect(await page.locator('.journal-list .path').allTextContents()).toEqual([
    '/endpoint/hook?n=d',
    '/endpoint/hook?n=c',
    '/endpoint/hook?n=b',
    '/endpoint/hook?n=a',
  ]);
  const streams = proxy.asked.filter((a) => a.path.includes('/api/endpoints/hook/requests/stream'));
  expect(streams.length).toBeGreaterThanOrEqual(2);
  expect(streams.at(-1)?.lastEventId).toBe(String(newest));
  // One read of the journal when the view opened; everything after came from the stream.
  expect(proxy.asked.filter((a) => /\/api\/endpoints\/hook\/requests(\?|$)/.test(a.path)).map((a) => a.path)).toEqual([
    '/mock/api/endpoints/hook/requests',
  ]);
  await poll(() => page.locator('.live').textContent()).toBe('Live');
  expect(await transport(page)).toBe('stream');
});

test('where a proxy refuses the stream, the page long-polls instead', async () => {
  const { page, proxy } = await through({ refuse: /\/requests\/stream/ });
  await poll(() => transport(page)).toBe('long-poll');
  await send('a');
  await poll(() => page.locator('.journal-list .path').allTextContents()).toEqual(['/endpoint/hook?n=a']);
  // Polled, not read once: on a loaded machine the row can come from a catch-up read after a
  // failed call, and the long-poll that follows it is then asked a moment later.
  await poll(() => proxy.asked.some((a) => /\/requests\?wait=25000&count=1&after=\d+$/.test(a.path))).toBe(true);
});

test('where a proxy sits on the stream (sends nothing), the page long-polls after a while', async () => {
  const { page, proxy } = await through({ hold: /\/requests\/stream/ });
  // The page gives a silent stream 10 s.
  await expect.poll(() => transport(page), { timeout: 30_000, interval: 100 }).toBe('long-poll');
  await send('a');
  await poll(() => page.locator('.journal-list .path').allTextContents()).toEqual(['/endpoint/hook?n=a']);
  expect(proxy.asked.some((a) => a.path.includes('/requests/stream'))).toBe(true);
}, 60_000);
