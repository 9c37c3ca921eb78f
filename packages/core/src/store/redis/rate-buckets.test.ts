// Routes' rate buckets shared by two replicas on one real redis-server: together
// they let `limit` through per window, by the shared clock; saving the routes,
// deleting the name or a reset starts them full; namespaces count apart.
import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import type { Backend } from '../backend.js';
import { redisBackend } from './index.js';

let redis: TestRedis;
const opened: Backend[] = [];
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const backend of opened) await backend.close();
  await redis?.dispose();
});

async function replicas(): Promise<[MockpointApp, MockpointApp]> {
  const keyPrefix = `rl-${randomUUID()}:`;
  const make = async () => {
    const backend = await redisBackend({ url: redis.socket, keyPrefix });
    opened.push(backend);
    const app = createApp({ backend });
    await app.mockpoint.clockLoaded;
    return app;
  };
  return [await make(), await make()];
}

const ROUTES = JSON.stringify({
  routes: [
    { id: 'repo', match: { path: '/repo' }, rateLimit: { limit: 4, per: '1m', style: 'github' }, answer: { data: 1 } },
  ],
});

async function saveRoutes(app: MockpointApp, base = ''): Promise<void> {
  expect((await app.request(`${base}/api/endpoints/gh/routes`, { method: 'PUT', body: ROUTES })).status).toBe(200);
}

/** The statuses of `count` requests, alternating between the replicas, one after another. */
async function statuses(apps: MockpointApp[], count: number, base = ''): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++)
    out.push((await apps[i % apps.length]?.request(`${base}/endpoint/gh/repo`))?.status ?? 0);
  return out;
}

type ClockJson = { now: string; frozen: boolean };

async function clockOf(app: MockpointApp, base = ''): Promise<ClockJson> {
  return (await app.request(`${base}/api/clock`)).json() as Promise<ClockJson>;
}

async function change(app: MockpointApp, body: string, base = ''): Promise<ClockJson> {
  const response = await app.request(`${base}/api/clock`, { method: 'PUT', body });
  expect(response.status).toBe(200);
  return response.json() as Promise<ClockJson>;
}

/** Freezes the shared clock on `a`, once `b` shows it frozen too. */
async function freezeBoth(a: MockpointApp, b: MockpointApp, base = ''): Promise<void> {
  const frozen = await change(a, '{"freeze":true}', base);
  await expect.poll(async () => (await clockOf(b, base)).now).toBe(frozen.now);
}

describe('rate buckets on Redis replicas', () => {
  it('two replicas together allow limit per window, and the shared clock refills them', async () => {
    const [a, b] = await replicas();
    await saveRoutes(a);
    await freezeBoth(a, b);
    expect(await statuses([a, b], 6)).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await b.request('/endpoint/gh/repo');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('retry-after')).toBe('15');
    // Concurrent requests over both replicas: none passes an empty bucket.
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => [a, b][i % 2]?.request('/endpoint/gh/repo')));
    expect(racing.filter((r) => r?.status === 200)).toHaveLength(0);
    // A quarter of the window on the (frozen, shared) clock gives one token back, seen by both replicas.
    const moved = await change(b, '{"advance":"15s"}');
    await expect.poll(async () => (await clockOf(a)).now).toBe(moved.now);
    expect(await statuses([a, b], 2)).toEqual([200, 429]);
    const later = await change(a, '{"advance":"1m"}');
    await expect.poll(async () => (await clockOf(b)).now).toBe(later.now);
    expect(await statuses([b, a], 5)).toEqual([200, 200, 200, 200, 429]);
  });

  it('concurrent requests spread over both replicas get exactly limit', async () => {
    const [a, b] = await replicas();
    await saveRoutes(a);
    await freezeBoth(a, b);
    const all = await Promise.all(Array.from({ length: 30 }, (_, i) => [a, b][i % 2]?.request('/endpoint/gh/repo')));
    expect(all.filter((r) => r?.status === 200)).toHaveLength(4);
    expect(all.filter((r) => r?.status === 429)).toHaveLength(26);
  });

  it('saving the routes (the same again) or a reset on one replica starts the buckets full on both', async () => {
    const [a, b] = await replicas();
    await saveRoutes(a);
    await freezeBoth(a, b);
    expect(await statuses([a, b], 5)).toEqual([200, 200, 200, 200, 429]);
    await saveRoutes(b); // the same routes again
    expect(await statuses([a, b], 5)).toEqual([200, 200, 200, 200, 429]);
    expect((await b.request('/api/endpoints/gh/reset', { method: 'POST' })).status).toBe(204);
    expect(await statuses([b, a], 5)).toEqual([200, 200, 200, 200, 429]);
    expect((await a.request('/api/reset', { method: 'POST' })).status).toBe(204);
    expect(await statuses([a, b], 5)).toEqual([200, 200, 200, 200, 429]);
  });

  it('each namespace counts its own', async () => {
    const [a, b] = await replicas();
    expect((await a.request('/api/namespaces', { method: 'POST', body: '{"name":"n1"}' })).status).toBe(201);
    await saveRoutes(a);
    await saveRoutes(a, '/ns/n1');
    await freezeBoth(a, b);
    await freezeBoth(a, b, '/ns/n1');
    expect(await statuses([a, b], 5)).toEqual([200, 200, 200, 200, 429]);
    expect(await statuses([b, a], 5, '/ns/n1')).toEqual([200, 200, 200, 200, 429]);
  });
});
