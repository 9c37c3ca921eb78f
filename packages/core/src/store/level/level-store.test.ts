import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { routesJson } from '../../api/route.js';
import type { EndpointRecord } from '../../api/schemas.js';
import { JsonText } from '../../codec/json-text.js';
import { runCollectionStoreContract } from '../../collections/collection-store.case.test.js';
import { itemOf } from '../../collections/item.js';
import { createApp } from '../../http/create-app.js';
import { MockpointError } from '../../registry/errors.js';
import { runStateStoreContract } from '../../state/state-store.case.test.js';
import { SLICED_ROUTES_CHARS } from '../../turns/turn-budget.js';
import { runDeliveryStoreContract } from '../../webhook/delivery-store.case.test.js';
import { newDeliveryId } from '../../webhook/delivery-store.js';
import { runBackendContract } from '../backend.case.test.js';
import { checkEarlierSettings, EARLIER_SETTINGS } from '../settings/stored-layout.case.test.js';
import { runStoreContract } from '../store.case.test.js';
import { LevelStore, levelBackend, repairLevelStore } from './index.js';

const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-level-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

runStoreContract('LevelStore', async () => LevelStore.open({ dir: await tempDir() }));

// Deliveries on disk (each write durable before it resolves), through the shared contract.
runDeliveryStoreContract('LevelStore deliveries', async () => {
  const store = await LevelStore.open({ dir: await tempDir() });
  return { store: await store.openDeliveries(), close: () => store.close() };
});

// Collections on disk: each change one fsync'd batch, everything there again after a reopen.
runCollectionStoreContract(
  'LevelStore collections',
  async () => {
    const dir = await tempDir();
    let store = await LevelStore.open({ dir });
    return {
      store: await store.openCollections(),
      reopen: async () => {
        await store.close();
        store = await LevelStore.open({ dir });
        return store.openCollections();
      },
      close: () => store.close(),
    };
  },
  { durable: true },
);

// State on disk: each change one fsync'd batch, everything there again after a reopen.
// `store` is the state store open now: after a reopen the contract's last moves
// (meant for replicas) go to the reopened one, not to the one whose database is closed.
runStateStoreContract(
  'LevelStore state',
  async () => {
    const dir = await tempDir();
    let store = await LevelStore.open({ dir });
    let states = await store.openStates();
    return {
      get store() {
        return states;
      },
      reopen: async () => {
        await store.close();
        store = await LevelStore.open({ dir });
        states = await store.openStates();
        return states;
      },
      close: () => store.close(),
    };
  },
  { durable: true },
);

function record(name: string, data: unknown, statusCode = 200, delay = 0): EndpointRecord {
  return { name, data: JsonText.from(data), statusCode, delay };
}

describe('a data directory an earlier version wrote', () => {
  it('loads every per-name setting from the keys it used (\\u0001<setting>:<name>), in a namespace too', async () => {
    const dir = await tempDir();
    const raw = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    for (const [kind, { name, text }] of Object.entries(EARLIER_SETTINGS)) {
      await raw.put(`\u0001${kind}:${name}`, text);
      await raw.put(`\u0004team\u0000\u0001${kind}:${name}`, text);
    }
    await raw.close();
    const store = await LevelStore.open({ dir });
    try {
      const team = store.namespace('team');
      await checkEarlierSettings(team);
      await checkEarlierSettings(store);
    } finally {
      await store.close();
    }
  });
});

