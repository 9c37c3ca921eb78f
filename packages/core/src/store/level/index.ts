/**
 * A durable {@link EndpointStore} on LevelDB (the `level` package), which also
 * keeps the parts of the backend that are durable here — outgoing deliveries,
 * collections and state ({@link LevelStore.openDeliveries},
 * {@link LevelStore.openCollections}, {@link LevelStore.openStates}) — each in a
 * key range of its own. A namespace's store is a view of it
 * ({@link LevelStore.namespace}): the same database, every key prefixed. Node
 * only: import it from `@mockpoint/core/level` so the main entry stays
 * runtime-agnostic.
 *
 * @module
 */
import { readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Level } from 'level';
import { decodeRoutes, decodeRoutesInTurns, type Route, routesJsonInTurns } from '../../api/route.js';
import type { EndpointRecord, ListPage } from '../../api/schemas.js';
import { MockpointError } from '../../registry/errors.js';
import type { SettingKind, SettingValue, StoredSetting } from '../../settings/name-settings.js';
import { decodeSetting, encodeSetting, NAME_SETTINGS, SETTING_KINDS } from '../../settings/name-settings.js';
import { SLICED_ROUTES_CHARS, TurnBudget } from '../../turns/turn-budget.js';
import type { WriteLog } from '../change-gate.js';
import { type CollectionLog, MemoryCollectionStore } from '../memory/memory-collection-store.js';
import { type DeliveryBackend, MemoryDeliveryStore } from '../memory/memory-delivery-store.js';
import { MemoryStateStore } from '../memory/memory-state-store.js';
import type { DropOptions } from '../namespaces.js';
import { decodeRecord, encodeRecord } from '../record-codec.js';
import type {
  CountOptions,
  EndpointStore,
  ListOptions,
  RoutedName,
  RouteNamesOptions,
  RoutesUpdate,
  StoreHealth,
} from '../store.js';
import { inNameRange, KeyedMutex, routeCount } from '../store.js';
import { type Grouped, groupCommit, groupHas, type Operation } from './grouped.js';
import { checkLogs } from './log-check.js';
import { PROBE_FILE, probeSpace, reopenBytes } from './space-probe.js';
import { checkTables, type DamagedTable } from './table-check.js';

export { type LevelBackendOptions, levelBackend } from './backend.js';
export { type RepairResult, repairLevelStore } from './repair.js';
export type { DamagedTable } from './table-check.js';

/** Options for {@link LevelStore.open}. */
export interface LevelStoreOptions {
  /** Directory of the database; created when missing. */
  dir: string;
  /**
   * fsync every write before it resolves, so an acknowledged write survives a crash.
   * @default true
   */
  sync?: boolean;
  /**
   * After a failed write, the longest wait between two checks for the free space a
   * reopen needs (the checks start sooner and back off to this).
   * @default 1000
   */
  probeIntervalMs?: number;
}

/** The first check for space after a failed write comes this soon; later ones back off. */
const FIRST_PROBE_MS = 100;

/** Files that only LevelDB writes: a directory holding any of them is a database. */
const LEVEL_FILE = /^(CURRENT|MANIFEST-\d+|\d+\.(log|ldb|sst))$/;

/** What to do with a directory that cannot be opened as it is. */
const RESTORE_HINT =
  'nothing was changed; restore it from a backup, or move its files away to start with an empty store';

function damaged(dir: string, what: string, cause?: unknown): MockpointError {
  return new MockpointError('DATA_DIR_DAMAGED', `data directory ${dir} ${what}; ${RESTORE_HINT}`, { cause });
}

/**
 * Opens the database in `dir` without ever replacing what is there: a directory
 * that holds LevelDB files must open as it is (no `CURRENT` means no database
 * can be found, and LevelDB would otherwise start an empty one and delete the
 * old tables).
 */
async function openDb(dir: string): Promise<Level<string, string>> {
  let files: string[] = [];
  try {
    files = (await readdir(dir)).filter((name) => LEVEL_FILE.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeUnavailable(dir, error);
  }
  const existing = files.length > 0;
  if (existing && !files.includes('CURRENT')) {
    throw damaged(
      dir,
      `holds LevelDB files (${files.slice(0, 3).join(', ')}…) but no CURRENT file, so it cannot be opened`,
    );
  }
  const db = new Level<string, string>(dir, {
    keyEncoding: 'utf8',
    valueEncoding: 'utf8',
    createIfMissing: !existing,
  });
  try {
    await db.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new MockpointError('DATA_DIR_LOCKED', `data directory ${dir} is in use by another mockpoint process`, {
        cause: error,
      });
    }
    const reason = String(cause?.message ?? (error as Error).message).replace(/\s+/g, ' ');
    // A directory that already held a database and fails to open (corrupt, or
    // CURRENT naming a missing MANIFEST) gets the same restore hint.
    if (existing) throw damaged(dir, `cannot be opened as it is (${reason})`, error);
    throw storeUnavailable(dir, error, reason);
  }
  return db;
}

