// Namespaces on Redis: the contract, replicas sharing them, the key layout and drop, on a real redis-server.
import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonText } from '../../codec/json-text.js';
import { itemOf } from '../../collections/item.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import { newDeliveryId } from '../../webhook/delivery-store.js';
import type { Backend } from '../backend.js';
import { runNamespacesContract } from '../namespaces.case.test.js';
import type { BackendNamespaces, NamespaceEntry } from '../namespaces.js';
import { redisBackend } from './index.js';
import type { RedisJournal } from './journal.js';
import { namespaceKeyPrefix } from './namespaces.js';

let redis: TestRedis;
/** A plain connection to look at the server's keys and channels. */
let raw: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startTestRedis();
  raw = createClient({ socket: { path: redis.socket, tls: false } });
  raw.on('error', () => undefined); // reconnects by itself after a restart below
  await raw.connect();
});

afterAll(async () => {
  raw?.destroy();
  await redis?.dispose();
});

runNamespacesContract('redisBackend', async () => ({
  backend: await redisBackend({ url: redis.socket, keyPrefix: `nc-${randomUUID()}:` }),
}));

function entry(name: string, extra: Partial<NamespaceEntry> = {}): NamespaceEntry {
  return { name, tokenHash: `${name}-hash`, createdAt: 1000, usedAt: 1000, ...extra };
}

function request(body: string): RecordedRequest {
  return {
    method: 'POST',
    target: '/endpoint/hook',
    rawHeaders: ['Content-Type', 'application/json'],
    body: new TextEncoder().encode(body),
    bodyTruncated: false,
  };
}

/** Every key on the server under `prefix`, sorted. */
async function keysUnder(prefix: string): Promise<string[]> {
  const keys = await raw.keys(`${prefix.replace(/[\\*?[\]]/g, '\\$&')}*`);
  return keys.map(String).sort();
}

/** Writes something into every part of `backend` (names `a` and `hook`); resolves once it is all in Redis. */
async function fill(backend: Backend, tag: number): Promise<void> {
  await backend.store.create({ name: 'a', data: tag, statusCode: 200, delay: 0 });
  await backend.store.updateRoutes('a', () => [
    { id: 'r', match: { method: 'GET', path: '/r' }, answer: { statusCode: 200, data: new JsonText(`${tag}`) } },
  ]);
  await backend.store.setSetting('signature', 'a', {
    scheme: 'github',
    secrets: ['s'],
    toleranceSec: 300,
    enforce: false,
  });
  await backend.store.setSetting('graphql', 'a', 'type Query { a: Int }');
  await backend.store.setSetting('hosts', 'a', ['api.example.com']);
  backend.journal.record('hook', request(`{"tag":${tag}}`), 200);
  await (backend.journal as RedisJournal).flushed();
  await backend.queue.push('a', [{ statusCode: 503, times: 1 }]);
  await backend.deliveries.create(
    {
      id: newDeliveryId(Date.now()),
      url: 'http://127.0.0.1:9/hook',
      method: 'POST',
      headers: {},
      bodyBase64: 'e30=',
      bodyBytes: 2,
      delaysMs: [],
      timeoutMs: 1000,
      createdAt: Date.now(),
      state: 'pending',
      nextAttemptAt: Date.now(),
      attempts: [],
      version: 1,
    },
    10,
  );
  await backend.replays.seen(`id-${tag}`, 60);
  await backend.collections.seed('a', new Map([['users', [itemOf(`{"id":${tag}}`)]]]));
  await backend.states.put('a', { default: 'ready' });
}

