import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Route } from '../../api/route.js';
import type { EndpointRecord } from '../../api/schemas.js';
import { JsonText } from '../../codec/json-text.js';
import { runCollectionStoreContract } from '../../collections/collection-store.case.test.js';
import { itemOf } from '../../collections/item.js';
import { runStateStoreContract } from '../../state/state-store.case.test.js';
import { runDeliveryStoreContract } from '../../webhook/delivery-store.case.test.js';
import { newDeliveryId } from '../../webhook/delivery-store.js';
import { runBackendContract } from '../backend.case.test.js';
import type { Backend } from '../backend.js';
import { runNamespacesContract } from '../namespaces.case.test.js';
import { runStoreContract } from '../store.case.test.js';
import { LevelStore, levelBackend, repairLevelStore } from './index.js';

const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-level-ns-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function record(name: string, data: unknown, statusCode = 200): EndpointRecord {
  return { name, data: JsonText.from(data), statusCode, delay: 0 };
}

function route(id: string): Route {
  return { id, match: { method: 'GET', path: `/${id}` }, answer: { statusCode: 200, data: new JsonText('1') } };
}

/** Every key and value in the directory, read with a plain Level (the store closed). */
async function dump(dir: string): Promise<Array<[string, string]>> {
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8', createIfMissing: false });
  try {
    return await db.iterator().all();
  } finally {
    await db.close();
  }
}

/**
 * A store whose default namespace and a neighbour namespace (`ns-x`, and `ns-xy`
 * whose name starts with it) hold data under the same names, so that a part of
 * `ns-x` that saw any key of theirs would fail its contract. Closing the part
 * closes the root too.
 */
async function crowded(): Promise<LevelStore> {
  const root = await LevelStore.open({ dir: await tempDir() });
  for (const store of [root, root.namespace('ns-xy')]) {
    for (const name of ['a', 'b', 'kept', 'other']) {
      await store.put(record(name, 'neighbour'));
      await store.updateRoutes(name, () => [route('neighbour')]);
      await store.setSetting('hosts', name, [`${name}.neighbour.example`]);
      await store.setSetting('graphql', name, 'type Query { a: Int }');
    }
    await (await store.openCollections()).seed('a', new Map([['users', [itemOf('{"id":0}')]]]));
    await (await store.openStates()).put('a', { default: 'neighbour' });
  }
  return root;
}

/** `view` whose close closes its root too. */
function closingRoot(root: LevelStore, view: LevelStore): LevelStore {
  const close = view.close.bind(view);
  view.close = async () => {
    await close();
    await root.close();
  };
  return view;
}

runStoreContract('LevelStore namespace view', async () => {
  const root = await crowded();
  return closingRoot(root, root.namespace('ns-x'));
});

runDeliveryStoreContract('LevelStore namespace view deliveries', async () => {
  const root = await crowded();
  return { store: await root.namespace('ns-x').openDeliveries(), close: () => root.close() };
});

runCollectionStoreContract(
  'LevelStore namespace view collections',
  async () => {
    let root = await crowded();
    const dir = root.dir;
    return {
      store: await root.namespace('ns-x').openCollections(),
      reopen: async () => {
        await root.close();
        root = await LevelStore.open({ dir });
        return root.namespace('ns-x').openCollections();
      },
      close: () => root.close(),
    };
  },
  { durable: true },
);

runStateStoreContract(
  'LevelStore namespace view state',
  async () => {
    let root = await crowded();
    const dir = root.dir;
    let states = await root.namespace('ns-x').openStates();
    return {
      get store() {
        return states;
      },
      reopen: async () => {
        await root.close();
        root = await LevelStore.open({ dir });
        states = await root.namespace('ns-x').openStates();
        return states;
      },
      close: () => root.close(),
    };
  },
  { durable: true },
);

