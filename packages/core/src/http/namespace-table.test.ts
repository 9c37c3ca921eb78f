// The namespace table when a name is deleted and made again: by another replica (two apps on one
// backend, as two daemons on one Redis), or while a delete of the same name is still running.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import type { Backend } from '../store/backend.js';
import { memoryBackend } from '../store/memory/backend.js';
import type { BackendNamespaces, DropOptions } from '../store/namespaces.js';
import { NamespaceTable } from './namespace-table.js';

const ADMIN = 'admin-s3cret';
const admin = { authorization: `Bearer ${ADMIN}` };
const apps: MockpointApp[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

function makeApp(backend: Backend): MockpointApp {
  const app = createApp({ backend, adminToken: ADMIN });
  apps.push(app);
  return app;
}

function send(app: MockpointApp, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function make(app: MockpointApp, name: string): Promise<string> {
  const response = await send(app, 'POST', '/api/namespaces', admin, { name });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a namespace deleted and made again elsewhere', () => {
  it('is made again here: the new token works at once, the old one no longer', async () => {
    const backend = memoryBackend();
    const here = makeApp(backend);
    const there = makeApp(backend);
    const old = await make(here, 'r');
    expect((await send(here, 'GET', '/ns/r/api/endpoints', bearer(old))).status).toBe(200);
    expect((await send(there, 'DELETE', '/api/namespaces/r', admin)).status).toBe(204);
    const token = await make(here, 'r');
    expect((await send(here, 'GET', '/ns/r/api/endpoints', bearer(token))).status).toBe(200);
    expect((await send(here, 'GET', '/ns/r/api/endpoints', bearer(old))).status).toBe(401);
  });

  it('made again by another replica: this one lets go of the old namespace within a sweep', async () => {
    const backend = memoryBackend();
    const here = makeApp(backend);
    const there = makeApp(backend);
    const old = await make(here, 'r');
    expect((await send(here, 'GET', '/ns/r/api/endpoints', bearer(old))).status).toBe(200);
    expect((await send(there, 'DELETE', '/api/namespaces/r', admin)).status).toBe(204);
    const token = await make(there, 'r');
    // The sweep runs once a second: a few of them at most.
    await vi.waitFor(
      async () => {
        expect((await send(here, 'GET', '/ns/r/api/endpoints', bearer(old))).status).toBe(401);
      },
      { timeout: 5000, interval: 100 },
    );
    expect((await send(here, 'GET', '/ns/r/api/endpoints', bearer(token))).status).toBe(200);
  });
});

describe('a namespace made while a delete of its name runs', () => {
  it('keeps what is written to it after it was made', async () => {
    const backend = memoryBackend();
    const namespaces = backend.namespaces as BackendNamespaces;
    // Closing a namespace's parts (part of deleting it) says it began, and waits until `release`.
    let release: () => void = () => undefined;
    const closing = new Promise<void>((resolve) => {
      release = resolve;
    });
    let began: () => void = () => undefined;
    const closeBegan = new Promise<void>((resolve) => {
      began = resolve;
    });
    const gated: Backend = {
      ...backend,
      namespaces: {
        ...namespaces,
        open: async (name) => {
          const parts = await namespaces.open(name);
          return {
            ...parts,
            close: async () => {
              began();
              return closing.then(() => parts.close());
            },
          };
        },
      },
    };
    const app = makeApp(gated);
    const table = app.mockpoint.namespaces as NamespaceTable;
    const token = await make(app, 'r');
    expect((await send(app, 'GET', '/ns/r/api/endpoints', bearer(token))).status).toBe(200);
    const deleted = send(app, 'DELETE', '/api/namespaces/r', admin);
    // The delete holds the name's turn, its namespace's parts closing.
    await closeBegan;
    // The make of the name again asks for its turn behind the delete: it awaits nothing before it
    // does but a hash done in place, so within this turn of the event loop.
    const remade = table.create({ name: 'r' });
    const written = remade.then(async (again) => {
      const put = await send(app, 'PUT', '/ns/r/api/endpoint/add', bearer(again.token), { name: 'x', data: 1 });
      expect(put.status).toBe(201);
    });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await deleted).status).toBe(204);
    await written;
    const parts = await namespaces.open('r');
    expect((await parts.store.get('x'))?.name).toBe('x');
  });
});

describe('a batch of namespaces', () => {
  it('holds no room when readying one of them fails: none is made, none stays registered', async () => {
    const shared = memoryBackend();
    const namespaces = shared.namespaces as BackendNamespaces;
    let fail = true;
    const failing: BackendNamespaces = {
      ...namespaces,
      drop: async (name) => {
        if (fail) {
          fail = false;
          throw new Error('the store failed');
        }
        await namespaces.drop(name);
      },
    };
    const app = makeApp({ ...shared, namespaces: failing });
    expect((await send(app, 'POST', '/api/namespaces', admin, { count: 3 })).status).toBe(500);
    expect(await namespaces.registry.list()).toEqual([]);
    const made = await send(app, 'POST', '/api/namespaces', admin, { count: 3 });
    expect(made.status).toBe(201);
    expect(await namespaces.registry.list()).toHaveLength(3);
  });
});

