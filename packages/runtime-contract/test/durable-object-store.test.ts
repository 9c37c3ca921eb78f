/**
 * The store contract for {@link DurableObjectStore}, run inside workerd (through
 * miniflare): every operation the contract makes is carried out by the real store
 * on a real Durable Object's storage (SQLite-backed, on disk in a temp dir), one
 * fresh object per test. The contract talks to it through {@link RemoteStore}.
 * Here, beside the other workerd runs, rather than in core: miniflare and workerd
 * (150 MB) are the runtime contract's dependencies, which `pnpm start` does not install.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRoutes, type Route, routesJson } from '../../core/src/api/route.js';
import type { EndpointRecord, ListPage } from '../../core/src/api/schemas.js';
import { type ErrorCode, MockpointError } from '../../core/src/registry/errors.js';
import type { SettingKind, SettingValue, StoredSetting } from '../../core/src/settings/name-settings.js';
import { decodeRecord, encodeRecord } from '../../core/src/store/record-codec.js';
import { runStoreContract } from '../../core/src/store/store.case.test.js';
import {
  type EndpointStore,
  KeyedMutex,
  type ListOptions,
  type RoutedName,
  type RouteNamesOptions,
  type RoutesUpdate,
} from '../../core/src/store/store.js';

let mf: Miniflare;
let origin: string;
let persist: string;

/** An {@link EndpointStore} whose every call runs in one Durable Object's store. */
class RemoteStore implements EndpointStore {
  readonly kind = 'durable-object';
  readonly #object = randomUUID();
  readonly #routeLocks = new KeyedMutex();

  async #call<T>(op: string, ...args: unknown[]): Promise<T> {
    const response = await fetch(`${origin}/${this.#object}`, { method: 'POST', body: JSON.stringify({ op, args }) });
    const body = (await response.json()) as { result?: T; error?: { name: string; code?: string; message: string } };
    if (body.error) {
      if (body.error.name === 'MockpointError') {
        throw new MockpointError(body.error.code as ErrorCode, body.error.message);
      }
      throw new Error(`${body.error.name}: ${body.error.message}`);
    }
    return body.result as T;
  }

  async get(name: string): Promise<EndpointRecord | undefined> {
    const text = await this.#call<string | null>('get', name);
    return text === null ? undefined : decodeRecord(text);
  }
  create(record: EndpointRecord): Promise<boolean> {
    return this.#call('create', encodeRecord(record));
  }
  put(record: EndpointRecord): Promise<{ created: boolean }> {
    return this.#call('put', encodeRecord(record));
  }
  delete(name: string): Promise<boolean> {
    return this.#call('delete', name);
  }
  async list(options: ListOptions): Promise<ListPage> {
    const page = await this.#call<{ endpoints: string[]; next: string | null }>('list', options);
    return { endpoints: page.endpoints.map(decodeRecord), next: page.next };
  }
  count(options: { prefix?: string } = {}): Promise<number> {
    return this.#call('count', options);
  }
  routeNames(options: RouteNamesOptions = {}): Promise<RoutedName[]> {
    return this.#call('routeNames', options);
  }
  settingNames(kind: SettingKind, options: RouteNamesOptions = {}): Promise<string[]> {
    return this.#call('settingNames', kind, options);
  }
  async clear(): Promise<void> {
    await this.#call('clear');
  }
  async getRoutes(name: string): Promise<Route[]> {
    return decodeRoutes(await this.#call<string>('getRoutes', name));
  }
  /** The update runs here, so this process is the one writer: one update of a name at a time. */
  updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    return this.#routeLocks.run(name, async () => {
      const next = update(await this.getRoutes(name));
      return decodeRoutes(await this.#call<string>('setRoutes', name, routesJson(next)));
    });
  }
  async getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    return (await this.#call<StoredSetting<K> | null>('getSetting', kind, name)) ?? undefined;
  }
  setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean> {
    return this.#call('setSetting', kind, name, value ?? null);
  }
  async close(): Promise<void> {
    await this.#call('close');
  }
}

let script: string;

async function startWorkerd(): Promise<void> {
  mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-07-01',
    durableObjects: { STORE: { className: 'StoreObject', useSQLite: true } },
    durableObjectsPersist: persist,
    host: '127.0.0.1',
    port: 0,
  });
  origin = (await mf.ready).origin;
}

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../entries/store-worker.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  script = bundle.outputFiles[0]?.text ?? '';
  persist = await mkdtemp(join(tmpdir(), 'mockpoint-do-store-'));
  await startWorkerd();
}, 90_000);

afterAll(async () => {
  await mf?.dispose();
  if (persist) await rm(persist, { recursive: true, force: true });
});

runStoreContract('DurableObjectStore (workerd)', async () => new RemoteStore());

async function sender(object = randomUUID()) {
  return async (op: string, ...args: unknown[]) =>
    (
      (await (await fetch(`${origin}/${object}`, { method: 'POST', body: JSON.stringify({ op, args }) })).json()) as {
        result: unknown;
      }
    ).result;
}

describe('DurableObjectStore (workerd): name prefixes', () => {
  it('list and count only the names with a prefix, across pages and count batches', async () => {
    const send = await sender();
    const names = [...Array.from({ length: 1005 }, (_, i) => `order-${String(i).padStart(4, '0')}`), 'ord', 'other'];
    // Bounded: 1,007 creates in batches of 100 concurrent requests.
    for (let i = 0; i < names.length; i += 100) {
      await Promise.all(
        names
          .slice(i, i + 100)
          .map((name) => send('create', encodeRecord({ name, data: 1, statusCode: 200, delay: 0 }))),
      );
    }
    expect(await send('count')).toBe(1007);
    expect(await send('count', { prefix: 'order-' })).toBe(1005);
    expect(await send('count', { prefix: 'nothing' })).toBe(0);
    const names2 = (page: unknown) => (page as { endpoints: string[] }).endpoints.map((t) => decodeRecord(t).name);
    const first = (await send('list', { limit: 2, prefix: 'ord' })) as { endpoints: string[]; next: string };
    expect(names2(first)).toEqual(['ord', 'order-0000']);
    const second = await send('list', { limit: 2, prefix: 'order-', after: first.next });
    expect(names2(second)).toEqual(['order-0001', 'order-0002']);
    const last = await send('list', { limit: 10, prefix: 'order-', after: 'order-1003' });
    expect(last).toEqual({
      endpoints: [encodeRecord({ name: 'order-1004', data: 1, statusCode: 200, delay: 0 })],
      next: null,
    });
  }, 90_000);
});

describe('DurableObjectStore (workerd) on disk', () => {
  it('an acknowledged record is there after workerd restarts on the same storage', async () => {
    const send = await sender();
    const record = { name: 'kept', data: { text: 'é 🎉' }, statusCode: 201, delay: 5 };
    expect(await send('create', encodeRecord(record))).toBe(true);
    await mf.dispose();
    await startWorkerd();
    expect(await send('get', 'kept')).toBe(encodeRecord(record));
    expect(await send('list', { limit: 10 })).toEqual({ endpoints: [encodeRecord(record)], next: null });
  }, 90_000);
});
