/**
 * The page behind a reverse proxy that serves it under `/mock/` and strips the
 * prefix: every URL in the page is relative, so everything still works, and the
 * page never asks for a path outside the prefix.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type PrefixProxy, poll, screenshot, startPrefixProxy, useWebTest } from './web-support.js';

const web = useWebTest();
let proxy: PrefixProxy;

beforeAll(async () => {
  proxy = await startPrefixProxy(web.server.url, '/mock');
});

afterAll(async () => {
  await proxy?.close();
});

test('the proxy redirects /mock to /mock/ (the proxy’s job, as the docs say)', async () => {
  const answer = await fetch(proxy.url.replace(/\/$/, ''), { redirect: 'manual' });
  expect(answer.status).toBe(301);
  expect(answer.headers.get('location')).toBe('/mock/');
});

test('under /mock/: create, list, detail with prefixed URLs, live journal, delete', async () => {
  const { page, requests } = await web.open();
  const origin = new URL(proxy.url).origin;
  await page.goto(proxy.url);
  await poll(() => page.locator('#version').textContent()).toMatch(/^v\S+ · memory store$/);

  await page.getByLabel('Name').fill('behind-proxy');
  await page.getByLabel('Response body (JSON)').fill('{"via": "proxy"}');
  expect(await page.locator('.url-preview').textContent()).toBe(`${origin}/mock/endpoint/behind-proxy`);
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await page.waitForURL(`${origin}/mock/#/e/behind-proxy`);
  await poll(() => page.locator('.endpoint-list .name').allTextContents()).toEqual(['behind-proxy']);

  const url = `${origin}/mock/endpoint/behind-proxy`;
  await poll(() => page.locator('#detail-url').textContent()).toBe(url);
  expect(await page.locator('#detail-curl').textContent()).toBe(`curl -i ${url}`);
  await poll(() => page.locator('.live').textContent()).toBe('Live');

  // A request through the proxy shows up live (the journal stream goes through the proxy too).
  const answer = await fetch(`${url}?hello=1`, { method: 'POST', body: '{"n":1}' });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ via: 'proxy' });
  await poll(() => page.locator('.journal-list li').count()).toBe(1);
  expect(await page.locator('.journal-list .path').textContent()).toBe('/endpoint/behind-proxy?hello=1');
  await screenshot(page, 'proxy-detail');

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Delete “behind-proxy”' }).click();
  await page.waitForURL(`${origin}/mock/#/`);
  await poll(() => page.locator('.endpoint-list li').count()).toBe(0);
  expect((await fetch(url)).status).toBe(404);

  // Every request the page made went to the proxy, under the prefix: nothing absolute, nothing outside.
  const toProxy = requests.filter((r) => r.startsWith(origin));
  expect(toProxy.length).toBeGreaterThan(5);
  expect(requests.filter((r) => !r.startsWith(`${origin}/mock/`) && !r.startsWith('data:'))).toEqual([]);
  expect(proxy.paths.filter((p) => !p.startsWith('/mock/'))).toEqual(['/mock']);
  expect(requests.some((r) => r.includes('/mock/static/app.'))).toBe(true);
  expect(requests.some((r) => r.includes('/mock/api/endpoints/behind-proxy/requests/stream'))).toBe(true);
});