describe('the TTL sweep of a serving replica', () => {
  /**
   * `backend` with each list of its namespaces counted (a sweep reads the list once), and the
   * sweep's clock faked: its 1 s interval and `Date.now()` move only as the test advances them.
   */
  function sweptBy(backend: Backend, namespaces: BackendNamespaces): { backend: Backend; sweeps: () => number } {
    let lists = 0;
    const { registry } = namespaces;
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    return {
      backend: {
        ...backend,
        namespaces: {
          ...namespaces,
          registry: {
            list: async () => {
              lists++;
              return registry.list();
            },
            get: (name) => registry.get(name),
            create: (entry, max) => registry.create(entry, max),
            createAll: (entries, max) => registry.createAll(entries, max),
            delete: (name) => registry.delete(name),
            touch: (name, at) => registry.touch(name, at),
          },
        },
      },
      sweeps: () => lists,
    };
  }

  it('deletes a namespace another replica made and left, also after it saw none for a while', async () => {
    const shared = memoryBackend();
    const { backend, sweeps } = sweptBy(shared, shared.namespaces as BackendNamespaces);
    const here = makeApp(backend);
    here.mockpoint.namespaces?.serve();
    // Two sweeps with no namespace at all.
    await vi.advanceTimersByTimeAsync(2000);
    expect(sweeps()).toBe(2);
    const there = makeApp(shared);
    const made = await send(there, 'POST', '/api/namespaces', admin, { name: 'left', ttlMs: 1000 });
    expect(made.status).toBe(201);
    // That replica stops (crashed, scaled down): only this one can delete it, once idle past its 1 s.
    await there.mockpoint.namespaces?.close();
    await vi.advanceTimersByTimeAsync(1000);
    expect((await send(here, 'GET', '/api/namespaces/left', admin)).status).toBe(200);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweeps()).toBe(4);
    expect((await send(here, 'GET', '/api/namespaces/left', admin)).status).toBe(404);
  });

  it('does not delete one that another replica wrote a use of after the list was read', async () => {
    const shared = memoryBackend();
    const namespaces = shared.namespaces as BackendNamespaces;
    const { registry } = namespaces;
    // Every list is read before the other replica's latest use is written down.
    const stale: BackendNamespaces = {
      ...namespaces,
      registry: {
        list: async () => (await registry.list()).map((entry) => ({ ...entry, usedAt: entry.createdAt })),
        get: (name) => registry.get(name),
        create: (entry, max) => registry.create(entry, max),
        createAll: (entries, max) => registry.createAll(entries, max),
        delete: (name) => registry.delete(name),
        touch: (name, at) => registry.touch(name, at),
      },
    };
    const { backend, sweeps } = sweptBy({ ...shared, namespaces: stale }, stale);
    const here = makeApp(backend);
    here.mockpoint.namespaces?.serve();
    expect((await send(here, 'POST', '/api/namespaces', admin, { name: 'busy', ttlMs: 1000 })).status).toBe(201);
    // In use on another replica all along: it writes a use down every 200 ms.
    const busy = setInterval(() => void registry.touch('busy', Date.now()), 200);
    try {
      // Four sweeps: the last three see it idle past its 1 s TTL by the list they read.
      await vi.advanceTimersByTimeAsync(4000);
      expect(sweeps()).toBe(4);
      expect((await registry.get('busy'))?.name).toBe('busy');
    } finally {
      clearInterval(busy);
    }
  });
});