describe('LevelStore namespace views', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a failed write in a namespace refuses writes everywhere until the store reopens; the view then writes to the reopened database', async () => {
    const dir = await tempDir();
    const root = await LevelStore.open({ dir, probeIntervalMs: 50 });
    try {
      const view = root.namespace('ns');
      type ArrayBatch = (operations: unknown[], options: unknown) => Promise<void>;
      const batch = vi.spyOn(Level.prototype as unknown as { batch: ArrayBatch }, 'batch');
      batch.mockRejectedValueOnce(new Error('No space left on device'));
      await expect(view.put(record('a', 1))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(root.health().status).toBe('degraded');
      expect(view.health()).toEqual(root.health());
      await expect(root.put(record('b', 1))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      await expect(view.put(record('a', 1))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      // It heals by itself (the disk is fine): a space check, then a reopen that replaces the database.
      await vi.waitFor(() => expect(root.health()).toEqual({ status: 'ok' }), { timeout: 10_000 });
      await view.put(record('a', 2));
      expect(await view.get('a')).toEqual(record('a', 2));
    } finally {
      await root.close();
    }
    const reopened = await LevelStore.open({ dir });
    try {
      expect(await reopened.namespace('ns').get('a')).toEqual(record('a', 2));
      expect(await reopened.get('a')).toBeUndefined();
    } finally {
      await reopened.close();
    }
  });

  it('a view is of one namespace only: none of its own, and names outside the endpoint-name rule are refused', async () => {
    const root = await LevelStore.open({ dir: await tempDir() });
    try {
      expect(() => root.namespace('ns').namespace('deeper')).toThrow(TypeError);
      expect(() => root.namespace('a\u0000b')).toThrow(TypeError);
      expect(() => root.namespace('')).toThrow(TypeError);
      expect(() => root.namespace('x'.repeat(65))).toThrow(TypeError);
    } finally {
      await root.close();
    }
  });
});

runNamespacesContract('levelBackend', async () => ({ backend: await levelBackend({ dir: await tempDir() }) }));

runBackendContract(
  "levelBackend's namespace",
  { kind: 'level', storeKind: 'level', collectionsKind: 'level', describes: /^level at \S+, namespace one$/ },
  async () => {
    const root = await levelBackend({ dir: await tempDir() });
    const namespaces = root.namespaces;
    if (namespaces === undefined) throw new Error('no namespaces');
    return { backend: await namespaces.open('one'), cleanup: () => root.close() };
  },
);

