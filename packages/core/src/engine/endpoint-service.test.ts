import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Route } from '../api/route.js';
import type { EndpointRecord, ListPage } from '../api/schemas.js';
import type { GrpcRouting } from '../grpc/grpc-reply.js';
import type { SettingKind, SettingValue, StoredSetting } from '../settings/name-settings.js';
import { LevelStore } from '../store/level/index.js';
import { MemoryAnswerQueue } from '../store/memory/memory-answer-queue.js';
import { MemoryCollectionStore } from '../store/memory/memory-collection-store.js';
import { MemoryStateStore } from '../store/memory/memory-state-store.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import type {
  CountOptions,
  EndpointStore,
  ListOptions,
  RoutedName,
  RouteNamesOptions,
  RoutesUpdate,
} from '../store/store.js';
import { EndpointService } from './endpoint-service.js';

function record(name: string, data: unknown, statusCode = 200, delay = 0): EndpointRecord {
  return { name, data, statusCode, delay };
}

/** A promise plus the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A MemoryStore wrapper that counts `get` calls and can hold the next `get`: the
 * held read takes its snapshot immediately but only delivers it once released,
 * like a slow disk read that overlaps a write.
 */
class SlowReadStore implements EndpointStore {
  readonly kind = 'slow';
  readonly inner = new MemoryStore();
  gets = 0;
  #hold: { release: Promise<void>; started: () => void } | undefined;
  /** When set, the next `put` writes and then throws this error. */
  failAfterPut: Error | undefined;

  /** Holds the next `get`; resolves `started` once it has read, `release()` lets it answer. */
  holdNextGet(): { started: Promise<void>; release: () => void } {
    const started = deferred();
    const release = deferred();
    this.#hold = { release: release.promise, started: started.resolve };
    return { started: started.promise, release: release.resolve };
  }

  async get(name: string): Promise<EndpointRecord | undefined> {
    this.gets++;
    const hold = this.#hold;
    this.#hold = undefined;
    const value = await this.inner.get(name);
    if (hold) {
      hold.started();
      await hold.release;
    }
    return value;
  }

  create(record: EndpointRecord): Promise<boolean> {
    return this.inner.create(record);
  }

  getRoutes(name: string): Promise<Route[]> {
    return this.inner.getRoutes(name);
  }

  updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    return this.inner.updateRoutes(name, update);
  }

  getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    return this.inner.getSetting(kind, name);
  }

  setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean> {
    return this.inner.setSetting(kind, name, value);
  }

  settingNames(kind: SettingKind, options?: RouteNamesOptions): Promise<string[]> {
    return this.inner.settingNames(kind, options);
  }

  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    const result = await this.inner.put(record);
    const failure = this.failAfterPut;
    this.failAfterPut = undefined;
    if (failure) throw failure;
    return result;
  }

  delete(name: string): Promise<boolean> {
    return this.inner.delete(name);
  }

  list(options: ListOptions): Promise<ListPage> {
    return this.inner.list(options);
  }

  routeNames(options?: RouteNamesOptions): Promise<RoutedName[]> {
    return this.inner.routeNames(options);
  }

  count(options?: CountOptions): Promise<number> {
    return this.inner.count(options);
  }

  clear(): Promise<void> {
    return this.inner.clear();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A service over `store`, its other parts in memory (the engine is given them; it makes none). */
function serviceOver(store: EndpointStore, cacheMaxBytes: number): EndpointService {
  return new EndpointService(
    store,
    cacheMaxBytes,
    new MemoryAnswerQueue(),
    new MemoryCollectionStore(),
    new MemoryStateStore(),
  );
}

function setup(cacheMaxBytes = 1024 * 1024): { store: SlowReadStore; service: EndpointService } {
  const store = new SlowReadStore();
  return { store, service: serviceOver(store, cacheMaxBytes) };
}

describe('EndpointService cache', () => {
  it('a read of a cached entry does not call store.get again', async () => {
    const { store, service } = setup();
    await store.inner.create(record('a', { v: 1 }, 201, 5));
    const first = await service.response('a');
    expect(first).toMatchObject({ body: '{"v":1}', statusCode: 201, delay: 5 });
    expect(store.gets).toBe(1);
    for (let i = 0; i < 5; i++) expect(await service.response('a')).toEqual(first);
    expect(store.gets).toBe(1);
  });

  it('a write fills the cache, so the next read does not touch the store', async () => {
    const { store, service } = setup();
    expect(await service.create(record('c', 'created'))).toBe(true);
    expect((await service.response('c'))?.body).toBe('"created"');
    await service.put(record('c', 'replaced', 500));
    expect(await service.response('c')).toMatchObject({ body: '"replaced"', statusCode: 500 });
    expect(store.gets).toBe(0);
  });

  it('a missing name is not cached as present and is looked up each time', async () => {
    const { store, service } = setup();
    expect(await service.response('missing')).toBeUndefined();
    expect(await service.response('missing')).toBeUndefined();
    expect(store.gets).toBe(2);
    await store.inner.create(record('missing', 'now here'));
    expect((await service.response('missing'))?.body).toBe('"now here"');
  });

  it('a create on a taken name leaves the cached answer unchanged', async () => {
    const { service } = setup();
    await service.create(record('t', 'first'));
    expect(await service.create(record('t', 'second', 500))).toBe(false);
    expect(await service.response('t')).toMatchObject({ body: '"first"', statusCode: 200 });
  });

  it('never serves a replaced record', async () => {
    const { service } = setup();
    await service.create(record('r', 1));
    expect((await service.response('r'))?.body).toBe('1');
    await service.put(record('r', 2, 202, 3));
    expect(await service.response('r')).toMatchObject({ body: '2', statusCode: 202, delay: 3 });
  });

  it('never serves a deleted record', async () => {
    const { service } = setup();
    await service.create(record('d', 1));
    expect(await service.response('d')).toBeDefined();
    expect(await service.delete('d')).toBe(true);
    expect(await service.response('d')).toBeUndefined();
  });

  it('never serves a record after clear', async () => {
    const { service } = setup();
    await service.create(record('x', 1));
    await service.create(record('y', 2));
    await service.response('x');
    await service.clear();
    expect(await service.response('x')).toBeUndefined();
    expect(await service.response('y')).toBeUndefined();
    expect(service.cache.size).toBe(0);
  });

  it('a slow read that overlaps a replace does not put the old record back in the cache', async () => {
    const { store, service } = setup();
    await store.inner.create(record('race', 'old'));
    const hold = store.holdNextGet();
    const slowRead = service.response('race');
    await hold.started; // the read has its (old) snapshot
    await service.put(record('race', 'new', 201));
    hold.release();
    // The overlapping read may answer with either state; it began before the write finished.
    expect(['"old"', '"new"']).toContain((await slowRead)?.body);
    // Every read that starts after the write has resolved sees the new record.
    expect(await service.response('race')).toMatchObject({ body: '"new"', statusCode: 201 });
    expect(service.cache.get('race')?.body).toBe('"new"');
  });

  it('a slow read that overlaps a delete does not put the deleted record back in the cache', async () => {
    const { store, service } = setup();
    await store.inner.create(record('race', 'old'));
    const hold = store.holdNextGet();
    const slowRead = service.response('race');
    await hold.started;
    expect(await service.delete('race')).toBe(true);
    hold.release();
    await slowRead;
    expect(await service.response('race')).toBeUndefined();
    expect(service.cache.get('race')).toBeUndefined();
  });

  it('a slow read that overlaps a clear does not put a cleared record back in the cache', async () => {
    const { store, service } = setup();
    await store.inner.create(record('race', 'old'));
    const hold = store.holdNextGet();
    const slowRead = service.response('race');
    await hold.started;
    await service.clear();
    hold.release();
    await slowRead;
    expect(await service.response('race')).toBeUndefined();
  });

  it('a slow read that overlaps a write to another name still fills the cache', async () => {
    const { store, service } = setup();
    await store.inner.create(record('slow', 'value'));
    const hold = store.holdNextGet();
    const slowRead = service.response('slow');
    await hold.started;
    await service.put(record('other', 'x'));
    hold.release();
    expect((await slowRead)?.body).toBe('"value"');
    expect(service.cache.get('slow')?.body).toBe('"value"');
  });

  it('a put that fails after writing does not leave the old record cached', async () => {
    const { store, service } = setup();
    await service.create(record('f', 'old'));
    expect((await service.response('f'))?.body).toBe('"old"');
    store.failAfterPut = new Error('disk hiccup after the write');
    await expect(service.put(record('f', 'new'))).rejects.toThrow('disk hiccup');
    // The store holds "new": the cache must not keep answering "old".
    expect((await service.response('f'))?.body).toBe('"new"');
  });

  it('an entry evicted by the byte bound is read from the store again', async () => {
    // Room for roughly one entry: each costs at least the 96-byte overhead plus its body.
    const { store, service } = setup(400);
    await store.inner.create(record('a', 'x'.repeat(50)));
    await store.inner.create(record('b', 'y'.repeat(50)));
    await service.response('a');
    await service.response('b'); // evicts `a`
    expect(store.gets).toBe(2);
    expect((await service.response('a'))?.body).toBe(`"${'x'.repeat(50)}"`);
    expect(store.gets).toBe(3);
    expect(service.cache.bytes).toBeLessThanOrEqual(400);
  });

  it('a record too big for the cache is still served, from the store', async () => {
    const { store, service } = setup(200);
    const big = 'z'.repeat(1000);
    await service.create(record('big', big));
    expect((await service.response('big'))?.body).toBe(JSON.stringify(big));
    expect((await service.response('big'))?.body).toBe(JSON.stringify(big));
    expect(store.gets).toBe(2);
    expect(service.cache.bytes).toBe(0);
  });

  describe.each([
    ['MemoryStore', async () => ({ store: new MemoryStore() as EndpointStore, dispose: async () => {} })],
    [
      'LevelStore',
      async () => {
        const dir = await mkdtemp(join(tmpdir(), 'mockpoint-endpoints-'));
        const store = await LevelStore.open({ dir });
        return { store: store as EndpointStore, dispose: () => rm(dir, { recursive: true, force: true }) };
      },
    ],
  ])('over %s', (_kind, open) => {
    it('concurrent puts, creates, deletes and reads of one name leave the cache agreeing with the store', async () => {
      const { store, dispose } = await open();
      try {
        const service = serviceOver(store, 1024 * 1024);
        // A fixed-seed generator: the same interleavings on every run.
        let seed = 42;
        const random = () => {
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          return seed / 2 ** 31;
        };
        for (let round = 0; round < 25; round++) {
          const operations: Promise<unknown>[] = [];
          for (let i = 0; i < 20; i++) {
            const r = random();
            const rec = record('hot', { round, i });
            if (r < 0.35) operations.push(service.put(rec));
            else if (r < 0.55) operations.push(service.delete('hot'));
            else if (r < 0.65) operations.push(service.create(rec));
            else operations.push(service.response('hot'));
          }
          await Promise.all(operations);
          const stored = await store.get('hot');
          const served = await service.response('hot');
          expect(served?.body, `round ${round}`).toBe(stored === undefined ? undefined : JSON.stringify(stored.data));
        }
      } finally {
        await store.close();
        await dispose();
      }
    });
  });
});

describe('EndpointService gRPC catalog, made on first use', () => {
  const unanswered: GrpcRouting = async () => undefined;
  const routing = (): GrpcRouting => unanswered;
  const other = (): GrpcRouting => unanswered;

  it('gives the catalog made later the routing set before it', () => {
    const service = serviceOver(new MemoryStore(), 1024);
    service.routeGrpc(routing);
    // A second routing never replaces the first (as `??=` on the catalog did).
    service.routeGrpc(other);
    expect(service.grpc.routing).toBe(routing);
    expect(service.grpc).toBe(service.grpc);
  });

  it('routes the catalog made first, once', () => {
    const service = serviceOver(new MemoryStore(), 1024);
    const catalog = service.grpc;
    expect(catalog.routing).toBeUndefined();
    service.routeGrpc(routing);
    service.routeGrpc(other);
    expect(catalog.routing).toBe(routing);
  });
});