describe("a namespace's parts known to hold nothing (its name ledger reads none)", () => {
  /** A table over `namespaces` whose `make` notes, per name, whether it was told the parts are fresh. */
  function tableOver(namespaces: BackendNamespaces, seen: [string, boolean][]): NamespaceTable {
    const table = new NamespaceTable(namespaces, {
      max: 10,
      // Unloaded on the second sweep after its last use (the first notes the use).
      sweepMs: 5,
      unloadAfterMs: 0,
      make: (parts, entry, fresh) => {
        seen.push([entry.name, fresh]);
        return createApp({ backend: parts });
      },
      report: (error) => {
        throw error;
      },
    });
    tables.push(table);
    return table;
  }
  const tables: NamespaceTable[] = [];
  afterEach(async () => {
    for (const table of tables.splice(0)) await table.close();
  });

  it('are only those of a namespace made by this table, opened the first time since', async () => {
    const namespaces = memoryBackend().namespaces as BackendNamespaces;
    const seen: [string, boolean][] = [];
    const here = tableOver(namespaces, seen);
    const there = tableOver(namespaces, []);
    await here.create({ name: 'a' });
    await there.create({ name: 'b' });
    await here.app('a');
    await here.app('b');
    expect(seen).toEqual([
      ['a', true],
      ['b', false],
    ]);
    // Unloaded when idle, made again on its next request: its parts hold what was written.
    await vi.waitFor(() => expect(here.liveCount).toBe(0), { timeout: 5000, interval: 10 });
    await here.app('a');
    // Deleted and made again with its name: emptied, fresh again.
    await here.delete('a');
    await here.create({ name: 'a' });
    await here.app('a');
    expect(seen.slice(2)).toEqual([
      ['a', false],
      ['a', true],
    ]);
  });

  it('are not those another table on the same backend opened first (two apps on one memory)', async () => {
    const namespaces = memoryBackend().namespaces as BackendNamespaces;
    const seen: [string, boolean][] = [];
    const here = tableOver(namespaces, seen);
    const there = tableOver(namespaces, []);
    await here.create({ name: 'a' });
    // The other replica opens it first and may write in it: here its parts are read, not taken as empty.
    await there.app('a');
    await here.app('a');
    expect(seen).toEqual([['a', false]]);
  });

  it('are not those of a namespace a request opened while its create was still emptying it', async () => {
    const inner = memoryBackend().namespaces as BackendNamespaces;
    let reached!: () => void;
    const atDrop = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const namespaces: BackendNamespaces = {
      ...inner,
      drop: async (name, options) => {
        reached();
        await held;
        return inner.drop(name, options);
      },
    };
    const seen: [string, boolean][] = [];
    const table = tableOver(namespaces, seen);
    const creating = table.create({ name: 'r' });
    // Registered, not yet emptied: a request (no token needed to read) opens an app of it meanwhile.
    await atDrop;
    const early = table.app('r');
    release();
    await Promise.all([creating, early]);
    // Unloaded when idle and made again: it reads its parts, as its first app did.
    await vi.waitFor(() => expect(table.liveCount).toBe(0), { timeout: 5000, interval: 10 });
    await table.app('r');
    expect(seen).toEqual([
      ['r', false],
      ['r', false],
    ]);
  });

  it('a name drawn here is dropped as unused before its namespace is made; a chosen name is emptied', async () => {
    const inner = memoryBackend().namespaces as BackendNamespaces;
    const drops: [string, DropOptions | undefined][] = [];
    const namespaces: BackendNamespaces = {
      ...inner,
      drop: (name, options) => {
        drops.push([name, options]);
        return inner.drop(name, options);
      },
    };
    const table = tableOver(namespaces, []);
    const [drawn] = await table.createMany({}, 1);
    await table.create({ name: 'chosen' });
    expect(drops).toEqual([
      [drawn?.name, { unused: true }],
      ['chosen', undefined],
    ]);
  });

  it('its first app, in a serving table, resumes no delivery nor twin and reads no host mapping; one made again does', async () => {
    const namespaces = memoryBackend().namespaces as BackendNamespaces;
    const made: MockpointApp[] = [];
    const counted = new Set<object>();
    let hostReads = 0;
    const table = new NamespaceTable(namespaces, {
      max: 10,
      sweepMs: 5,
      unloadAfterMs: 0,
      make: (parts, _entry, fresh) => {
        // The same store each open (memory keeps a namespace's parts until it is dropped): counted once.
        if (!counted.has(parts.store)) {
          counted.add(parts.store);
          const read = parts.store.settingNames.bind(parts.store);
          parts.store.settingNames = (kind, options) => {
            if (kind === 'hosts') hostReads++;
            return read(kind, options);
          };
        }
        const app = createApp({ backend: parts, namespace: { name: 'a', tokenHash: 'h', empty: fresh } });
        vi.spyOn(app.mockpoint.deliveries, 'start');
        vi.spyOn(app.mockpoint.twins, 'resume');
        made.push(app);
        return app;
      },
      report: (error) => {
        throw error;
      },
    });
    tables.push(table);
    table.serve();
    await table.create({ name: 'a' });
    // Each app is handed out once its host mappings are in (read, or known to be none).
    await table.app('a');
    const readByFirst = hostReads;
    await vi.waitFor(() => expect(table.liveCount).toBe(0), { timeout: 5000, interval: 10 });
    await table.app('a');
    expect([readByFirst, hostReads - readByFirst]).toEqual([0, 1]);
    expect(
      made.map((app) => [
        vi.mocked(app.mockpoint.deliveries.start).mock.calls.length,
        vi.mocked(app.mockpoint.twins.resume).mock.calls.length,
      ]),
    ).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('are not those of a namespace whose first make failed', async () => {
    const namespaces = memoryBackend().namespaces as BackendNamespaces;
    const seen: [string, boolean][] = [];
    let fail = true;
    const table = new NamespaceTable(namespaces, {
      max: 10,
      make: (parts, entry, fresh) => {
        seen.push([entry.name, fresh]);
        if (fail) throw new Error('make failed');
        return createApp({ backend: parts });
      },
      report: () => undefined,
    });
    tables.push(table);
    await table.create({ name: 'a' });
    await expect(table.app('a')).rejects.toThrow('make failed');
    fail = false;
    await table.app('a');
    expect(seen).toEqual([
      ['a', true],
      ['a', false],
    ]);
  });
});