describe('redisBackend namespaces', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    if (!redis.running) await redis.start();
  });

  async function backend(keyPrefix: string): Promise<Backend & { namespaces: BackendNamespaces }> {
    const opened = await redisBackend({ url: redis.socket, keyPrefix });
    closers.push(() => opened.close());
    if (opened.namespaces === undefined) throw new Error('no namespaces');
    return opened as Backend & { namespaces: BackendNamespaces };
  }

  async function open(namespaces: BackendNamespaces, name: string): Promise<Backend> {
    const opened = await namespaces.open(name);
    closers.push(() => opened.close());
    return opened;
  }

  it('keeps the default namespace\'s keys and channels where they were, none under "<prefix>ns:"', async () => {
    const prefix = `lay-${randomUUID()}:`;
    const root = await backend(prefix);
    await fill(root, 0);
    const one = await open(root.namespaces, 'one');
    await fill(one, 1);
    await root.namespaces.registry.create(entry('one'), 10);
    await root.namespaces.registry.touch('one', 2000);

    const all = await keysUnder(prefix);
    const nsPrefix = `${prefix}ns:one:`;
    const defaults = all.filter((key) => !key.startsWith(`${prefix}ns:`));
    const namespaced = all.filter((key) => key.startsWith(`${prefix}ns:`));
    // Every key the namespace wrote is under its own prefix…
    expect(namespaced.length).toBeGreaterThan(10);
    expect(namespaced.every((key) => key.startsWith(nsPrefix))).toBe(true);
    // …and has the same layout, below it, as the default namespace's under the store prefix (the registry aside).
    const shape = (keys: string[], under: string) =>
      keys.map((key) => key.slice(under.length).replace(/[0-9a-f]{64}$/, '<digest>')).sort();
    const registry = [`${prefix}namespaces`, `${prefix}namespaces:used`];
    expect(defaults.filter((key) => registry.includes(key))).toEqual(registry);
    expect(shape(namespaced, nsPrefix)).toEqual(
      shape(
        defaults.filter((key) => !registry.includes(key)),
        prefix,
      ),
    );
    // The default namespace's layout, unchanged: the keys it has always had.
    expect(defaults).toEqual(
      expect.arrayContaining(
        ['endpoints', 'names', 'routes', 'signatures', 'graphql', 'hosts', 'deliveries', 'collections', 'state'].map(
          (key) => `${prefix}${key}`,
        ),
      ),
    );
    expect(defaults.some((key) => key.startsWith(`${prefix}journal:`))).toBe(true);
    expect(defaults.some((key) => key.startsWith(`${prefix}queue:`))).toBe(true);
    expect(defaults.some((key) => key.startsWith(`${prefix}replay:`))).toBe(true);

    // The channels: the default namespace's none under "<prefix>ns:", the namespace's all under its prefix.
    const channels = (await raw.pubSubChannels(`${prefix}*`)).map(String);
    const defaultChannels = channels.filter((c) => !c.startsWith(`${prefix}ns:`));
    const namespacedChannels = channels.filter((c) => c.startsWith(`${prefix}ns:`));
    expect(defaultChannels).toEqual(expect.arrayContaining([`${prefix}changes`, `${prefix}journal:recorded`]));
    expect(namespacedChannels.every((c) => c.startsWith(nsPrefix))).toBe(true);
    const channelShape = (names: string[], under: string) =>
      names.map((c) => c.slice(under.length).replace(/[0-9a-f-]{36}$/, '<origin>')).sort();
    expect(channelShape(namespacedChannels, nsPrefix)).toEqual(channelShape(defaultChannels, prefix));
  });

  it('refuses a namespace name that could reach into other keys', async () => {
    const root = await backend(`bad-${randomUUID()}:`);
    await expect(root.namespaces.open('a:b')).rejects.toThrow(RangeError);
    await expect(root.namespaces.drop('*')).rejects.toThrow(RangeError);
    expect(namespaceKeyPrefix('p:', 'a-B_1')).toBe('p:ns:a-B_1:');
  });

  it('two replicas share the registry: one name created once, the bound never passed', async () => {
    const prefix = `reg-${randomUUID()}:`;
    const [a, b] = [await backend(prefix), await backend(prefix)];
    const same = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).namespaces.registry.create(entry('x'), 100)),
    );
    expect(same.filter((r) => r === 'created')).toHaveLength(1);
    expect(same.filter((r) => r === 'exists')).toHaveLength(9);
    const many = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).namespaces.registry.create(entry(`n${i}`), 4)),
    );
    expect(many.filter((r) => r === 'created')).toHaveLength(3);
    expect(many.filter((r) => r === 'full')).toHaveLength(9);
    expect(await a.namespaces.registry.list()).toEqual(await b.namespaces.registry.list());
    expect((await b.namespaces.registry.list()).length).toBe(4);

    // A use written down on one replica is read on the other; only forward; not after a delete.
    await a.namespaces.registry.touch('x', 5000);
    await b.namespaces.registry.touch('x', 4000);
    expect((await b.namespaces.registry.get('x'))?.usedAt).toBe(5000);
    expect((await a.namespaces.registry.list()).find((e) => e.name === 'x')?.usedAt).toBe(5000);
    expect(await b.namespaces.registry.delete('x')).toBe(true);
    await a.namespaces.registry.touch('x', 9000);
    expect(await a.namespaces.registry.get('x')).toBeUndefined();
    // Created again, it starts from its own usedAt, not the deleted one's.
    expect(await a.namespaces.registry.create(entry('x', { usedAt: 1500 }), 100)).toBe('created');
    expect((await b.namespaces.registry.get('x'))?.usedAt).toBe(1500);
  });

  it("two replicas share a namespace's records, journal and collections, and its changes reach the other's caches", async () => {
    const prefix = `rep-${randomUUID()}:`;
    const [a, b] = [await backend(prefix), await backend(prefix)];
    const [ax, bx, by] = [await open(a.namespaces, 'x'), await open(b.namespaces, 'x'), await open(b.namespaces, 'y')];
    const told: Array<string | undefined> = [];
    const toldY: Array<string | undefined> = [];
    bx.store.changes?.subscribe((name) => told.push(name));
    by.store.changes?.subscribe((name) => toldY.push(name));

    await ax.store.create({ name: 'r', data: 1, statusCode: 200, delay: 0 });
    expect(JSON.parse(JSON.stringify((await bx.store.get('r'))?.data))).toBe(1);
    await vi.waitFor(() => expect(told).toContain('r'));
    expect(await by.store.get('r')).toBeUndefined();
    expect(await b.store.get('r')).toBeUndefined();

    ax.journal.record('hook', request('{"n":1}'), 200);
    await (ax.journal as RedisJournal).flushed();
    const seen = await bx.journal.since(0);
    expect(seen.entries.map((e) => e.name)).toEqual(['hook']);
    expect((await by.journal.since(0)).entries).toEqual([]);
    expect((await b.journal.since(0)).entries).toEqual([]);

    await ax.collections.seed('r', new Map([['users', [itemOf('{"id":1}')]]]));
    expect((await bx.collections.get('r')).size).toBe(1);
    expect((await by.collections.get('r')).size).toBe(0);
    // Nothing of namespace x told namespace y's store.
    expect(toldY.filter((name) => name !== undefined)).toEqual([]);
  });

  it("drop removes every key of that namespace and none of another's or the default's, and tells its replicas", async () => {
    // A store prefix with glob characters: the drop's pattern matches it literally.
    const prefix = `drop-${randomUUID()}[*?]:`;
    const [root, replica] = [await backend(prefix), await backend(prefix)];
    await fill(root, 0);
    const a = await root.namespaces.open('a');
    await fill(a, 1);
    for (const name of ['ab', 'b']) await fill(await open(root.namespaces, name), 2);
    // Many keys, more than one SCAN batch: 700 collections' keys in namespace a.
    for (let i = 0; i < 700; i++) await a.collections.seed(`c${i}`, new Map([['x', [itemOf('{}')]]]));
    const onReplica = await open(replica.namespaces, 'a');
    const told: Array<string | undefined> = [];
    onReplica.store.changes?.subscribe((name) => told.push(name));
    const aPrefix = namespaceKeyPrefix(prefix, 'a');

    const before = await keysUnder(prefix);
    const ofA = before.filter((key) => key.startsWith(aPrefix));
    expect(ofA.length).toBeGreaterThan(2000);
    await a.close();
    await root.namespaces.drop('a');

    const after = await keysUnder(prefix);
    expect(after.filter((key) => key.startsWith(aPrefix))).toEqual([]);
    expect(after).toEqual(before.filter((key) => !key.startsWith(aPrefix)));
    expect(after.some((key) => key.startsWith(namespaceKeyPrefix(prefix, 'ab')))).toBe(true);
    // The replica that still has it open is told every name changed, so it caches nothing of the dropped data.
    await vi.waitFor(() => expect(told).toContain(undefined));
    expect(await onReplica.store.get('a')).toBeUndefined();
    // Dropping a namespace that holds nothing is a no-op.
    await root.namespaces.drop('never');
    expect(await keysUnder(prefix)).toEqual(after);
  });

  /** How many clients are connected to the server now. */
  async function clients(): Promise<number> {
    const list = String(await raw.sendCommand(['CLIENT', 'LIST']));
    return list.split('\n').filter((line) => line.trim() !== '').length;
  }

  it("a namespace's backend uses the default namespace's connections: opening and closing one adds none and leaves none", async () => {
    const prefix = `conn-${randomUUID()}:`;
    const root = await backend(prefix);
    const before = await clients();
    const opened = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => root.namespaces.open(name)));
    for (const [i, ns] of opened.entries()) await ns.store.create({ name: 'r', data: i, statusCode: 200, delay: 0 });
    expect(await clients()).toBe(before);
    const nsPrefix = namespaceKeyPrefix(prefix, 'a');
    const subscribed = async () => (await raw.pubSubChannels(`${nsPrefix}*`)).map(String).sort();
    expect(await subscribed()).not.toEqual([]);
    // Closed: its subscriptions go, the connections stay, the default namespace and the others go on.
    await opened[0]?.close();
    await opened[0]?.close();
    expect(await subscribed()).toEqual([]);
    expect(opened[0]?.health().status).toBe('unavailable');
    await expect(opened[0]?.store.get('r') ?? Promise.resolve()).rejects.toThrow(/closed/);
    expect(await clients()).toBe(before);
    expect(root.health()).toEqual({ status: 'ok' });
    expect(await root.store.create({ name: 'r', data: 9, statusCode: 200, delay: 0 })).toBe(true);
    expect(JSON.parse(JSON.stringify((await opened[1]?.store.get('r'))?.data))).toBe(1);
    // Opened again, it finds its data.
    const again = await open(root.namespaces, 'a');
    expect(JSON.parse(JSON.stringify((await again.store.get('r'))?.data))).toBe(0);
    // Closing the default namespace's backend closes every namespace's opened on it.
    await root.close();
    for (const ns of opened.slice(1)) expect(ns.health().status).toBe('unavailable');
    expect(again.store.changes?.live).toBe(false);
  });

  it("after Redis restarts, a namespace's store is told to forget, then follows the other replicas' changes again", async () => {
    const prefix = `restart-${randomUUID()}:`;
    const options = { url: redis.socket, keyPrefix: prefix, reconnectDelayMs: 50 };
    const [a, b] = [await redisBackend(options), await redisBackend(options)];
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const ax = await open(a.namespaces as BackendNamespaces, 'x');
    const bx = await open(b.namespaces as BackendNamespaces, 'x');
    const told: Array<string | undefined> = [];
    bx.store.changes?.subscribe((name) => told.push(name));
    await redis.stop('SIGTERM');
    await vi.waitFor(() => expect(bx.store.changes?.live).toBe(false), { timeout: 10_000 });
    expect(told).toContain(undefined);
    expect(bx.health().status).toBe('unavailable');
    await redis.start();
    await vi.waitFor(() => expect(bx.store.changes?.live && ax.store.changes?.live).toBe(true), { timeout: 10_000 });
    expect(bx.health()).toEqual({ status: 'ok' });
    // A's commands go on its own client, which may reconnect after its subscriber (a write before
    // is refused, STORE_UNAVAILABLE: not what this test is about): A healthy is both back.
    await vi.waitFor(() => expect(ax.health()).toEqual({ status: 'ok' }), { timeout: 10_000 });
    told.length = 0;
    await ax.store.create({ name: 'after', data: 1, statusCode: 200, delay: 0 });
    await vi.waitFor(() => expect(told).toContain('after'), { timeout: 10_000 });
  });

  it("a namespace's queue whose subscription dropped reloads what it may have missed once it is back", async () => {
    const prefix = `missed-${randomUUID()}:`;
    const options = { url: redis.socket, keyPrefix: prefix, reconnectDelayMs: 50 };
    const [a, b] = [await redisBackend(options), await redisBackend(options)];
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const ax = await open(a.namespaces as BackendNamespaces, 'x');
    const bx = await open(b.namespaces as BackendNamespaces, 'x');
    const nsPrefix = namespaceKeyPrefix(prefix, 'x');
    // What a push leaves in Redis, without its notice: what B misses while cut off.
    await raw.rPush(`${nsPrefix}queue:missed`, '1 {"statusCode":418}');
    await raw.sAdd(`${nsPrefix}queue-names`, 'missed');
    // A push on A resolves once B has seen its notice: none told B about 'missed'.
    await ax.queue.push('marker', [{ statusCode: 200, times: 1 }]);
    expect(bx.queue.pending('marker')).toBe(true);
    expect(bx.queue.pending('missed')).toBe(false);
    // Every subscription drops; node-redis reconnects and resubscribes, and the namespace's queue reloads.
    await raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await vi.waitFor(() => expect(bx.queue.pending('missed')).toBe(true), { timeout: 10_000 });
    expect((await bx.queue.take('missed'))?.answer).toEqual({ statusCode: 418 });
  });

  it('opening a namespace while Redis is down or stalled fails STORE_UNAVAILABLE within a bound; once it answers, it opens', async () => {
    const prefix = `down-${randomUUID()}:`;
    const root = await redisBackend({
      url: redis.socket,
      keyPrefix: prefix,
      reconnectDelayMs: 50,
      operationTimeoutMs: 500,
    });
    closers.push(() => root.close());
    const namespaces = root.namespaces as BackendNamespaces;
    const z = await namespaces.open('z');
    await redis.stop('SIGTERM');
    await vi.waitFor(() => expect(root.health().status).toBe('unavailable'), { timeout: 10_000 });
    await expect(namespaces.open('x')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    // Closed while Redis is down: its channels are not subscribed again when the subscriber is back.
    await z.close();
    await redis.start();
    await vi.waitFor(() => expect(root.health().status).toBe('ok'), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await raw.pubSubChannels(`${namespaceKeyPrefix(prefix, 'z')}*`)).toEqual([]), {
      timeout: 10_000,
    });
    const y = await namespaces.open('y');
    redis.pause();
    try {
      const started = Date.now();
      await expect(namespaces.open('x')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      // Generous: the bound is the operation timeout (500 ms), not forever.
      expect(Date.now() - started).toBeLessThan(5000);
      // Closing one while Redis does not answer waits at most about as long too.
      await y.close();
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      redis.resume();
    }
    // Once Redis answers, neither the one that failed to open nor the closed one is still subscribed.
    await vi.waitFor(
      async () => {
        for (const name of ['x', 'y'])
          expect(await raw.pubSubChannels(`${namespaceKeyPrefix(prefix, name)}*`)).toEqual([]);
      },
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(root.health().status).toBe('ok'), { timeout: 10_000 });
    const x = await open(namespaces, 'x');
    expect(await x.store.create({ name: 'r', data: 1, statusCode: 200, delay: 0 })).toBe(true);
    const xPrefix = namespaceKeyPrefix(prefix, 'x');
    const channels = (await raw.pubSubChannels(`${xPrefix}*`)).map((c) => String(c).slice(xPrefix.length)).sort();
    // One open's channels: none left from the open that failed (its queue's confirmations had another origin).
    expect(channels.map((c) => c.replace(/[0-9a-f-]{36}$/, '<origin>'))).toEqual([
      'changes',
      'clock',
      'journal:recorded',
      'queue-acks:<origin>',
      'queues',
    ]);
  });
});