describe('LevelStore on disk', () => {
  const stores: LevelStore[] = [];
  const children: ChildProcess[] = [];

  async function open(dir: string): Promise<LevelStore> {
    const store = await LevelStore.open({ dir });
    stores.push(store);
    return store;
  }

  afterEach(async () => {
    vi.restoreAllMocks();
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    for (const store of stores.splice(0)) await store.close().catch(() => undefined);
  });

  it('reports its kind and directory', async () => {
    const dir = await tempDir();
    const store = await open(dir);
    expect(store.kind).toBe('level');
    expect(store.dir).toBe(dir);
  });

  it('creates a missing data directory', async () => {
    const dir = join(await tempDir(), 'nested', 'data');
    const store = await open(dir);
    expect(await store.create(record('x', 1))).toBe(true);
  });

  it('keeps every acknowledged write across close and reopen in the same directory', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    await first.create(record('kept', { a: [1, 'two', null] }, 201, 50));
    await first.create(record('replaced', 'old'));
    await first.put(record('replaced', 'new', 404, 0));
    await first.create(record('deleted', true));
    await first.delete('deleted');
    await first.put(record('__proto__', { unicode: '日本語 🎉' }, 299, 60000));
    await first.close();

    const second = await open(dir);
    expect(await second.get('kept')).toEqual(record('kept', { a: [1, 'two', null] }, 201, 50));
    expect(await second.get('replaced')).toEqual(record('replaced', 'new', 404, 0));
    expect(await second.get('deleted')).toBeUndefined();
    expect(await second.get('__proto__')).toEqual(record('__proto__', { unicode: '日本語 🎉' }, 299, 60000));
    const page = await second.list({ limit: 10 });
    expect(page.endpoints.map((r) => r.name)).toEqual(['__proto__', 'kept', 'replaced']);
    expect(await second.create(record('kept', 'dup'))).toBe(false);
  });

  it('clear is durable across reopen', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    for (let i = 0; i < 5; i++) await first.create(record(`c${i}`, i));
    await first.clear();
    await first.close();
    const second = await open(dir);
    expect(await second.list({ limit: 10 })).toEqual({ endpoints: [], next: null });
  });

  /** Level's `batch` has overloads; the array form is the one the store uses. */
  function spyOnBatch() {
    type ArrayBatch = (operations: Array<{ type: string }>, options: { sync?: boolean }) => Promise<void>;
    return vi.spyOn(Level.prototype as unknown as { batch: ArrayBatch }, 'batch');
  }

  it('passes sync: true to every write by default', async () => {
    const batch = spyOnBatch();
    const store = await open(await tempDir());
    await store.create(record('s', 1));
    await store.put(record('s', 2));
    await store.delete('s');
    expect(batch.mock.calls.map((call) => call[0].map((op) => op.type))).toEqual([['put'], ['put'], ['del']]);
    for (const call of batch.mock.calls) expect(call[1]).toMatchObject({ sync: true });
  });

  it('concurrent writes share fsyncs (group commit), and every one of them is on disk when it resolves', async () => {
    const batch = spyOnBatch();
    const dir = await tempDir();
    const store = await open(dir);
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => store.create(record(`g${i}`, i))));
    expect(created.every(Boolean)).toBe(true);
    // The first write goes alone; the others queue behind its fsync and go out together.
    expect(batch.mock.calls.length).toBeLessThan(50);
    for (const call of batch.mock.calls) expect(call[1]).toMatchObject({ sync: true });
    await store.close();
    const reopened = await open(dir);
    for (let i = 0; i < 50; i++) expect(await reopened.get(`g${i}`)).toEqual(record(`g${i}`, i));
  });

  it('concurrent existence checks share one hasMany each group, and each gets its own answer', async () => {
    const store = await open(await tempDir());
    for (let i = 0; i < 50; i += 2) await store.create(record(`h${i}`, 'first'));
    const hasMany = vi.spyOn(
      Level.prototype as unknown as { hasMany: (keys: string[]) => Promise<boolean[]> },
      'hasMany',
    );
    const has = vi.spyOn(Level.prototype as unknown as { has: (key: string) => Promise<boolean> }, 'has');
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => store.create(record(`h${i}`, 'second'))));
    // Names taken before (even i) are refused and keep their record; the others are created.
    expect(created).toEqual(Array.from({ length: 50 }, (_, i) => i % 2 === 1));
    for (let i = 0; i < 50; i++)
      expect(await store.get(`h${i}`)).toEqual(record(`h${i}`, i % 2 === 0 ? 'first' : 'second'));
    expect(has).not.toHaveBeenCalled();
    // The first check goes alone; the others queue behind it and go out together.
    expect(hasMany.mock.calls.length).toBeLessThan(50);
    expect(hasMany.mock.calls.flatMap((call) => call[0]).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `h${i}`).sort(),
    );
  });

  it('a second open of a directory held in this process rejects with DATA_DIR_LOCKED', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    await first.create(record('held', 1));
    const error = await LevelStore.open({ dir }).then(
      (store) => {
        stores.push(store);
        throw new Error('second open unexpectedly succeeded');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'DATA_DIR_LOCKED', status: 503 });
    expect((error as Error).message).toContain('in use by another mockpoint process');
    expect((error as Error).message).toContain(dir);
    // The first store is unaffected, and the directory opens again once it is closed.
    expect(await first.get('held')).toEqual(record('held', 1));
    await first.close();
    const again = await open(dir);
    expect(await again.get('held')).toEqual(record('held', 1));
  });

  it('a directory held by another process rejects with DATA_DIR_LOCKED', async () => {
    const dir = await tempDir();
    const levelPath = createRequire(import.meta.url).resolve('level');
    const script = `
      const { Level } = require(${JSON.stringify(levelPath)});
      const db = new Level(${JSON.stringify(dir)});
      db.open().then(() => process.stdout.write('ready\\n'), (e) => { console.error(e); process.exit(1); });
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        if (String(chunk).includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}: ${stderr}`)));
    });
    await expect(LevelStore.open({ dir })).rejects.toMatchObject({
      name: 'MockpointError',
      code: 'DATA_DIR_LOCKED',
      message: expect.stringContaining('in use by another mockpoint process'),
    });
  });

  it('a directory that cannot be opened rejects with STORE_UNAVAILABLE, not a raw error', async () => {
    const file = join(await tempDir(), 'not-a-dir');
    await writeFile(file, 'plain file');
    await expect(LevelStore.open({ dir: file })).rejects.toMatchObject({
      name: 'MockpointError',
      code: 'STORE_UNAVAILABLE',
    });
  });

  it('a directory with LevelDB files but no CURRENT is refused (DATA_DIR_DAMAGED) and left as it is', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    await first.create(record('kept', 1));
    await first.close();
    await rm(join(dir, 'CURRENT'));
    const before = (await readdir(dir)).filter((name) => !name.startsWith('LOG')).sort();
    const error = await LevelStore.open({ dir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MockpointError', code: 'DATA_DIR_DAMAGED' });
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toMatch(/no CURRENT file.*nothing was changed/);
    expect((await readdir(dir)).filter((name) => !name.startsWith('LOG')).sort()).toEqual(before);
  });

  it('a CURRENT naming a missing MANIFEST is refused as DATA_DIR_DAMAGED with the restore hint, files kept', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    await first.create(record('kept', 1));
    await first.close();
    await writeFile(join(dir, 'CURRENT'), 'MANIFEST-000099\n');
    const before = (await readdir(dir)).filter((name) => !name.startsWith('LOG')).sort();
    const error = await LevelStore.open({ dir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MockpointError', code: 'DATA_DIR_DAMAGED' });
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toMatch(/cannot be opened as it is.*restore it from a backup/);
    expect((error as Error).message).not.toContain('\n');
    expect((await readdir(dir)).filter((name) => !name.startsWith('LOG')).sort()).toEqual(before);
  });

  it('counts the log records it cannot read at open; the others load', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    for (let i = 0; i < 12; i++) await first.create(record(`r${i}`, 'x'.repeat(100)));
    await first.close();
    const log = (await readdir(dir)).find((name) => name.endsWith('.log')) as string;
    const bytes = await readFile(join(dir, log));
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] as number) ^ 0xff;
    await writeFile(join(dir, log), bytes);
    const second = await open(dir);
    const { endpoints } = await second.list({ limit: 100 });
    expect(second.unreadableAtOpen).toBeGreaterThan(0);
    expect(endpoints.length + second.unreadableAtOpen).toBe(12);
    expect(second.health()).toEqual({ status: 'ok' });
  });
});

