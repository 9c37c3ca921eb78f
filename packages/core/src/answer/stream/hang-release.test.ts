/**
 * A streamed answer that ends with `hang` is let go (its body ends normally)
 * when the endpoint's queue or routes change, on every store: memory, LevelDB
 * on disk, and Redis, where a change made on another replica lets it go too.
 * Real sockets through the Node adapters; each wait is on the event itself.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeExchanges, closeListeners, dechunk, type Exchange, exchange } from '@mockpoint/testkit/raw-http';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { LevelStore } from '../../store/level/index.js';
import { RedisStore } from '../../store/redis/index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS } from '../../test-support/node-adapters.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  closeExchanges();
  await closeListeners();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HANG = { stream: { format: 'sse', events: [{ data: 'held' }], end: 'hang' } };

async function call(app: MockpointApp, method: string, path: string, body?: unknown): Promise<number> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await app.request(path, init);
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.status;
}

/** Sets the routes of `name` to one streamed answer that hangs. */
function hangingRoute(app: MockpointApp, name = 'feed'): Promise<number> {
  return call(app, 'PUT', `/api/endpoints/${name}/routes`, { routes: [{ answer: HANG }] });
}

/** A request to `/endpoint/feed/`, once its event has arrived and it hangs. */
async function held(port: number): Promise<Exchange> {
  const ex = exchange(port, '/endpoint/feed/');
  await ex.until('data: held\n\n');
  return ex;
}

/** The body ended normally (the terminating chunk came) with the events as sent. */
async function endsNormally(ex: Exchange): Promise<void> {
  await ex.complete();
  expect(dechunk(ex.text())).toMatchObject({ body: 'data: held\n\n', complete: true });
}

describe.each(NODE_ADAPTER_NAMES)('end hang, memory store (%s adapter)', (adapter) => {
  it('is let go when the routes of its name change, not when another name’s do', async () => {
    const app = createApp();
    await hangingRoute(app);
    await hangingRoute(app, 'other');
    const port = await NODE_ADAPTERS[adapter](app);
    const ex = await held(port);
    // Changed synchronously with the answer of the write: had it let go, the stream would be gone.
    await call(app, 'PUT', '/api/endpoints/other/routes', { routes: [] });
    await call(app, 'POST', '/api/endpoints/other/queue', { answers: [{ statusCode: 503 }] });
    expect(app.mockpoint.streams.size).toBe(1);
    expect(dechunk(ex.text()).complete).toBe(false);
    await call(app, 'POST', '/api/endpoints/feed/routes', { routes: [{ answer: { data: 1 } }] });
    await endsNormally(ex);
    await expect.poll(() => app.mockpoint.streams.size).toBe(0);
  });

  it('is let go when its queue is pushed to or cleared, or its record replaced', async () => {
    const app = createApp();
    await hangingRoute(app);
    const port = await NODE_ADAPTERS[adapter](app);
    const pushed = await held(port);
    await call(app, 'POST', '/api/endpoints/feed/queue', { answers: [{ match: { method: 'DELETE' }, data: 1 }] });
    await endsNormally(pushed);
    const cleared = await held(port);
    await call(app, 'DELETE', '/api/endpoints/feed/queue');
    await endsNormally(cleared);
    const replaced = await held(port);
    await call(app, 'PUT', '/api/endpoints/feed', { data: { v: 2 } });
    await endsNormally(replaced);
  });

  it('a queued streamed hang is let go by a route change; one that began after the change is not', async () => {
    const app = createApp();
    await call(app, 'POST', '/api/endpoints/feed/queue', { answers: [{ ...HANG, times: 2 }] });
    const port = await NODE_ADAPTERS[adapter](app);
    const first = await held(port);
    await call(app, 'PUT', '/api/endpoints/feed/routes', { routes: [{ answer: { data: 1 } }] });
    await endsNormally(first);
    const second = await held(port);
    expect(app.mockpoint.streams.size).toBe(1);
    expect(dechunk(second.text()).complete).toBe(false);
    await call(app, 'DELETE', '/api/endpoints/feed/routes');
    await endsNormally(second);
  });
});

describe('end hang, LevelDB store', () => {
  it('is let go when the routes change, and when the record is created', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-hang-'));
    const store = await LevelStore.open({ dir });
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    cleanups.push(() => store.close());
    const app = createApp({ store });
    await hangingRoute(app);
    const port = await NODE_ADAPTERS.native(app);
    const first = await held(port);
    await call(app, 'POST', '/api/endpoints/feed/routes', { routes: [{ match: { method: 'DELETE' }, answer: {} }] });
    await endsNormally(first);
    const second = await held(port);
    await call(app, 'PUT', '/api/endpoint/add', { name: 'feed', data: { ok: true } });
    await endsNormally(second);
  });
});

describe('end hang, Redis: two replicas', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  async function replica(keyPrefix: string): Promise<MockpointApp> {
    const store = await RedisStore.open({ url: redis.socket, keyPrefix });
    cleanups.push(() => store.close());
    return createApp({ store, journal: store.openJournal(), queue: await store.openAnswerQueue() });
  }

  it('a hang held by one replica is let go by a route change, a push or a clear on the other', async () => {
    const keyPrefix = `hang-${randomUUID()}:`;
    const [a, b] = [await replica(keyPrefix), await replica(keyPrefix)];
    await hangingRoute(b);
    const port = await NODE_ADAPTERS.native(a);
    // Replaced on b: a learns it over the store's change channel.
    const routed = await held(port);
    await hangingRoute(b);
    await endsNormally(routed);
    // Pushed on b: a learns it over the queue's notices (the push answers once a has seen it).
    const pushed = await held(port);
    await call(b, 'POST', '/api/endpoints/feed/queue', { answers: [{ match: { method: 'DELETE' }, data: 1 }] });
    await endsNormally(pushed);
    const cleared = await held(port);
    await call(b, 'DELETE', '/api/endpoints/feed/queue');
    await endsNormally(cleared);
    // A change to another name, on either replica, lets nothing go. (a's push answers once a
    // has read its notice, which Redis delivers after b's earlier route change notice.)
    const kept = await held(port);
    await hangingRoute(b, 'other');
    await call(a, 'POST', '/api/endpoints/other/queue', { answers: [{ statusCode: 503 }] });
    expect(a.mockpoint.streams.size).toBe(1);
    expect(dechunk(kept.text()).complete).toBe(false);
    await call(a, 'DELETE', '/api/endpoints/feed/routes');
    await endsNormally(kept);
  });
});
