// A long route list under a steady stream of requests from a cold start: the requests that come
// while the list is being read and compiled share that one compilation, which is then cached
// (core's engine/read-tokens.ts). Before, each request withdrew the read of the one before it, so
// none was cached and every request decoded the whole list again: the daemon answered a few
// requests a second (0 in some 5 s wrk rounds of bench/binary-paths.mjs).
import { describe, expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

/** ~800 bytes of JSON, each route's answer: 1,000 of them make a list decoded a slice per turn. */
const data = {
  items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, note: 'x'.repeat(60) })),
};
const ROUTES = 1000;
const REQUESTS = 1000;
const IN_FLIGHT = 20;
/**
 * How long the stream may take: the bound is the behaviour. Cached, the 1,000 requests took about
 * 1.5 s here; decoding the list for each, about 25 requests a second were answered (379 of 400 in 15 s).
 */
const BOUND_MS = 15_000;

describe('the last of 1,000 routes under a steady stream of requests from a cold start', () => {
  it('is compiled once: 1,000 requests, 20 in flight, all answered within the bound', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const routes = Array.from({ length: ROUTES }, (_, i) => ({
      id: `r${i}`,
      match: { method: 'GET', path: `/items/${i}/detail` },
      answer: { statusCode: 201, data },
    }));
    const put = await requestJson(`${daemon.url}/api/endpoints/many/routes`, { method: 'PUT', body: { routes } });
    expect(put.status).toBe(200);
    const url = `${daemon.url}/endpoint/many/items/${ROUTES - 1}/detail`;
    const deadline = Date.now() + BOUND_MS;
    let sent = 0;
    const statuses: number[] = [];
    // Each worker sends its next request as soon as its last is answered, until the count or the bound.
    const worker = async () => {
      while (sent < REQUESTS && Date.now() < deadline) {
        sent++;
        const response = await fetch(url);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(statuses.length).toBe(REQUESTS);
    expect(statuses.every((status) => status === 201)).toBe(true);
  }, 60_000);
});