function storeUnavailable(dir: string, error: unknown, reason = (error as Error).message): MockpointError {
  return new MockpointError('STORE_UNAVAILABLE', `cannot open the data directory ${dir}: ${reason}`, { cause: error });
}

/** The key range of names starting with `prefix` (and after `after`, when given). */
function prefixRange(prefix: string, after: string | undefined): { gt?: string; gte?: string; lt?: string } {
  const range: { gt?: string; gte?: string; lt?: string } = {};
  if (after !== undefined && after >= prefix) range.gt = after;
  else if (prefix !== '') range.gte = prefix;
  // Records only: every name sorts at or after `-`, route lists (ROUTES_KEY) before it.
  else range.gte = FIRST_NAME;
  // Names are ASCII: the prefix with its last character incremented bounds the range.
  if (prefix !== '') range.lt = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return range;
}

/**
 * Every write is fsync'd before it resolves, with concurrent writes sharing one
 * fsync (group commit); a create checks and writes under a per-name lock.
 *
 * A write that fails (a full disk, an I/O error) may leave a torn record in
 * LevelDB's log, after which LevelDB would drop later writes at the next open.
 * So after any failed write the store refuses writes (503 `STORE_UNAVAILABLE`)
 * until it has closed and reopened the database, which replays the log up to
 * the torn record and starts a new one. Reads go on meanwhile. The store heals
 * by itself: it checks for the space a reopen needs (soon, then backing off to
 * every `probeIntervalMs`), and reopens once that space is there — never
 * before, since a reopen that runs out of space would stop reads too.
 */
export class LevelStore implements EndpointStore {
  readonly kind = 'level';
  readonly dir: string;
  /**
   * Endpoint writes in the write-ahead log that could not be read when the store was
   * opened (damaged, or torn by a failed write); they were skipped.
   */
  readonly unreadableAtOpen: number;
  /**
   * Table files found damaged when the store was opened (their checksums or footer
   * do not verify): reads and writes of names in their key range fail until
   * `mockpoint repair` has set them aside.
   */
  readonly damagedTables: readonly DamagedTable[];
  #db: Level<string, string>;
  /**
   * Concurrent writes share one fsync (group commit); rebuilt with the database on reopen.
   * This and the other shared fields of a view are never read: it reads its base's.
   */
  #writes: Grouped<Operation | readonly Operation[], void>;
  /** Concurrent existence checks share one `hasMany`; rebuilt with the database on reopen. */
  #exists: Grouped<string, boolean>;
  readonly #sync: boolean;
  readonly #locks = new KeyedMutex();
  /** Why writes are refused, while they are. */
  #writeFailure: string | undefined;
  /** The first read that hit damaged data (the data stays damaged: kept until restart). */
  #readFailure: string | undefined;
  /** How many writes have failed, so a write can tell whether one failed while it ran. */
  #failures = 0;
  /** Why the last check for healing did not heal, while writes are refused. */
  #healing: string | undefined;
  #reopening: Promise<void> | undefined;
  #probeTimer: ReturnType<typeof setTimeout> | undefined;
  #probing: Promise<void> | undefined;
  #probeDelayMs = FIRST_PROBE_MS;
  readonly #probeIntervalMs: number;
  /** Closed: the database (the root), or this namespace's view of it (a view). */
  #closed = false;
  /**
   * The store that owns the database (itself, for the default namespace): a
   * namespace's view reads its database, group commit, existence checks, locks
   * and write-failure state at call time, since a reopen replaces them.
   */
  readonly #base: LevelStore;
  /** What every key of this namespace starts with (`\u0004<name>\u0000`; none for the default namespace). */
  readonly #prefix: string;
  /** The first key after every key of this namespace (`\u0004<name>\u0001`; none for the default namespace). */
  readonly #end: string | undefined;
  /** A namespace's name (a view), else `undefined`. */
  readonly #namespace: string | undefined;
  /**
   * The root's: namespaces whose range is known to hold no key (dropped, nothing written in them
   * since), oldest first, at most {@link KNOWN_EMPTY_MAX}. A view of one reads no range of it: a
   * new session's app opens, and counts its names, without a read of the disk.
   */
  readonly #emptyRanges = new Set<string>();
  /** The root's: the namespaces being dropped now, each `true` once a view has written in it meanwhile. */
  readonly #dropping = new Map<string, boolean>();

