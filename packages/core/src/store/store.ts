/**
 * The storage contract every mockpoint store implements (memory, LevelDB, …).
 * Stores are async-only, closable and hold plain {@link EndpointRecord}s.
 *
 * @module
 */

import type { Route } from '../api/route.js';
import type { EndpointRecord, ListPage } from '../api/schemas.js';
import { scanJson } from '../codec/json-text.js';
import type { SettingKind, SettingValue, StoredSetting } from '../settings/name-settings.js';
import type { NameLedger } from './name-ledger.js';

/**
 * Computes a name's new route list from its current one; may throw (a limit,
 * an unknown id), and then nothing is written.
 */
export type RoutesUpdate = (current: Route[]) => Route[];

/** How many routes a stored route list (its JSON array text) has. */
export function routeCount(text: string): number {
  return scanJson(text).elements?.length ?? 0;
}

/** Whether `name` is in the range of a {@link RouteNamesOptions}. */
export function inNameRange(name: string, options: RouteNamesOptions): boolean {
  return (options.after === undefined || name > options.after) && name.startsWith(options.prefix ?? '');
}

/** Options for {@link EndpointStore.list}. */
export interface ListOptions {
  /** Maximum number of records to return. */
  limit: number;
  /** Only names strictly after this one (in code-unit order). */
  after?: string;
  /** Only names starting with this (case-sensitive); `''` or absent: every name. */
  prefix?: string;
}

/** Options for {@link EndpointStore.routeNames}. */
export interface RouteNamesOptions {
  /** Maximum number of names to return. @default every one */
  limit?: number;
  /** Only names strictly after this one (in code-unit order). */
  after?: string;
  /** Only names starting with this (case-sensitive); `''` or absent: every name. */
  prefix?: string;
}

/** A name that has routes, as {@link EndpointStore.routeNames} lists it. */
export interface RoutedName {
  name: string;
  /** How many routes it has (at least 1). */
  routes: number;
  /** Whether it also has a record. */
  record: boolean;
}

/** Options for {@link EndpointStore.count}. */
export interface CountOptions {
  /** Only names starting with this (case-sensitive); `''` or absent: every name. */
  prefix?: string;
}

/** What a store says of itself in `/api/health`. */
export interface StoreHealth {
  /** `ok`; `degraded` (serving, but something failed: see `reason`); `unavailable` (cannot serve). */
  status: 'ok' | 'degraded' | 'unavailable';
  /** A sentence a person can act on, when not `ok`. */
  reason?: string;
}

/**
 * How a shared store tells the cache in front of it that a record was changed by
 * another process. Absent on stores that only this process writes.
 */
export interface StoreChanges {
  /**
   * Whether changes made elsewhere are being delivered right now. While `false`,
   * a cache in front of the store must not hold anything (it may miss a change).
   */
  readonly live: boolean;
  /**
   * Calls `listener` with the name of every record changed elsewhere, and with
   * `undefined` when everything may have changed (a clear, or {@link live} turned
   * false or back to true). Returns a function that stops the calls.
   */
  subscribe(listener: (name: string | undefined) => void): () => void;
}

/** Storage for endpoint records. */
export interface EndpointStore {
  /** A short name shown in the health check and start-up line, e.g. `memory` or `level`. */
  readonly kind: string;
  /** The record, or `undefined` when no such name exists. */
  get(name: string): Promise<EndpointRecord | undefined>;
  /**
   * Stores a new record. Resolves `false` (and changes nothing) when the name is
   * taken; atomic under concurrent creates of the same name. Durable on resolve.
   */
  create(record: EndpointRecord): Promise<boolean>;
  /** Creates or replaces a record; resolves whether it was `created`. Durable on resolve. */
  put(record: EndpointRecord): Promise<{ created: boolean }>;
  /** Removes a record, the name's routes and every per-name setting it holds; resolves whether any existed. */
  delete(name: string): Promise<boolean>;
  /**
   * The routes of `name`, in order (`[]` when it has none). Routes are kept
   * beside the record, never in it: a name may have routes and no record, and
   * {@link put} leaves them as they are.
   */
  getRoutes(name: string): Promise<Route[]>;
  /**
   * Replaces the routes of `name` with `update(current)`, atomically (also
   * against other processes sharing the store): an update computed from a list
   * that changed meanwhile is computed again. An empty result removes them.
   * Durable on resolve; resolves with the new list. For a shared store the
   * change is announced like a record's (see {@link changes}).
   */
  updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]>;
  /**
   * The value of the per-name setting `kind` of `name` (settings/name-settings.ts;
   * `undefined` when it has none). Kept beside the record like routes, never in
   * it: {@link put} leaves it as it is.
   */
  getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined>;
  /**
   * Sets (or, with `undefined` or a value that holds nothing, removes) the setting
   * `kind` of `name`; resolves whether it had one before. Durable on resolve; for
   * a shared store the change is announced like a record's (see {@link changes}).
   */
  setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean>;
  /** The names that hold the setting `kind`, in ascending name order, in the range of `options`. */
  settingNames(kind: SettingKind, options?: RouteNamesOptions): Promise<string[]>;
  /** Records in ascending name order, paginated by cursor, optionally only those with a name prefix. */
  list(options: ListOptions): Promise<ListPage>;
  /**
   * The names that have routes, in ascending name order (like {@link list}), each
   * with its route count and whether it has a record too.
   */
  routeNames(options?: RouteNamesOptions): Promise<RoutedName[]>;
  /** How many records there are (with the name prefix, when given). */
  count(options?: CountOptions): Promise<number>;
  /** Removes every record, every route and every per-name setting. */
  clear(): Promise<void>;
  /**
   * Where the names this store holds are counted for a cap (name-ledger.ts), when
   * several processes share the store (Redis): one claim is one atomic step
   * across them. A store without it is counted in the process that writes it.
   */
  nameLedger?(): NameLedger;
  /** The store's state; a store without the method is always `ok`. */
  health?(): StoreHealth;
  /**
   * Writes made by other processes, for a store shared between several (Redis).
   * A store without it is only written through this process.
   */
  readonly changes?: StoreChanges;
  /** Releases the store's resources. Further calls reject. */
  close(): Promise<void>;
}

/**
 * Runs `task` after every earlier task for the same key has settled, so that a
 * check-then-write on one name is atomic within a process.
 */
export class KeyedMutex {
  /** The last task of each key: made by the first and dropped with the last (a namespace's parts hold none between writes). */
  #tails: Map<string, Promise<unknown>> | undefined;

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails?.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails ??= new Map();
    this.#tails.set(key, tail);
    void tail.then(() => {
      const tails = this.#tails;
      if (tails?.get(key) !== tail) return;
      tails.delete(key);
      if (tails.size === 0) this.#tails = undefined;
    });
    return result;
  }
}
