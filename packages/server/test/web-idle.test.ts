/**
 * What the page costs the network while nobody touches it: the endpoint list open on a daemon
 * with a few endpoints, 10 s of the page's own clock run forward (its timers fire, the requests
 * are real), every byte of each request and answer counted (headers included, as Chromium
 * reports them). Goal (issue #62): under 5 KB per 10 s; it was 6.3 KB (a refresh every 3 s of
 * the list and the inbox, each a conditional GET answered 304).
 */
import type { Request } from 'playwright-core';
import { expect, test } from 'vitest';
import { poll, useWebTest } from './web-support.js';

const web = useWebTest();

/** Every byte a request and its answer took, headers included. */
async function bytesOf(request: Request): Promise<number> {
  const sizes = await request.sizes();
  return sizes.requestHeadersSize + sizes.requestBodySize + sizes.responseHeadersSize + sizes.responseBodySize;
}

test('an idle endpoint list takes under 5 KB per 10 s', async () => {
  for (const name of ['users', 'orders', 'payments']) {
    const put = await fetch(`${web.server.url}/api/endpoint/add`, {
      method: 'PUT',
      body: JSON.stringify({ name, data: { name } }),
    });
    expect(put.status).toBe(201);
  }
  const { page } = await web.open();
  await page.clock.install();
  await page.goto(`${web.server.url}/#/`);
  await poll(() => page.locator('.endpoint-list li, #list li').count()).toBeGreaterThan(0);
  // Settled: what the first load asked for has been answered.
  await page.clock.runFor(1000);
  await page.waitForLoadState('networkidle');
  const started: Request[] = [];
  const pending = new Set<Request>();
  page.on('request', (request) => {
    started.push(request);
    pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  // A second at a time, each second's requests answered before the next, as a real clock would see
  // it. The window starts at a refresh (the worst 10 s: one at its start, the rest inside it).
  const second = async () => {
    await page.clock.runFor(1000);
    await poll(() => pending.size).toBe(0);
  };
  for (let wait = 0; wait < 10 && started.length === 0; wait++) await second();
  expect(started.length).toBeGreaterThan(0); // it does keep itself current
  for (let rest = 0; rest < 9; rest++) await second();
  // Each request's sizes once its answer has come (sizes() waits for it).
  const bytes = (await Promise.all(started.map(bytesOf))).reduce((sum, one) => sum + one, 0);
  console.log(`idle list page: ${started.length} requests, ${bytes} bytes in 10 s`);
  expect(bytes).toBeLessThan(5000);
});