  private constructor(
    db: Level<string, string>,
    options: LevelStoreOptions,
    unreadable: number,
    damagedTables: readonly DamagedTable[],
    view?: { base: LevelStore; namespace: string },
  ) {
    this.#base = view?.base ?? this;
    this.#namespace = view?.namespace;
    this.#prefix = view === undefined ? '' : namespacePrefix(view.namespace);
    this.#end = view === undefined ? undefined : namespaceEnd(view.namespace);
    this.#db = db;
    this.dir = options.dir;
    this.#sync = options.sync ?? true;
    this.#writes = groupCommit(db, this.#sync);
    this.#exists = groupHas(db);
    this.#probeIntervalMs = options.probeIntervalMs ?? 1000;
    this.unreadableAtOpen = unreadable;
    this.damagedTables = damagedTables;
  }

  /**
   * Opens (or creates) the database in `options.dir`.
   * @throws MockpointError `DATA_DIR_LOCKED` when another process holds the directory;
   *   `DATA_DIR_DAMAGED` when it holds LevelDB files that cannot be opened as they are.
   * @example const store = await LevelStore.open({ dir: './data' })
   */
  static async open(options: LevelStoreOptions): Promise<LevelStore> {
    const { unreadable } = await checkLogs(options.dir);
    // A space check cut short by a crash leaves its file behind.
    await unlink(join(options.dir, PROBE_FILE)).catch(() => undefined);
    // Before the open, while LevelDB writes nothing here; tables it drops at open as
    // obsolete (e.g. half-written by a crash mid-compaction) are not reported.
    const damaged = await checkTables(options.dir);
    const db = await openDb(options.dir);
    const live = new Set(await readdir(options.dir).catch(() => []));
    return new LevelStore(
      db,
      options,
      unreadable,
      damaged.filter((table) => live.has(table.file)),
    );
  }

  /**
   * Namespace `name`'s view of this store: the same database, group commit,
   * locks and health, with every key the default namespace would use prefixed
   * by `\u0004<name>\u0000` (see {@link namespacePrefix}), so it sees no key
   * of the default namespace's or any other's, and they none of its. Closing a
   * view closes only the view (its calls reject from then on), never the database.
   * @throws TypeError on a view (namespaces do not nest) or a name outside the endpoint-name rule.
   */
  namespace(name: string): LevelStore {
    this.#checkNamespace(name);
    const options = { dir: this.dir, sync: this.#sync, probeIntervalMs: this.#probeIntervalMs };
    return new LevelStore(this.#db, options, this.unreadableAtOpen, this.damagedTables, {
      base: this,
      namespace: name,
    });
  }

