// The clock and rate buckets across real `mockpoint` daemons on one real redis-server:
// PUT /api/clock on one moves {{now}} on the other (and on a daemon started after it),
// and a route's rate limit counts the requests of both replicas together.

import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertBuilt, type Daemon, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

let redis: TestRedis;

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

/** A daemon on the test file's redis-server (its own: the keys start empty). */
function replica(): Promise<Daemon> {
  return startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } });
}

/** A bound on how long a replica takes to see another's change (a loaded CI machine), not a latency claim. */
const SEEN_WITHIN_MS = 10_000;

async function send(daemon: Daemon, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${daemon.url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('two daemons on one redis-server', () => {
  it('share the clock ({{now}}) and the rate buckets', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const routes = {
      routes: [
        { match: { path: '/now' }, answer: { template: true, body: '{{now}}' } },
        { id: 'limited', match: { path: '/limited' }, rateLimit: { limit: 3, per: '1h' }, answer: { data: 1 } },
      ],
    };
    expect((await send(a, 'PUT', '/api/endpoints/time/routes', routes)).status).toBe(200);
    expect((await send(a, 'PUT', '/api/clock', { freeze: true, set: '2030-01-01T00:00:00Z' })).status).toBe(200);
    await vi.waitFor(
      async () => expect(await (await send(b, 'GET', '/endpoint/time/now')).text()).toBe('2030-01-01T00:00:00.000Z'),
      { timeout: SEEN_WITHIN_MS, interval: 5 },
    );

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await send(i % 2 === 0 ? a : b, 'GET', '/endpoint/time/limited')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);

    // A daemon started later shows the shared clock from its first request.
    const c = await replica();
    expect(await (await send(c, 'GET', '/endpoint/time/now')).text()).toBe('2030-01-01T00:00:00.000Z');
    // An hour on the shared clock, moved on c, refills the bucket for all of them.
    expect((await send(c, 'PUT', '/api/clock', { advance: '1h' })).status).toBe(200);
    await vi.waitFor(
      async () => expect(await (await send(a, 'GET', '/endpoint/time/now')).text()).toBe('2030-01-01T01:00:00.000Z'),
      { timeout: SEEN_WITHIN_MS, interval: 5 },
    );
    expect((await send(a, 'GET', '/endpoint/time/limited')).status).toBe(200);

    expect((await send(b, 'DELETE', '/api/clock')).status).toBe(204);
    await vi.waitFor(
      async () => {
        const now = Date.parse(await (await send(a, 'GET', '/endpoint/time/now')).text());
        expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
      },
      { timeout: SEEN_WITHIN_MS, interval: 5 },
    );
  });
});
