import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NAMESPACE_CHAOS_KEY } from '../../api/chaos.js';
import type { EndpointRecord } from '../../api/schemas.js';
import { EndpointService } from '../../engine/endpoint-service.js';
import type { AnswerQueue } from '../../queue/answer-queue.js';
import { SETTING_KINDS } from '../../settings/name-settings.js';
import { runBackendContract } from '../backend.case.test.js';
import { boundedStore } from '../bounded-store.js';
import { MemoryAnswerQueue } from '../memory/memory-answer-queue.js';
import { MemoryCollectionStore } from '../memory/memory-collection-store.js';
import { MemoryStateStore } from '../memory/memory-state-store.js';
import { storeNames } from '../name-ledger.js';
import { checkEarlierSettings, EARLIER_SETTINGS } from '../settings/stored-layout.case.test.js';
import { runStoreContract, SETTING_SAMPLES } from '../store.case.test.js';
import type { EndpointStore } from '../store.js';
import { RedisStore, type RedisStoreOptions, redisBackend } from './index.js';

/** A service over `store` with this queue (default: in memory), its other parts in memory. */
function serviceOver(store: EndpointStore, queue: AnswerQueue = new MemoryAnswerQueue()): EndpointService {
  return new EndpointService(store, 1024 * 1024, queue, new MemoryCollectionStore(), new MemoryStateStore());
}

let redis: TestRedis;

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await redis?.dispose();
});

// One redis-server for the file; every store gets keys of its own.
runStoreContract('RedisStore', () => RedisStore.open({ url: redis.socket, keyPrefix: `t-${randomUUID()}:` }));

// The test redis-server fsyncs every write (appendfsync always) or will not say: either way it is described as redis.
runBackendContract(
  'redisBackend',
  { kind: 'redis', storeKind: 'redis', collectionsKind: 'redis', describes: /^redis at unix:\S+/ },
  async () => ({
    backend: await redisBackend({ url: redis.socket, keyPrefix: `t-${randomUUID()}:` }),
  }),
);

function record(name: string, data: unknown, statusCode = 200, delay = 0): EndpointRecord {
  return { name, data, statusCode, delay };
}

/** A record as plain JSON values (stores may hold `data` as its exact JSON text). */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Resolves once `check` is true, or rejects after `ms`. */
async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: ms });
}

describe('keys an earlier version wrote', () => {
  it('loads every per-name setting from the hashes it used (<prefix>signatures, <prefix>chaos, …)', async () => {
    const keyPrefix = `old-${randomUUID()}:`;
    const hashes = { signature: 'signatures', chaos: 'chaos', graphql: 'graphql', grpc: 'grpc', hosts: 'hosts' };
    const raw = createClient({ socket: { path: redis.socket, tls: false } });
    await raw.connect();
    try {
      for (const [kind, { name, text }] of Object.entries(EARLIER_SETTINGS)) {
        await raw.hSet(`${keyPrefix}${hashes[kind as keyof typeof hashes]}`, name, text);
      }
    } finally {
      raw.destroy();
    }
    const store = await RedisStore.open({ url: redis.socket, keyPrefix });
    try {
      await checkEarlierSettings(store);
    } finally {
      await store.close();
    }
  });
});