  /**
   * Removes every key of namespace `name` (the range `\u0004<name>\u0000` up to
   * `\u0004<name>\u0001`, so not those of a namespace whose name starts with it),
   * durably unless `durable` is false (then a later synced write usually makes it durable,
   * though not across LevelDB's switch to a new log, which closes the old one unsynced);
   * its views must be closed first (their parts in memory would stay).
   */
  async dropNamespace(name: string, { durable = true, unused = false }: DropOptions = {}): Promise<void> {
    // A name drawn at random a moment ago holds no key: nothing to read, nothing to clear.
    if (unused) {
      this.#checkNamespace(name);
      this.#knownEmpty(name);
      return;
    }
    const view = this.namespace(name);
    const range = { gte: view.#prefix, lt: view.#end };
    // A namespace that wrote nothing (a new name, a session that only read) costs no clear and no fsync.
    // A write in it while this runs (a view not yet closed, against the rule) keeps it from being known empty.
    this.#dropping.set(name, false);
    let written: boolean | undefined;
    try {
      // Known empty (nothing written through a view since it was): no read of the disk for a
      // session's delete. A durable drop (before a namespace of a chosen name is made) looks all
      // the same: a write in flight at an earlier delete may have landed after it.
      if (durable || !this.#emptyRanges.has(name)) {
        // Not durable: cleared at once (an empty range's clear reads what a look for a key would, and
        // a session's delete has keys to clear). Durable: looked at first, so an empty one costs no fsync.
        // Cleared through the root, so that it counts as no write in the namespace.
        if (!durable) await this.#clearRange(false, range);
        else if ((await this.#read(() => this.#db.keys({ ...range, limit: 1 }).all())).length > 0) {
          await this.#clearRange(durable, range);
        }
      }
    } finally {
      written = this.#dropping.get(name);
      this.#dropping.delete(name);
    }
    // A new namespace of this name need not read its ranges until it writes.
    if (written === true) return;
    this.#knownEmpty(name);
  }

  /** @throws TypeError on a view (namespaces do not nest) or a name outside the endpoint-name rule. */
  #checkNamespace(name: string): void {
    if (this.#base !== this) throw new TypeError('a namespace has no namespaces');
    if (!NAMESPACE_NAME.test(name)) throw new TypeError(`not a namespace name: ${JSON.stringify(name)}`);
  }

  /** Notes namespace `name`'s range as holding no key (the oldest such note goes past the bound). */
  #knownEmpty(name: string): void {
    this.#emptyRanges.delete(name);
    this.#emptyRanges.add(name);
    if (this.#emptyRanges.size > KNOWN_EMPTY_MAX)
      this.#emptyRanges.delete(this.#emptyRanges.values().next().value as string);
  }

  /**
   * The namespace registry's log (store/namespaces.ts): the keys
   * `\u0003namespace:<name>` of the default namespace, each an entry's JSON.
   * @throws TypeError on a view.
   */
  namespaceLog(): WriteLog {
    if (this.#base !== this) throw new TypeError('a namespace has no namespaces');
    return this.#rangeLog(NAMESPACE_FIRST, NAMESPACE_END);
  }

  /** This namespace's key for the default namespace's `key`. */
  #key(key: string): string {
    return this.#prefix + key;
  }

  /**
   * This namespace's range for a range of the default namespace's keys: each
   * bound prefixed, a missing lower or upper one set to the namespace's own.
   */
  #range<R extends { gt?: string; gte?: string; lt?: string }>(range: R): R {
    if (this.#base === this) return range;
    const out = { ...range };
    if (range.gt !== undefined) out.gt = this.#prefix + range.gt;
    else out.gte = this.#prefix + (range.gte ?? '');
    out.lt = range.lt === undefined ? this.#end : this.#prefix + range.lt;
    return out;
  }

  health(): StoreHealth {
    if (this.#base !== this) return this.#base.health();
    if (this.#writeFailure !== undefined) return { status: 'degraded', reason: this.#refusal() };
    if (this.damagedTables.length > 0)
      return { status: 'degraded', reason: damagedTablesReason(this.dir, this.damagedTables) };
    if (this.#readFailure !== undefined) return { status: 'degraded', reason: this.#readFailure };
    return { status: 'ok' };
  }

  async get(name: string): Promise<EndpointRecord | undefined> {
    const text = await this.#read(() => this.#base.#db.get(this.#key(name)));
    return text === undefined ? undefined : this.#decode(name, text);
  }

  async create(record: EndpointRecord): Promise<boolean> {
    // LevelDB has no put-if-absent; one process owns the directory (LOCK file), so a
    // per-name lock in this process makes the check and the write one step.
    const key = this.#key(record.name);
    return this.#base.#locks.run(key, async () => {
      await this.#writable();
      if ((await this.#read(() => this.#base.#exists.run(key))) === true) return false;
      await this.#write(() => this.#base.#writes.run({ type: 'put', key, value: encodeRecord(record) }));
      return true;
    });
  }

  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    const key = this.#key(record.name);
    return this.#base.#locks.run(key, async () => {
      await this.#writable();
      const existed = await this.#read(() => this.#base.#exists.run(key));
      await this.#write(() => this.#base.#writes.run({ type: 'put', key, value: encodeRecord(record) }));
      return { created: !existed };
    });
  }

  async delete(name: string): Promise<boolean> {
    const parts = [name, routesKey(name), ...SETTING_KINDS.map((kind) => settingKey(kind, name))];
    const had = await Promise.all(parts.map((part) => this.#setPart(part, undefined)));
    return had.includes(true);
  }

  async getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    const text = await this.#read(() => this.#base.#db.get(this.#key(settingKey(kind, name))));
    if (text === undefined) return undefined;
    try {
      return decodeSetting(kind, text);
    } catch (error) {
      this.#base.#readFailure ??= `the stored ${NAME_SETTINGS[kind].label} of "${name}" is damaged and cannot be read`;
      throw new MockpointError('STORE_UNAVAILABLE', this.#base.#readFailure, { cause: error });
    }
  }

  async setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean> {
    return this.#setPart(settingKey(kind, name), encodeSetting(kind, value));
  }

  async settingNames(kind: SettingKind, options: RouteNamesOptions = {}): Promise<string[]> {
    return this.#namesOf((name) => settingKey(kind, name), options);
  }

  /** Sets (`text` given) or removes the part stored at `key` (a record's, a setting's); whether there was one. */
  async #setPart(part: string, text: string | undefined): Promise<boolean> {
    const key = this.#key(part);
    return this.#base.#locks.run(key, async () => {
      await this.#writable();
      const existed = await this.#read(() => this.#base.#exists.run(key));
      if (text !== undefined) await this.#write(() => this.#base.#writes.run({ type: 'put', key, value: text }));
      else if (existed) await this.#write(() => this.#base.#writes.run({ type: 'del', key }));
      return existed;
    });
  }

  async getRoutes(name: string): Promise<Route[]> {
    const text = await this.#read(() => this.#base.#db.get(this.#key(routesKey(name))));
    return text === undefined ? [] : this.#decodeRoutes(name, text, new TurnBudget());
  }

  async updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    const key = this.#key(routesKey(name));
    // One process owns the directory: a per-key lock makes the read and the write one step.
    return this.#base.#locks.run(key, async () => {
      await this.#writable();
      const text = await this.#read(() => this.#base.#db.get(key));
      // A long list is decoded and written a slice per event-loop turn (under the lock).
      const budget = new TurnBudget();
      const next = update(text === undefined ? [] : await this.#decodeRoutes(name, text, budget));
      const value = next.length === 0 ? undefined : await routesJsonInTurns(next, budget);
      await this.#write(() =>
        this.#base.#writes.run(value === undefined ? { type: 'del', key } : { type: 'put', key, value }),
      );
      return next;
    });
  }

  async #decodeRoutes(name: string, text: string, budget: TurnBudget): Promise<Route[]> {
    try {
      return text.length >= SLICED_ROUTES_CHARS ? await decodeRoutesInTurns(text, budget) : decodeRoutes(text);
    } catch (error) {
      this.#base.#readFailure ??= `the stored routes of "${name}" are damaged and cannot be read`;
      throw new MockpointError('STORE_UNAVAILABLE', this.#base.#readFailure, { cause: error });
    }
  }

  async list({ limit, after, prefix = '' }: ListOptions): Promise<ListPage> {
    const range = { ...this.#range(prefixRange(prefix, after)), limit: limit + 1 };
    const entries = await this.#scan(() => this.#base.#db.iterator(range).all());
    const page = entries.slice(0, limit).map(([key, value]) => this.#decode(key.slice(this.#prefix.length), value));
    const next = entries.length > limit ? (page.at(-1)?.name ?? null) : null;
    return { endpoints: page, next };
  }

  async routeNames(options: RouteNamesOptions = {}): Promise<RoutedName[]> {
    const start = this.#key(routesKey(''));
    const entries = await this.#scan(() =>
      this.#base.#db.iterator(this.#range(nameKeyRange(routesKey, options))).all(),
    );
    const out: RoutedName[] = [];
    for (const [key, text] of entries) {
      const name = key.slice(start.length);
      if (!inNameRange(name, options)) break;
      out.push({
        name,
        routes: routeCount(text),
        record: await this.#read(() => this.#base.#exists.run(this.#key(name))),
      });
    }
    return out;
  }

  /** The names that hold a part keyed by `keyOf` (a setting), in the range of `options`. */
  async #namesOf(keyOf: (name: string) => string, options: RouteNamesOptions): Promise<string[]> {
    const start = this.#key(keyOf(''));
    const keys = await this.#scan(() => this.#base.#db.keys(this.#range(nameKeyRange(keyOf, options))).all());
    const out: string[] = [];
    for (const key of keys) {
      const name = key.slice(start.length);
      if (!inNameRange(name, options)) break;
      out.push(name);
    }
    return out;
  }

  async count({ prefix = '' }: CountOptions = {}): Promise<number> {
    let n = 0;
    await this.#read(async () => {
      for await (const _ of this.#base.#db.keys(this.#range(prefixRange(prefix, undefined)))) n++;
    });
    return n;
  }

  async clear(): Promise<void> {
    // Only the endpoints' keys: the other parts' ranges are each cleared by that part
    // (collections, state, in step with what it holds in memory), or kept (deliveries
    // are not endpoints: a reset leaves them and their pending retries). Neither range
    // holds the namespaces' keys (`\u0003…`, `\u0004…`: after the parts, before names).
    await this.#clearRange(true, this.#range({ lt: PARTS_FIRST }), this.#range({ gte: FIRST_NAME }));
  }

  /**
   * Removes the keys in each of `ranges` (already this namespace's), `durable`ly:
   * LevelDB's clear writes without fsync, so a synced write after it (a delete of a
   * key no record has) makes the whole log durable before the clear is acknowledged.
   * Not `durable`: a later synced write of anything usually does that (not when LevelDB has
   * switched to a new log between them: the old one is closed unsynced).
   */
  async #clearRange(durable: boolean, ...ranges: { gte?: string; lt?: string }[]): Promise<void> {
    await this.#writable();
    await this.#write(async () => {
      for (const range of ranges) await this.#base.#db.clear(range);
      if (durable) await this.#base.#writes.run({ type: 'del', key: SYNC_MARK });
    });
  }

  /**
   * Outgoing deliveries kept in this database beside the endpoints (their keys
   * sort outside every record range), written through with the same fsync'd
   * group commit: an accepted delivery and its pending retries survive a crash.
   * Loaded whole at open: the deliveries kept are bounded.
   * @example createApp({ store, deliveries: await store.openDeliveries() })
   */
  async openDeliveries(): Promise<MemoryDeliveryStore> {
    const backend: DeliveryBackend = {
      kind: 'level',
      load: () => this.#scan(() => this.#base.#db.values(this.#range({ gte: DELIVERY_FIRST, lt: DELIVERY_END })).all()),
      write: async (changes) => {
        if (changes.length === 0) return;
        await this.#writable();
        await this.#write(() =>
          Promise.all(
            changes.map(({ id, text }) =>
              this.#base.#writes.run(
                text === undefined
                  ? { type: 'del', key: this.#key(`${DELIVERY_FIRST}${id}`) }
                  : { type: 'put', key: this.#key(`${DELIVERY_FIRST}${id}`), value: text },
              ),
            ),
          ),
        );
      },
    };
    return MemoryDeliveryStore.open({ backend });
  }

  /**
   * The collections of every endpoint (see collections/), kept in this database
   * beside the endpoints (their keys sort before every record) and written
   * through with the same fsync'd group commit, each change in one batch.
   * @example createApp({ backend: { ...backend, collections: await store.openCollections() } })
   */
  async openCollections(): Promise<MemoryCollectionStore> {
    return MemoryCollectionStore.open(this.#rangeLog(COLLECTION_FIRST, COLLECTION_END));
  }

  /**
   * The state machines (scenarios) of every endpoint (see state/), kept in this
   * database beside the endpoints (their keys sort before every record) and
   * written through with the same fsync'd group commit, each change in one batch.
   * @example createApp({ backend: { ...backend, states: await store.openStates() } })
   */
  async openStates(): Promise<MemoryStateStore> {
    return MemoryStateStore.open(this.#rangeLog(STATE_FIRST, STATE_END));
  }

  /**
   * A log over the keys from `first` (its prefix) up to `end`: loaded whole,
   * each write one fsync'd batch of the group commit, cleared as one range.
   */
  #rangeLog(first: string, end: string): CollectionLog {
    const range = this.#range({ gte: first, lt: end });
    const start = this.#key(first);
    const stored = (key: string) => `${start}${key}`;
    return {
      kind: 'level',
      load: async () => {
        const entries = await this.#scan(() => this.#base.#db.iterator(range).all());
        return entries.map(([key, value]) => [key.slice(start.length), value] as const);
      },
      write: async (changes) => {
        if (changes.length === 0) return;
        await this.#writable();
        const operations = changes.map(
          ({ key, value }): Operation =>
            value === undefined ? { type: 'del', key: stored(key) } : { type: 'put', key: stored(key), value },
        );
        await this.#write(() => this.#base.#writes.run(operations));
      },
      clear: () => this.#clearRange(true, range),
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#base !== this) return;
    clearTimeout(this.#probeTimer);
    await this.#probing?.catch(() => undefined);
    await this.#reopening?.catch(() => undefined);
    await this.#db.close();
  }

  /** What a refused write and `/api/health` say while writes are refused. */
  #refusal(): string {
    const every = this.#probeIntervalMs >= 1000 ? `${this.#probeIntervalMs / 1000} s` : `${this.#probeIntervalMs} ms`;
    return (
      `writes are refused since a write to the data directory failed (${this.#writeFailure})` +
      (this.#healing ? `; ${this.#healing}` : '') +
      `; free space on that disk (or fix it): the store checks every ${every} and takes writes again by itself, no restart needed`
    );
  }

  /** Waits for a reopen in progress; refuses while a failed write has not been healed. */
  async #writable(): Promise<void> {
    if (this.#base !== this) {
      this.#open();
      return this.#base.#writable();
    }
    await this.#reopening;
    if (this.#writeFailure !== undefined) throw new MockpointError('STORE_UNAVAILABLE', this.#refusal());
  }

  /** Records a failed write: writes are refused from now on, and the checks for healing start. */
  #failed(reason: string): void {
    this.#writeFailure ??= reason;
    this.#failures++;
    this.#scheduleProbe();
  }

  #scheduleProbe(): void {
    if (this.#closed || this.#probeTimer !== undefined || this.#probing !== undefined) return;
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = undefined;
      this.#probing = this.#probe().finally(() => {
        this.#probing = undefined;
        if (this.#writeFailure !== undefined) this.#scheduleProbe();
      });
    }, this.#probeDelayMs);
    this.#probeTimer.unref?.();
    this.#probeDelayMs = Math.min(this.#probeDelayMs * 2, this.#probeIntervalMs);
  }

  /** Reopens once the space a reopen needs has been proven free. */
  async #probe(): Promise<void> {
    if (this.#closed || this.#writeFailure === undefined) return;
    let bytes = 0;
    try {
      bytes = await reopenBytes(this.dir);
      await probeSpace(this.dir, bytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.#healing = `reopening it needs about ${formatBytes(bytes)} free there (${code})`;
      return;
    }
    if (this.#closed) return;
    this.#reopening = this.#reopen().finally(() => {
      this.#reopening = undefined;
    });
    await this.#reopening;
  }

  /** Closes and reopens the database, so LevelDB replays its log and starts a new one. */
  async #reopen(): Promise<void> {
    try {
      await this.#db.close();
      const db = await openLevel(this.dir);
      this.#db = db;
      this.#writes = groupCommit(db, this.#sync);
      this.#exists = groupHas(db);
      this.#writeFailure = undefined;
      this.#healing = undefined;
      this.#probeDelayMs = FIRST_PROBE_MS;
    } catch (error) {
      // The database stays closed (reads fail too) until a later check reopens it.
      this.#healing = `reopening it failed, so reads fail too until it works (${levelReason(error)})`;
    }
  }

  /** A read of a range of this view's: nothing, at once, while its range is known to hold no key. */
  async #scan<T>(operation: () => Promise<T[]>): Promise<T[]> {
    if (this.#namespace === undefined || !this.#base.#emptyRanges.has(this.#namespace)) return this.#read(operation);
    this.#open();
    return [];
  }

  /** Throws once this namespace's view is closed (the database's own close makes its calls fail). */
  #open(): void {
    if (this.#closed) {
      throw new MockpointError('STORE_UNAVAILABLE', `namespace "${this.#namespace}" of the LevelDB store is closed`);
    }
  }

  /** A stored record, or a 503 (and `degraded` health) when its bytes are damaged. */
  #decode(name: string, text: string): EndpointRecord {
    try {
      return decodeRecord(text);
    } catch (error) {
      this.#base.#readFailure ??= `the stored record "${name}" is damaged and cannot be read`;
      throw new MockpointError('STORE_UNAVAILABLE', `the stored record "${name}" is damaged and cannot be read`, {
        cause: error,
      });
    }
  }

  async #read<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#base !== this) {
      this.#open();
      return this.#base.#read(operation);
    }
    await this.#reopening;
    try {
      return await operation();
    } catch (error) {
      const message = (error as Error).message;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const corrupt = cause?.code === 'LEVEL_CORRUPTION' || /corrupt/i.test(`${message} ${cause?.message ?? ''}`);
      if (corrupt)
        this.#readFailure ??= `a read hit damaged data in the data directory: ${withoutPath(cause?.message ?? message, this.dir)}; ${repairHint()}`;
      const hint = corrupt || this.damagedTables.length > 0 ? `; ${repairHint()}` : '';
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `the LevelDB store failed: ${withoutPath(message, this.dir)}${hint}`,
        {
          cause: error,
        },
      );
    }
  }

  async #write<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#base !== this) {
      const name = this.#namespace as string;
      this.#base.#emptyRanges.delete(name);
      if (this.#base.#dropping.has(name)) this.#base.#dropping.set(name, true);
      return this.#base.#write(operation);
    }
    const failuresBefore = this.#failures;
    let result: T;
    try {
      result = await operation();
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause;
      const reason = withoutPath(String(cause?.message ?? (error as Error).message).replace(/\s+/g, ' '), this.dir);
      if (!this.#closed) this.#failed(reason);
      throw new MockpointError('STORE_UNAVAILABLE', `the LevelDB store failed to write: ${reason}`, {
        cause: error,
      });
    }
    // A write that overlapped a failed one may sit after its torn record in the
    // log, where the next open would drop it: it is not acknowledged either.
    if (this.#failures !== failuresBefore) {
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `the LevelDB store: another write failed meanwhile (${this.#writeFailure ?? 'see the log'}); this one is not acknowledged, retry it`,
      );
    }
    return result;
  }
}