runBackendContract(
  'levelBackend',
  { kind: 'level', storeKind: 'level', collectionsKind: 'level', describes: /^level at \S+mockpoint-level-/ },
  async () => ({
    backend: await levelBackend({ dir: await tempDir() }),
  }),
);

describe('levelBackend', () => {
  it('keeps deliveries durable: one accepted before a close is pending after the reopen', async () => {
    const dir = await tempDir();
    const first = await levelBackend({ dir });
    expect(first.deliveries.kind).toBe('level');
    const now = Date.now();
    const delivery = {
      id: newDeliveryId(now),
      url: 'http://127.0.0.1:9/hook',
      method: 'POST' as const,
      headers: {},
      bodyBase64: '',
      bodyBytes: 0,
      delaysMs: [],
      timeoutMs: 1000,
      createdAt: now,
      state: 'pending' as const,
      nextAttemptAt: now,
      attempts: [],
      version: 1,
    };
    expect(await first.deliveries.create(delivery, 10)).toBe(true);
    await first.close();
    const second = await levelBackend({ dir });
    try {
      expect(await second.deliveries.pendingCount()).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('keeps state durable beside the records, never taken for one; a reset clears it durably', async () => {
    const dir = await tempDir();
    const first = await levelBackend({ dir });
    expect(first.states.kind).toBe('level');
    await first.store.put(record('api', 1));
    await first.states.put('api', { default: 'ready' });
    await first.states.move('api', { default: 'ready' }, { default: 'paid' });
    await first.states.move('other', {}, { login: 'in' });
    // Only the records are endpoints: state keys are not listed, counted, or routed.
    expect((await first.store.list({ limit: 10 })).endpoints.map((e) => e.name)).toEqual(['api']);
    expect(await first.store.count()).toBe(1);
    expect(await first.store.routeNames()).toEqual([]);
    // A reset of the records alone leaves the state to its own part.
    await first.store.clear();
    expect(await first.states.get('api')).toEqual({ default: 'paid' });
    await first.close();

    const second = await levelBackend({ dir });
    try {
      expect(await second.states.get('api')).toEqual({ default: 'paid' });
      expect(await second.states.getStart('api')).toEqual({ default: 'ready' });
      expect(await second.states.get('other')).toEqual({ login: 'in' });
      expect((await createApp({ backend: second }).request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
    } finally {
      await second.close();
    }
    const third = await levelBackend({ dir });
    try {
      expect(await third.states.get('api')).toEqual({});
      expect(await third.states.get('other')).toEqual({});
    } finally {
      await third.close();
    }
  });

  it('a long route list (written and read a slice per turn) comes back as it was, data exact, and replaces', async () => {
    const store = await LevelStore.open({ dir: await tempDir() });
    try {
      const long = Array.from({ length: 400 }, (_, i) => ({
        id: `r${i}`,
        match: { path: `/r${i}` },
        answer: { data: new JsonText(`{"n":12345678901234567890,"text":"${'x'.repeat(1000)}"}`) },
      }));
      expect(JSON.stringify(long).length).toBeGreaterThan(SLICED_ROUTES_CHARS);
      await store.updateRoutes('a', () => long);
      expect(routesJson(await store.getRoutes('a'))).toBe(routesJson(long));
      // The next update reads the long list back (a slice per turn) before replacing it.
      const seen: number[] = [];
      await store.updateRoutes('a', (now) => {
        seen.push(now.length);
        return now.slice(0, 1);
      });
      expect(seen).toEqual([400]);
      expect(routesJson(await store.getRoutes('a'))).toBe(routesJson(long.slice(0, 1)));
    } finally {
      await store.close();
    }
  });

  it('mockpoint repair counts records only, not the state, collections or route lists kept beside them', async () => {
    const dir = await tempDir();
    const backend = await levelBackend({ dir });
    await backend.store.put(record('a', 1));
    await backend.store.put(record('b', 2));
    await backend.store.updateRoutes('a', () => [
      { id: 'r', match: { method: 'GET', path: '/r' }, answer: { statusCode: 200, data: new JsonText('1') } },
    ]);
    await backend.states.put('a', { default: 'ready', other: 'x' });
    await backend.collections.seed('a', new Map([['users', [itemOf('{"id":1}')]]]));
    await backend.close();
    expect((await repairLevelStore(dir)).records).toBe(2);
  });

  it('deliveries that cannot be read: opens with deliveries in memory, and says so in one warning', async () => {
    const dir = await tempDir();
    const raw = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await raw.put('\u0002delivery:damaged', '{not json');
    await raw.close();
    const backend = await levelBackend({ dir });
    try {
      expect(backend.deliveries.kind).toBe('memory');
      // The raw Level above wrote its files under this process's umask: that line is the folder's (private-dir.ts).
      const warnings = backend.warnings.filter((line) => !line.includes('now the folder is 0700'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^the pending deliveries could not be read \(.+\); new deliveries are kept in memory until the data directory is repaired \(mockpoint repair\)$/,
      );
      expect(backend.describe()).toBe(`level at ${dir}`);
    } finally {
      await backend.close();
    }
  });
});