describe('RedisStore', () => {
  const stores: RedisStore[] = [];

  async function open(options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> {
    const store = await RedisStore.open({ url: redis.socket, ...options });
    stores.push(store);
    return store;
  }

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    redis.resume();
    if (!redis.running) await redis.start();
  });

  it('a cap holds across replicas: 200 new names written at once through two stores make exactly the cap', async () => {
    const keyPrefix = `cap-${randomUUID()}:`;
    const [a, b] = [await open({ keyPrefix }), await open({ keyPrefix })];
    const replicas = [boundedStore(a, 50), boundedStore(b, 50)];
    const settled = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => {
        const replica = replicas[i % 2] as EndpointStore;
        const name = `n${i}`;
        if (i % 3 === 0) return replica.put(record(name, i));
        if (i % 3 === 1) return replica.updateRoutes(name, () => [{ id: 'r', answer: { data: i } }]);
        return replica.setSetting('graphql', name, 'type Query { a: Int }');
      }),
    );
    const refused = settled.filter((result) => result.status === 'rejected');
    expect(settled.length - refused.length).toBe(50);
    for (const result of refused) expect(result.reason).toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
    expect((await storeNames(a)).size).toBe(50);
    // A name deleted through one replica frees its place for the other.
    const held = [...(await storeNames(a))][0] as string;
    await replicas[0]?.delete(held);
    await replicas[1]?.put(record('late', 1));
    await expect(replicas[0]?.put(record('later', 1))).rejects.toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
  });

  it('reports its kind, where Redis is, and that this Redis fsyncs every write', async () => {
    const store = await open({ keyPrefix: `k-${randomUUID()}:` });
    expect(store.kind).toBe('redis');
    expect(store.location).toBe(`unix:${redis.socket}`);
    expect(store.durable).toBe(true);
    expect(store.health()).toEqual({ status: 'ok' });
  });

  it('accepts unix:// socket URLs and refuses other schemes with an actionable message', async () => {
    const store = await open({ url: `unix://${redis.socket}`, keyPrefix: `u-${randomUUID()}:` });
    expect(await store.create(record('u', 1))).toBe(true);
    await expect(RedisStore.open({ url: 'http://localhost:6379' })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('redis://'),
    });
  });

  it('two stores on one Redis (as two replicas) share records and race creates atomically', async () => {
    const keyPrefix = `s-${randomUUID()}:`;
    const a = await open({ keyPrefix });
    const b = await open({ keyPrefix });
    expect(await a.create(record('shared', { from: 'a' }))).toBe(true);
    expect(plain(await b.get('shared'))).toEqual(record('shared', { from: 'a' }));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).create(record('race', { i }))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await a.count()).toBe(2);
  });

  it('tells the other store of each write, delete and clear, but not of its own', async () => {
    const keyPrefix = `c-${randomUUID()}:`;
    const a = await open({ keyPrefix });
    const b = await open({ keyPrefix });
    const seenByA: (string | undefined)[] = [];
    const seenByB: (string | undefined)[] = [];
    a.changes.subscribe((name) => seenByA.push(name));
    b.changes.subscribe((name) => seenByB.push(name));
    await a.create(record('one', 1));
    await a.put(record('one', 2));
    await a.create(record('one', 3)); // taken: nothing changes, nothing is sent
    await a.delete('one');
    await a.delete('one'); // missing: nothing is sent
    await a.clear();
    await eventually(() => seenByB.length === 4);
    expect(seenByB).toEqual(['one', 'one', 'one', undefined]);
    expect(seenByA).toEqual([]);
  });

  it('every declared setting written through one replica is read and announced on the other; a setting-only delete too', async () => {
    const keyPrefix = `set-${randomUUID()}:`;
    const a = await open({ keyPrefix });
    const b = await open({ keyPrefix });
    const seenByB: (string | undefined)[] = [];
    b.changes.subscribe((name) => seenByB.push(name));
    for (const kind of SETTING_KINDS) {
      const [first] = SETTING_SAMPLES[kind];
      const name = `only-${kind}`;
      expect(await a.setSetting(kind, name, first)).toBe(false);
      expect(await b.getSetting(kind, name), kind).toEqual(first);
      expect(await b.settingNames(kind), kind).toEqual([name]);
      expect(await b.setSetting(kind, name, undefined)).toBe(true);
      expect(await a.getSetting(kind, name), kind).toBeUndefined();
      await a.setSetting(kind, name, first);
      expect(await a.delete(name)).toBe(true);
      expect(await b.getSetting(kind, name), kind).toBeUndefined();
    }
    // Per kind: the set and the second set from a, then its delete (b's own removal is not sent to b).
    const expected = SETTING_KINDS.flatMap((kind) => [`only-${kind}`, `only-${kind}`, `only-${kind}`]);
    await eventually(() => seenByB.length === expected.length);
    expect(seenByB).toEqual(expected);
  });

  it('an EndpointService on one store stops serving a record replaced through another', async () => {
    const keyPrefix = `e-${randomUUID()}:`;
    const a = serviceOver(await open({ keyPrefix }));
    const b = serviceOver(await open({ keyPrefix }));
    await a.create(record('cached', 'old'));
    // A read that overlaps the create's own change message is (rightly) not cached: read until one is.
    await eventually(() => {
      void b.response('cached');
      return b.cache.get('cached')?.body === '"old"';
    });
    await a.put(record('cached', 'new'));
    await eventually(() => b.cache.get('cached') === undefined);
    expect((await b.response('cached'))?.body).toBe('"new"');
    await a.delete('cached');
    await eventually(() => b.cache.get('cached') === undefined);
    expect(await b.response('cached')).toBeUndefined();
  });

  it("an EndpointService on one store drops a chaos plan set or cleared through another (a replica's change)", async () => {
    const keyPrefix = `c-${randomUUID()}:`;
    const a = serviceOver(await open({ keyPrefix }));
    const b = serviceOver(await open({ keyPrefix }));
    // b knows "no chaos" (null cached) until a sets some.
    await eventually(() => {
      void b.compiled.read('chaos', 'flaky');
      return b.compiled.get('chaos', 'flaky') === null;
    });
    await a.setSetting('chaos', 'flaky', { rate: 1, faults: ['503'], seed: 1 });
    await eventually(() => b.compiled.get('chaos', 'flaky') === undefined);
    expect((await b.compiled.read('chaos', 'flaky'))?.settings).toEqual({ rate: 1, faults: ['503'], seed: 1 });
    await eventually(() => {
      void b.compiled.read('chaos', 'flaky');
      return b.compiled.get('chaos', 'flaky') !== undefined;
    });
    await a.setSetting('chaos', 'flaky', undefined);
    await eventually(() => b.compiled.get('chaos', 'flaky') === undefined);
    expect(await b.compiled.read('chaos', 'flaky')).toBeNull();
  });

  it("the namespace's chaos set or cleared through one replica reaches another's plans", async () => {
    const keyPrefix = `n-${randomUUID()}:`;
    const a = serviceOver(await open({ keyPrefix }));
    const b = serviceOver(await open({ keyPrefix }));
    await eventually(() => {
      void b.compiled.read('chaos', NAMESPACE_CHAOS_KEY);
      return b.compiled.get('chaos', NAMESPACE_CHAOS_KEY) === null;
    });
    await a.setNamespaceChaos({ rate: 1, faults: ['429'] });
    await eventually(() => b.compiled.get('chaos', NAMESPACE_CHAOS_KEY) === undefined);
    expect((await b.compiled.read('chaos', NAMESPACE_CHAOS_KEY))?.settings).toEqual({ rate: 1, faults: ['429'] });
    expect(await b.namespaceChaos()).toEqual({ rate: 1, faults: ['429'] });
    await eventually(() => {
      void b.compiled.read('chaos', NAMESPACE_CHAOS_KEY);
      return b.compiled.get('chaos', NAMESPACE_CHAOS_KEY) !== undefined;
    });
    await a.setNamespaceChaos(undefined);
    await eventually(() => b.compiled.get('chaos', NAMESPACE_CHAOS_KEY) === undefined);
    expect(await b.compiled.read('chaos', NAMESPACE_CHAOS_KEY)).toBeNull();
  });

  it('acknowledged writes survive a Redis crash (SIGKILL) with appendfsync always', async () => {
    const keyPrefix = `d-${randomUUID()}:`;
    const store = await open({ keyPrefix });
    for (let i = 0; i < 20; i++) await store.create(record(`kept-${i}`, { i, text: 'héllo 🎉' }));
    await store.put(record('kept-0', 'replaced', 201, 5));
    await store.delete('kept-1');
    await redis.stop('SIGKILL');
    await redis.start();
    const after = await open({ keyPrefix });
    expect(await after.count()).toBe(19);
    expect(plain(await after.get('kept-0'))).toEqual(record('kept-0', 'replaced', 201, 5));
    expect(plain(await after.get('kept-1'))).toBeUndefined();
    expect(plain(await after.get('kept-19'))).toEqual(record('kept-19', { i: 19, text: 'héllo 🎉' }));
  });

  it('while Redis is down every operation rejects STORE_UNAVAILABLE within a bound; then it reconnects by itself', async () => {
    const keyPrefix = `f-${randomUUID()}:`;
    const store = await open({ keyPrefix, operationTimeoutMs: 1000, reconnectDelayMs: 50 });
    const changes: (string | undefined)[] = [];
    store.changes.subscribe((name) => changes.push(name));
    await store.create(record('before', 1));
    await redis.stop('SIGTERM');
    await eventually(() => store.health().status === 'unavailable');
    expect(store.changes.live).toBe(false);
    expect(changes).toContain(undefined); // "forget everything" when changes may be missed
    expect(store.health().reason).toContain('reconnecting');
    const started = Date.now();
    const outcomes = await Promise.allSettled([
      store.get('before'),
      store.create(record('during', 1)),
      store.put(record('during', 2)),
      store.delete('before'),
      store.list({ limit: 10 }),
      store.count(),
      store.clear(),
    ]);
    // Generous: the bound is the operation timeout (1 s), not the reconnect loop.
    expect(Date.now() - started).toBeLessThan(5000);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        name: 'MockpointError',
        code: 'STORE_UNAVAILABLE',
        message: expect.stringContaining(`Redis at unix:${redis.socket} is unavailable`),
      });
    }
    await redis.start();
    await eventually(() => store.health().status === 'ok' && store.changes.live);
    expect(await store.create(record('after', 2))).toBe(true);
    expect(plain(await store.get('before'))).toEqual(record('before', 1));
  });

  it('a Redis that accepts but never answers (SIGSTOP) fails operations after the operation timeout', async () => {
    const store = await open({ keyPrefix: `p-${randomUUID()}:`, operationTimeoutMs: 500 });
    await store.create(record('x', 1));
    redis.pause();
    const started = Date.now();
    await expect(store.put(record('x', 2))).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('no answer within 500 ms'),
    });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(5000);
    redis.resume();
    await eventually(() => store.health().status === 'ok');
    expect(plain(await store.get('x'))).toMatchObject({ name: 'x' });
  });

  it('a stalled Redis (SIGSTOP): health says degraded while it does not answer, with no traffic at all; ok once it answers', async () => {
    const store = await open({ keyPrefix: `s-${randomUUID()}:`, operationTimeoutMs: 500, heartbeatMs: 100 });
    expect(store.health()).toEqual({ status: 'ok' });
    redis.pause();
    await eventually(() => store.health().status === 'degraded');
    expect(store.health().reason).toMatch(/connected but has not answered for .* s .*operations fail at once/);
    // Meanwhile operations fail at once: nothing more is sent to run whenever Redis wakes up. The message
    // is the stall's, not the operation timeout's ("no answer within 500 ms"): refused before sending, with
    // no timer to wait out (a clock bound here was a CPU stall away from failing on a busy machine).
    await expect(store.get('x')).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/has not answered for .* s .*; operations fail at once until it answers again$/),
    });
    redis.resume();
    await eventually(() => store.health().status === 'ok');
    expect(await store.get('x')).toBeUndefined();
  });

  it('a stalled Redis: a request that touches the store and then the queue fails within one operation timeout, not one per operation', async () => {
    // 2 s: one timeout (2 s) is 1.5 s under the 3.5 s bound, room for a busy 2-core machine; two (4 s) are over it.
    const store = await open({ keyPrefix: `b-${randomUUID()}:`, operationTimeoutMs: 2000, heartbeatMs: 60_000 });
    const service = serviceOver(store, await store.openAnswerQueue());
    await service.put(record('bounded', 1));
    redis.pause();
    for (const write of [() => service.delete('bounded'), () => service.clear()]) {
      const started = Date.now();
      await expect(write()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      // One operation timeout (2000 ms); a delete used to wait it out twice (the record, then its queue).
      expect(Date.now() - started).toBeLessThan(3500);
    }
    redis.resume();
    await eventually(() => store.health().status === 'ok');
  });

  it('open fails with one actionable message after connectTimeoutMs when Redis is unreachable', async () => {
    const started = Date.now();
    const error = await RedisStore.open({ url: `${redis.dir}/nothing-here.sock`, connectTimeoutMs: 600 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(error?.message).toMatch(/^cannot reach Redis at unix:\S+nothing-here\.sock within 600 ms: .*ENOENT/);
    expect(error?.message).not.toContain('\n');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('shows a redis:// URL without its password', async () => {
    const error = await RedisStore.open({ url: 'redis://user:secret@127.0.0.1:1/0', connectTimeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('redis://user:***@127.0.0.1:1/0');
    expect(error?.message).not.toContain('secret');
  });
});