/** How to get a store with damaged tables going again. */
export function repairHint(dir = '<its data directory>'): string {
  return `stop mockpoint and run \`mockpoint repair --data-dir ${dir}\`, which keeps every record that can still be read (see docs/reliability.md)`;
}

/** `text` (a LevelDB message) with the data directory's path left out: an API message names no file-system path. */
function withoutPath(text: string, dir: string): string {
  let out = text;
  for (const path of new Set([resolve(dir), dir])) if (path !== '') out = out.split(path).join('<data dir>');
  return out;
}

/** What health and the start-up warning say of damaged table files. */
export function damagedTablesReason(dir: string, tables: readonly DamagedTable[]): string {
  const list = tables.map((table) => `${table.file}: ${table.problem}`).join(', ');
  return `${tables.length} table file(s) in ${dir} are damaged (${list}): the records in them cannot be read, and reads and writes of names near them fail; ${repairHint(dir)}`;
}

/** A database that exists opened as it is (never created), or LevelDB's error. */
async function openLevel(dir: string): Promise<Level<string, string>> {
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8', createIfMissing: false });
  await db.open();
  return db;
}

/** LevelDB's own words for a failure, on one line. */
function levelReason(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause;
  return String(cause?.message ?? (error as Error).message).replace(/\s+/g, ' ');
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** The most namespaces {@link LevelStore} remembers as known to hold no key. */
const KNOWN_EMPTY_MAX = 1024;
/** A namespace's name: the endpoint-name rule, so it holds neither `\u0000` nor `\u0001`. */
const NAMESPACE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * The namespace registry's keys (store/namespaces.ts): `\u0003namespace:<name>`,
 * after the parts (`\u0002…`) and before every record (`-` on), so neither a
 * list, a count, a clear nor a part's range of the default namespace sees them.
 */
const NAMESPACE_FIRST = '\u0003namespace:';
/** The first key after every registry key. */
const NAMESPACE_END = '\u0003namespace;';

/**
 * What every key of namespace `name` starts with: `\u0004`, its name, `\u0000`
 * (then the key the default namespace would use). The `\u0000` ends the name, so
 * namespace `a`'s keys are not namespace `ab`'s; `\u0004` sorts after the
 * registry and before every record.
 */
function namespacePrefix(name: string): string {
  return `\u0004${name}\u0000`;
}

/** The first key after every key of namespace `name` (see {@link namespacePrefix}). */
function namespaceEnd(name: string): string {
  return `\u0004${name}\u0001`;
}

/** A key no endpoint can have (names are `A–Z a–z 0–9 _ -`); deleted to sync the log. */
const SYNC_MARK = '\u0000sync';
/**
 * The other parts kept here (collections, deliveries, state) have their keys from
 * here: after route lists and signatures (`\u0001…`), before every record (`-`
 * on), each part in a range of its own (`\u0002<part>:` up to `\u0002<part>;`).
 */
const PARTS_FIRST = '\u0002';
/** Collections are kept under this prefix: after route lists and signatures, before deliveries and records. */
const COLLECTION_FIRST = '\u0002collection:';
/** The first key after every collection key. */
const COLLECTION_END = '\u0002collection;';
/** Deliveries are kept under this prefix: after collections, before state and every record. */
const DELIVERY_FIRST = '\u0002delivery:';
/** The first key after every delivery key. */
const DELIVERY_END = '\u0002delivery;';
/** State (each endpoint's scenarios and their start) is kept under this prefix: after deliveries, before every record. */
const STATE_FIRST = '\u0002state:';
/** The first key after every state key. */
const STATE_END = '\u0002state;';
/** The smallest character a name can start with: records are the keys from here on. */
const FIRST_NAME = '-';

/**
 * The key range of the names whose part is keyed by `keyOf` (`\u0001routes:`, `\u0001graphql:`, …) in the
 * range of `options`: from the prefix (or past `after`), up to the next key kind (`;` follows `:`). Names
 * with the prefix are contiguous from the range's start, so the first `limit` keys hold them.
 */
function nameKeyRange(
  keyOf: (name: string) => string,
  options: RouteNamesOptions,
): { gt?: string; gte?: string; lt: string; limit?: number } {
  const range: { gt?: string; gte?: string; lt: string; limit?: number } = {
    gte: keyOf(options.prefix ?? ''),
    lt: `${keyOf('').slice(0, -1)};`,
  };
  if (options.after !== undefined && keyOf(options.after) >= (range.gte as string)) {
    delete range.gte;
    range.gt = keyOf(options.after);
  }
  if (options.limit !== undefined) range.limit = options.limit;
  return range;
}

/**
 * The key of a name's setting `kind` (settings/name-settings.ts): `\u0001<key>:<name>`, so like a
 * route list's it sorts before every record.
 */
function settingKey(kind: SettingKind, name: string): string {
  return `\u0001${NAME_SETTINGS[kind].key}:${name}`;
}

/** The key of a name's route list: it sorts before every record, so lists and counts never see it. */
function routesKey(name: string): string {
  return `\u0001routes:${name}`;
}