describe('levelBackend namespaces on disk', () => {
  const open: Backend[] = [];
  afterEach(async () => {
    for (const backend of open.splice(0).reverse()) await backend.close().catch(() => undefined);
  });

  async function backendAt(dir: string): Promise<Backend & { namespaces: NonNullable<Backend['namespaces']> }> {
    const backend = await levelBackend({ dir });
    open.push(backend);
    const { namespaces } = backend;
    if (namespaces === undefined) throw new Error('no namespaces');
    return Object.assign(backend, { namespaces });
  }

  async function closeAll(): Promise<void> {
    for (const backend of open.splice(0).reverse()) await backend.close();
  }

  it('the registry and every namespace part survive closing and reopening the directory', async () => {
    const dir = await tempDir();
    const first = await backendAt(dir);
    const entry = { name: 'one', tokenHash: 'ab'.repeat(32), ttlMs: 60_000, createdAt: 1000, usedAt: 1000 };
    expect(await first.namespaces.registry.create(entry, 10)).toBe('created');
    await first.namespaces.registry.touch('one', 5000);
    const one = await first.namespaces.open('one');
    await one.store.put(record('a', { n: 1 }, 201));
    await one.store.updateRoutes('a', () => [route('r')]);
    await one.store.setSetting('hosts', 'a', ['a.example']);
    await one.store.setSetting('graphql', 'a', 'type Query { a: Int }');
    await one.collections.seed('a', new Map([['users', [itemOf('{"id":1}')]]]));
    await one.states.put('a', { default: 'ready' });
    const now = Date.now();
    await one.deliveries.create(
      {
        id: newDeliveryId(now),
        url: 'http://127.0.0.1:9/hook',
        method: 'POST',
        headers: {},
        bodyBase64: '',
        bodyBytes: 0,
        delaysMs: [],
        timeoutMs: 1000,
        createdAt: now,
        state: 'pending',
        nextAttemptAt: now,
        attempts: [],
        version: 1,
      },
      10,
    );
    await one.close();
    await closeAll();

    const second = await backendAt(dir);
    expect(await second.namespaces.registry.list()).toEqual([{ ...entry, usedAt: 5000 }]);
    const again = await second.namespaces.open('one');
    open.push(again);
    expect(await again.store.get('a')).toEqual(record('a', { n: 1 }, 201));
    expect(await again.store.getRoutes('a')).toEqual([route('r')]);
    expect(await again.store.getSetting('hosts', 'a')).toEqual(['a.example']);
    expect(await again.store.settingNames('graphql')).toEqual(['a']);
    expect((await again.collections.get('a')).get('users')?.length).toBe(1);
    expect(await again.states.get('a')).toEqual({ default: 'ready' });
    expect(await again.deliveries.pendingCount()).toBe(1);
    // None of it is the default namespace's.
    expect(await second.store.get('a')).toBeUndefined();
    expect(await second.deliveries.pendingCount()).toBe(0);
    expect((await second.collections.get('a')).size).toBe(0);
    expect(await second.states.get('a')).toEqual({});
  });

  it("a namespace's keys are never the default namespace's: not listed, counted, named or cleared", async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    await backend.store.put(record('mine', 0));
    await backend.namespaces.registry.create({ name: 'ns', tokenHash: 'h', createdAt: 1, usedAt: 1 }, 10);
    const ns = await backend.namespaces.open('ns');
    open.push(ns);
    // Names that sort first and last (`-`, `~`), so any range that leaked would take them.
    for (const name of ['-', 'a', 'zz', '~']) {
      await ns.store.put(record(name, 1));
      await ns.store.updateRoutes(name, () => [route('r')]);
      await ns.store.setSetting('hosts', name, [`${name}.example`]);
      await ns.store.setSetting('graphql', name, 'type Query { a: Int }');
      await ns.store.setSetting('signature', name, {
        scheme: 'stripe',
        secrets: ['whsec_x'],
        toleranceSec: 300,
        enforce: true,
      });
    }
    await ns.collections.seed('a', new Map([['users', [itemOf('{"id":1}')]]]));
    await ns.states.put('a', { default: 'ready' });

    expect((await backend.store.list({ limit: 100 })).endpoints.map((e) => e.name)).toEqual(['mine']);
    expect(await backend.store.count()).toBe(1);
    expect(await backend.store.routeNames()).toEqual([]);
    expect(await backend.store.settingNames('graphql')).toEqual([]);
    expect(await backend.store.settingNames('hosts')).toEqual([]);
    await backend.store.clear();
    await backend.collections.clear();
    await backend.states.clear();
    expect(await backend.store.count()).toBe(0);

    // The namespace keeps everything, and its own reads see only its own.
    expect(await ns.store.count()).toBe(4);
    expect((await ns.store.list({ limit: 100 })).endpoints.map((e) => e.name)).toEqual(['-', 'a', 'zz', '~']);
    expect((await ns.store.routeNames()).map((r) => r.name)).toEqual(['-', 'a', 'zz', '~']);
    expect(await ns.store.settingNames('hosts')).toEqual(['-', 'a', 'zz', '~']);
    expect(await ns.store.settingNames('graphql')).toEqual(['-', 'a', 'zz', '~']);
    expect((await ns.collections.get('a')).size).toBe(1);
    expect(await ns.states.get('a')).toEqual({ default: 'ready' });
    expect(await backend.namespaces.registry.get('ns')).toMatchObject({ name: 'ns' });

    // And a clear of the namespace leaves the registry, as it leaves the default namespace.
    await backend.store.put(record('mine', 0));
    await ns.store.clear();
    expect(await ns.store.count()).toBe(0);
    expect(await ns.store.routeNames()).toEqual([]);
    expect(await backend.store.get('mine')).toEqual(record('mine', 0));
    expect(await backend.namespaces.registry.get('ns')).toMatchObject({ name: 'ns' });
  });

  it('dropping namespace `a` removes its keys and no key of namespace `ab`, the registry or the default', async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    await backend.namespaces.registry.create({ name: 'a', tokenHash: 'h', createdAt: 1, usedAt: 1 }, 10);
    async function fill(part: Backend): Promise<void> {
      await part.store.put(record('x', 1));
      await part.store.updateRoutes('x', () => [route('r')]);
      await part.collections.seed('x', new Map([['users', [itemOf('{"id":1}')]]]));
    }
    await fill(backend);
    for (const name of ['a', 'ab', 'a-']) {
      const ns = await backend.namespaces.open(name);
      await fill(ns);
      await ns.close();
    }
    await backend.namespaces.drop('a');
    await closeAll();
    const keys = (await dump(dir)).map(([key]) => key);
    const of = (prefix: string) => keys.filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
    const defaults = keys.filter((key) => key < '\u0003' || key >= '-');
    // Each namespace's keys are the default namespace's, prefixed.
    expect(defaults).toHaveLength(4);
    expect(of('\u0004a\u0000')).toEqual([]);
    expect(of('\u0004ab\u0000')).toEqual(defaults);
    expect(of('\u0004a-\u0000')).toEqual(defaults);
    expect(of('\u0003namespace:')).toEqual(['a']);
    expect(keys).toHaveLength(4 + 4 + 4 + 1);
  });

  it("a delete's drop writes no fsync of its own; a create's drop clears, durably, what a lost clear left", async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    const ns = await backend.namespaces.open('a');
    await ns.store.put(record('x', 1));
    await ns.close();
    const batch = vi.spyOn(Level.prototype, 'batch');
    const synced = () =>
      batch.mock.calls.filter((call) => ((call as unknown[])[1] as { sync?: boolean } | undefined)?.sync === true);
    await backend.namespaces.drop('a', { durable: false });
    expect(synced()).toHaveLength(0);
    // As if the clear never reached the disk (a power cut before any later synced write).
    await closeAll();
    const db = new Level<string, string>(dir);
    await db.put('\u0004a\u0000x', '{"stale":true}');
    await db.close();
    const reopened = await backendAt(dir);
    batch.mockClear();
    await reopened.namespaces.drop('a');
    expect(synced().length).toBeGreaterThan(0);
    const again = await reopened.namespaces.open('a');
    expect(await again.store.get('x')).toBeUndefined();
    await again.close();
    batch.mockRestore();
    await closeAll();
    expect((await dump(dir)).filter(([key]) => key.startsWith('\u0004a\u0000'))).toEqual([]);
  });

  it("concurrent creates share their fsync'd writes and still never pass the cap", async () => {
    const backend = await backendAt(await tempDir());
    const batch = vi.spyOn(Level.prototype, 'batch');
    const entry = (name: string) => ({ name, tokenHash: 'h', createdAt: 1, usedAt: 1 });
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) => backend.namespaces.registry.create(entry(`n${i}`), 5)),
    );
    expect(made.filter((outcome) => outcome === 'created')).toHaveLength(5);
    expect(made.filter((outcome) => outcome === 'full')).toHaveLength(3);
    expect((await backend.namespaces.registry.list()).map(({ name }) => name)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    // Five entries, written in fewer batches than one each (the group commit takes those waiting together).
    expect(batch.mock.calls.length).toBeGreaterThan(0);
    expect(batch.mock.calls.length).toBeLessThan(5);
    await closeAll();
  });

  it('after a drop, a namespace of that name reads no range of the disk until it writes, then reads what any view wrote', async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    const old = await backend.namespaces.open('s');
    await old.store.put(record('x', 'old'));
    await old.close();
    await backend.namespaces.drop('s');
    const iterator = vi.spyOn(Level.prototype, 'iterator');
    const keys = vi.spyOn(Level.prototype, 'keys');
    const values = vi.spyOn(Level.prototype, 'values');
    const scans = () => iterator.mock.calls.length + keys.mock.calls.length + values.mock.calls.length;
    // Two parts of the new namespace at once (an app and another reader): neither sees the old one's keys.
    const first = await backend.namespaces.open('s');
    if (!(backend.store instanceof LevelStore)) throw new Error('not the LevelDB store');
    const second = backend.store.namespace('s');
    expect((await first.store.list({ limit: 10 })).endpoints).toEqual([]);
    expect(await first.store.routeNames()).toEqual([]);
    expect(await first.store.settingNames('hosts')).toEqual([]);
    expect(scans()).toBe(0);
    // A write through one part ends it for both: each reads the disk, and finds it.
    await second.put(record('y', 'new'));
    expect((await first.store.list({ limit: 10 })).endpoints.map(({ name }) => name)).toEqual(['y']);
    await first.store.updateRoutes('z', () => [route('r')]);
    expect((await second.routeNames()).map(({ name }) => name)).toEqual(['z']);
    expect(scans()).toBeGreaterThan(0);
    await first.close();
    await closeAll();
  });

  it('a name drawn a moment ago is dropped without a read or a write; its namespace reads no range until it writes', async () => {
    const backend = await backendAt(await tempDir());
    const iterator = vi.spyOn(Level.prototype, 'iterator');
    const keys = vi.spyOn(Level.prototype, 'keys');
    const values = vi.spyOn(Level.prototype, 'values');
    const clear = vi.spyOn(Level.prototype, 'clear');
    const batch = vi.spyOn(Level.prototype, 'batch');
    // Spies of earlier tests on the same methods are these ones: counted from here.
    for (const spy of [iterator, keys, values, clear, batch]) spy.mockClear();
    const touched = () =>
      iterator.mock.calls.length +
      keys.mock.calls.length +
      values.mock.calls.length +
      clear.mock.calls.length +
      batch.mock.calls.length;
    await backend.namespaces.drop('s-drawn', { unused: true });
    expect(touched()).toBe(0);
    const drawn = await backend.namespaces.open('s-drawn');
    expect((await drawn.store.list({ limit: 10 })).endpoints).toEqual([]);
    expect(await drawn.store.routeNames()).toEqual([]);
    expect(touched()).toBe(0);
    // Its first write is on disk and read back as any other.
    await drawn.store.put(record('x', 1));
    expect((await drawn.store.list({ limit: 10 })).endpoints.map(({ name }) => name)).toEqual(['x']);
    await drawn.close();
    await closeAll();
  });

  it('a drop that need not be durable clears without looking first; a range known empty is neither read nor cleared', async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    const used = await backend.namespaces.open('s');
    await used.store.put(record('x', 1));
    await used.store.updateRoutes('y', () => [route('r')]);
    await used.close();
    const keys = vi.spyOn(Level.prototype, 'keys');
    const clear = vi.spyOn(Level.prototype, 'clear');
    for (const spy of [keys, clear]) spy.mockClear();
    await backend.namespaces.drop('s', { durable: false });
    expect([keys.mock.calls.length, clear.mock.calls.length]).toEqual([0, 1]);
    const after = await backend.namespaces.open('s');
    expect((await after.store.list({ limit: 10 })).endpoints).toEqual([]);
    expect(await after.store.routeNames()).toEqual([]);
    await after.close();
    // Nothing written since: dropped again, not durably, without a read or a clear; durably (before
    // a namespace of a chosen name is made) with one look and no clear.
    await backend.namespaces.drop('s', { durable: false });
    expect([keys.mock.calls.length, clear.mock.calls.length]).toEqual([0, 1]);
    await backend.namespaces.drop('s');
    expect([keys.mock.calls.length, clear.mock.calls.length]).toEqual([1, 1]);
    await closeAll();
    // The disk agrees: no key of the namespace is left (its prefix, \u0004s\u0000).
    expect((await dump(dir)).filter(([key]) => key.startsWith('\u0004s\u0000'))).toEqual([]);
  });

  it('a write in a namespace while it is dropped keeps it from being known empty: its reads agree with the disk', async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    if (!(backend.store instanceof LevelStore)) throw new Error('not the LevelDB store');
    const root = backend.store;
    const late = root.namespace('s');
    await late.put(record('old', 1));
    // A view still open (against the rule) writes while the drop runs.
    const dropping = root.dropNamespace('s');
    const writing = late.put(record('x', 'during'));
    await Promise.all([dropping, writing]);
    const fresh = root.namespace('s');
    const kept = (await fresh.get('x')) !== undefined;
    const listed = (await fresh.list({ limit: 10 })).endpoints.map(({ name }) => name);
    expect(listed).toEqual(kept ? ['x'] : []);
    await closeAll();
  });

  it('a write that lands after a delete is gone from a namespace made again with its name', async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    if (!(backend.store instanceof LevelStore)) throw new Error('not the LevelDB store');
    const root = backend.store;
    // A group commit in flight (its fsync slow): the writes after it wait for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let committing = false;
    const batch = Level.prototype.batch;
    vi.spyOn(Level.prototype, 'batch').mockImplementationOnce(async function (this: Level, ...args: unknown[]) {
      committing = true;
      await held;
      return (batch as (...args: unknown[]) => Promise<void>).apply(this, args);
    } as typeof batch);
    const busy = root.put(record('busy', 1));
    const view = root.namespace('a');
    const late = view.put(record('x', 'of the deleted namespace'));
    await vi.waitFor(() => expect(committing).toBe(true), { timeout: 5000, interval: 5 });
    await view.close();
    // A session's delete: not durable, the range cleared before the late write lands.
    await root.dropNamespace('a', { durable: false });
    release();
    await Promise.all([busy, late]);
    // The same (chosen) name made again: its durable drop looks and clears what landed late.
    await root.dropNamespace('a');
    const again = root.namespace('a');
    await again.put(record('z', 'new'));
    expect((await again.list({ limit: 10 })).endpoints.map(({ name }) => name)).toEqual(['z']);
    await again.close();
    await closeAll();
  });

  it('a directory written before namespaces opens and reads the same, and opening it writes nothing', async () => {
    const dir = await tempDir();
    // Written by the store alone, as the code before namespaces wrote it: no \u0003 or \u0004 key.
    const before = await levelBackend({ dir });
    await before.store.put(record('a', { n: 1 }));
    await before.store.put(record('b', 2, 404));
    await before.store.updateRoutes('a', () => [route('r')]);
    await before.store.setSetting('hosts', 'b', ['b.example']);
    await before.collections.seed('a', new Map([['users', [itemOf('{"id":1}')]]]));
    await before.states.put('a', { default: 'ready' });
    await before.close();
    const bytes = await dump(dir);
    expect(bytes.some(([key]) => key.startsWith('\u0003') || key.startsWith('\u0004'))).toBe(false);

    const backend = await backendAt(dir);
    // The plain Level of `dump` wrote its files under this process's umask: that line is the folder's (private-dir.ts).
    expect(backend.warnings.filter((line) => !line.includes('now the folder is 0700'))).toEqual([]);
    expect(await backend.namespaces.registry.list()).toEqual([]);
    expect((await backend.store.list({ limit: 10 })).endpoints).toEqual([record('a', { n: 1 }), record('b', 2, 404)]);
    expect(await backend.store.getRoutes('a')).toEqual([route('r')]);
    expect(await backend.store.settingNames('hosts')).toEqual(['b']);
    expect((await backend.collections.get('a')).get('users')?.length).toBe(1);
    expect(await backend.states.get('a')).toEqual({ default: 'ready' });
    await closeAll();
    expect(await dump(dir)).toEqual(bytes);
  });

  it('a namespace opened twice at once shares its parts; its last close closes them', async () => {
    const backend = await backendAt(await tempDir());
    const first = await backend.namespaces.open('one');
    const second = await backend.namespaces.open('one');
    expect(second.collections).toBe(first.collections);
    expect(second.journal).toBe(first.journal);
    await first.close();
    await first.close();
    await second.store.put(record('a', 1));
    await second.close();
    await expect(second.store.get('a')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    const third = await backend.namespaces.open('one');
    open.push(third);
    expect(third.collections).not.toBe(first.collections);
    expect(await third.store.get('a')).toEqual(record('a', 1));
    // The database itself stays open for the default namespace.
    expect(await backend.store.count()).toBe(0);
  });

  it('a registry entry that cannot be read is skipped with a warning; the others load', async () => {
    const dir = await tempDir();
    const first = await backendAt(dir);
    await first.namespaces.registry.create({ name: 'good', tokenHash: 'h', createdAt: 1, usedAt: 1 }, 10);
    await closeAll();
    const raw = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await raw.put('\u0003namespace:bad', '{not json');
    await raw.close();
    const backend = await backendAt(dir);
    expect((await backend.namespaces.registry.list()).map((e) => e.name)).toEqual(['good']);
    expect(backend.warnings.filter((line) => line.includes('registry'))).toEqual([
      `data directory ${dir}: 1 namespace(s) in the registry could not be read and were skipped (bad)`,
    ]);
  });

  it('mockpoint repair keeps the registry and every namespace key, and counts default records only', async () => {
    const dir = await tempDir();
    const backend = await backendAt(dir);
    await backend.store.put(record('a', 1));
    await backend.namespaces.registry.create({ name: 'ns', tokenHash: 'h', createdAt: 1, usedAt: 1 }, 10);
    const ns = await backend.namespaces.open('ns');
    await ns.store.put(record('a', 2));
    await ns.store.put(record('b', 3));
    await ns.close();
    await closeAll();
    const bytes = await dump(dir);
    expect((await repairLevelStore(dir)).records).toBe(1);
    expect(await dump(dir)).toEqual(bytes);
    const again = await backendAt(dir);
    expect((await again.namespaces.registry.list()).map((e) => e.name)).toEqual(['ns']);
    const reopened = await again.namespaces.open('ns');
    open.push(reopened);
    expect(await reopened.store.count()).toBe(2);
  });
});
