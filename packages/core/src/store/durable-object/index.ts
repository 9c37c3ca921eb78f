/**
 * An {@link EndpointStore} on a Cloudflare Durable Object's storage: the store
 * behind the Workers entry (`@mockpoint/core/workers`). It uses only the
 * storage's key-value calls, so it runs on SQLite-backed and key-value-backed
 * objects alike, and is typed structurally (no Workers types needed).
 *
 * @module
 */

import { decodeRoutes, type Route, routesJson } from '../../api/route.js';
import type { EndpointRecord, ListPage } from '../../api/schemas.js';
import { MockpointError } from '../../registry/errors.js';
import type { SettingKind, SettingValue, StoredSetting } from '../../settings/name-settings.js';
import { decodeSetting, encodeSetting, NAME_SETTINGS, SETTING_KINDS } from '../../settings/name-settings.js';
import { decodeRecord, encodeRecord } from '../record-codec.js';
import type { EndpointStore, ListOptions, RoutedName, RouteNamesOptions, RoutesUpdate } from '../store.js';
import { inNameRange, KeyedMutex, routeCount } from '../store.js';

/** The part of a Durable Object's `ctx.storage` this store uses. */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options?: { prefix?: string; startAfter?: string; limit?: number }): Promise<Map<string, T>>;
}

/** Options for {@link DurableObjectStore}. */
export interface DurableObjectStoreOptions {
  /**
   * Prefix of this store's keys, so the object's storage can hold other things.
   * @default 'endpoint:'
   */
  prefix?: string;
}

/** Most keys one `storage.delete([...])` call takes. */
const DELETE_BATCH = 128;
/** Keys read per `storage.list()` call while counting. */
const COUNT_BATCH = 1000;

/**
 * Keeps each record as its {@link encodeRecord} text under `<prefix><name>`.
 * Storage lists keys in UTF-8 byte order, which is code-unit order for the
 * ASCII names mockpoint allows. A Durable Object runs one request handler at a
 * time between awaits, and a per-name lock makes each check-and-write one step;
 * its output gate holds every answer until the writes before it are durable.
 */
export class DurableObjectStore implements EndpointStore {
  readonly kind = 'durable-object';
  readonly #storage: DurableObjectStorageLike;
  readonly #prefix: string;
  readonly #locks = new KeyedMutex();
  #closed = false;

  constructor(storage: DurableObjectStorageLike, options: DurableObjectStoreOptions = {}) {
    this.#storage = storage;
    this.#prefix = options.prefix ?? 'endpoint:';
  }

  async get(name: string): Promise<EndpointRecord | undefined> {
    const text = await this.#call(() => this.#storage.get<string>(this.#key(name)));
    return text === undefined ? undefined : decodeRecord(text);
  }

  create(record: EndpointRecord): Promise<boolean> {
    return this.#locks.run(record.name, async () => {
      const key = this.#key(record.name);
      if ((await this.#call(() => this.#storage.get(key))) !== undefined) return false;
      await this.#call(() => this.#storage.put(key, encodeRecord(record)));
      return true;
    });
  }

  put(record: EndpointRecord): Promise<{ created: boolean }> {
    return this.#locks.run(record.name, async () => {
      const key = this.#key(record.name);
      const existed = (await this.#call(() => this.#storage.get(key))) !== undefined;
      await this.#call(() => this.#storage.put(key, encodeRecord(record)));
      return { created: !existed };
    });
  }

  delete(name: string): Promise<boolean> {
    // The record's lock is its name's (as create and put take it); every other part's, its key.
    const record = this.#locks.run(name, () => this.#call(() => this.#storage.delete(this.#key(name))));
    const keys = [this.#routesKey(name), ...SETTING_KINDS.map((kind) => this.#settingKey(kind, name))];
    const parts = keys.map((key) => this.#locks.run(key, () => this.#call(() => this.#storage.delete(key))));
    return Promise.all([record, ...parts]).then((had) => had.includes(true));
  }

  async getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    const text = await this.#call(() => this.#storage.get<string>(this.#settingKey(kind, name)));
    return text === undefined ? undefined : decodeSetting(kind, text);
  }

  setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean> {
    return this.#setPart(this.#settingKey(kind, name), encodeSetting(kind, value));
  }

  async settingNames(kind: SettingKind, options: RouteNamesOptions = {}): Promise<string[]> {
    return this.#namesOf((name) => this.#settingKey(kind, name), options);
  }

  /** Sets (`text` given) or removes the part stored at `key`; whether there was one. */
  #setPart(key: string, text: string | undefined): Promise<boolean> {
    return this.#locks.run(key, async () => {
      if (text === undefined) return this.#call(() => this.#storage.delete(key));
      const had = (await this.#call(() => this.#storage.get(key))) !== undefined;
      await this.#call(() => this.#storage.put(key, text));
      return had;
    });
  }

  async getRoutes(name: string): Promise<Route[]> {
    const text = await this.#call(() => this.#storage.get<string>(this.#routesKey(name)));
    return text === undefined ? [] : decodeRoutes(text);
  }

  updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    const key = this.#routesKey(name);
    return this.#locks.run(key, async () => {
      const text = await this.#call(() => this.#storage.get<string>(key));
      const next = update(text === undefined ? [] : decodeRoutes(text));
      if (next.length === 0) await this.#call(() => this.#storage.delete(key));
      else await this.#call(() => this.#storage.put(key, routesJson(next)));
      return next;
    });
  }

  async list({ limit, after, prefix = '' }: ListOptions & { prefix?: string }): Promise<ListPage> {
    const options = { prefix: this.#prefix + prefix, limit: limit + 1 };
    const entries = await this.#call(() =>
      this.#storage.list<string>(after === undefined ? options : { ...options, startAfter: this.#key(after) }),
    );
    const page = [...entries.values()].slice(0, limit).map(decodeRecord);
    const next = entries.size > limit ? (page.at(-1)?.name ?? null) : null;
    return { endpoints: page, next };
  }

  async routeNames(options: RouteNamesOptions = {}): Promise<RoutedName[]> {
    const start = this.#routesKey('');
    const entries = await this.#call(() =>
      this.#storage.list<string>(partList((name) => this.#routesKey(name), options)),
    );
    const out: RoutedName[] = [];
    for (const [key, text] of entries) {
      const name = key.slice(start.length);
      if (!inNameRange(name, options)) continue;
      const record = (await this.#call(() => this.#storage.get<string>(this.#key(name)))) !== undefined;
      out.push({ name, routes: routeCount(text), record });
    }
    return out;
  }

  /** The names that hold a part keyed by `keyOf` (a setting), in the range of `options`. */
  async #namesOf(keyOf: (name: string) => string, options: RouteNamesOptions): Promise<string[]> {
    const start = keyOf('');
    const entries = await this.#call(() => this.#storage.list<string>(partList(keyOf, options)));
    return [...entries.keys()].map((key) => key.slice(start.length)).filter((name) => inNameRange(name, options));
  }

  /** Number of records (only those whose name starts with `prefix`, when given). */
  async count(options: { prefix?: string } = {}): Promise<number> {
    const prefix = this.#prefix + (options.prefix ?? '');
    let total = 0;
    let startAfter: string | undefined;
    // Bounded: each round reads the next batch of keys, and stops at the last one.
    for (;;) {
      const batch = { prefix, limit: COUNT_BATCH };
      const keys = [
        ...(
          await this.#call(() => this.#storage.list(startAfter === undefined ? batch : { ...batch, startAfter }))
        ).keys(),
      ];
      total += keys.length;
      if (keys.length < COUNT_BATCH) return total;
      startAfter = keys.at(-1);
    }
  }

  async clear(): Promise<void> {
    const settings = SETTING_KINDS.map((kind) => this.#settingKey(kind, ''));
    for (const prefix of [this.#prefix, this.#routesKey(''), ...settings]) {
      // Bounded: each round deletes up to a batch of keys, and stops when none are left.
      for (;;) {
        const keys = [...(await this.#call(() => this.#storage.list({ prefix, limit: DELETE_BATCH }))).keys()];
        if (keys.length === 0) break;
        await this.#call(() => this.#storage.delete(keys));
      }
    }
  }

  async close(): Promise<void> {
    // The storage belongs to the object; closing only stops this store from using it.
    this.#closed = true;
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }

  /** Route lists live under their own prefix, so record lists and counts never see them. */
  #routesKey(name: string): string {
    return `routes:${this.#prefix}${name}`;
  }

  /** Each setting lives under its own prefix too (`<key>:`, settings/name-settings.ts). */
  #settingKey(kind: SettingKind, name: string): string {
    return `${NAME_SETTINGS[kind].key}:${this.#prefix}${name}`;
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new MockpointError('STORE_UNAVAILABLE', 'the Durable Object store is closed');
    try {
      return await operation();
    } catch (error) {
      throw new MockpointError('STORE_UNAVAILABLE', `Durable Object storage failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/**
 * The storage list options for the names whose part is keyed by `keyOf` (`routes:…`, `graphql:…`, …) in the
 * range of `options`: the part's prefix and the name prefix, past `after`, at most `limit` keys.
 */
function partList(
  keyOf: (name: string) => string,
  options: RouteNamesOptions,
): { prefix: string; startAfter?: string; limit?: number } {
  const list: { prefix: string; startAfter?: string; limit?: number } = { prefix: keyOf('') + (options.prefix ?? '') };
  if (options.after !== undefined) list.startAfter = keyOf(options.after);
  if (options.limit !== undefined) list.limit = options.limit;
  return list;
}
