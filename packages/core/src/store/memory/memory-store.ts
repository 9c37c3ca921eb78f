/**
 * An in-memory {@link EndpointStore}: for tests, `createMockServer()` and `--memory`.
 *
 * @module
 */

import { decodeRoutes, decodeRoutesInTurns, type Route, routesJsonInTurns } from '../../api/route.js';
import type { EndpointRecord, ListPage } from '../../api/schemas.js';
import { JsonText } from '../../codec/json-text.js';
import { MockpointError } from '../../registry/errors.js';
import type { SettingKind, SettingValue, StoredSetting } from '../../settings/name-settings.js';
import { decodeSetting, encodeSetting, SETTING_KINDS } from '../../settings/name-settings.js';
import { SLICED_ROUTES_CHARS, TurnBudget } from '../../turns/turn-budget.js';
import type { EndpointStore, ListOptions, RoutedName, RouteNamesOptions, RoutesUpdate } from '../store.js';
import { inNameRange, routeCount } from '../store.js';

/** A record's own copy; a {@link JsonText} is immutable and shared, a plain value is cloned. */
function copy(record: EndpointRecord): EndpointRecord {
  const data = record.data instanceof JsonText ? record.data : structuredClone(record.data);
  return { name: record.name, data, statusCode: record.statusCode, delay: record.delay };
}

/** What a setting kind no name has holds: nothing. */
const NO_TEXTS: ReadonlyMap<string, string> = new Map();

/** Keeps records in a `Map` (never a plain object: names like `__proto__` are ordinary). */
export class MemoryStore implements EndpointStore {
  readonly kind = 'memory';
  readonly #records = new Map<string, EndpointRecord>();
  /** Route lists as their stored text, so no caller shares (or mutates) what is kept. */
  readonly #routes = new Map<string, string>();
  /** The update of each name under way: the next waits for it. */
  readonly #routeUpdates = new Map<string, Promise<Route[]>>();
  /**
   * Each per-name setting's values by name, as their stored text, for the same reason; a kind's
   * map made by its first value (a namespace's store is made per test session, and most hold none).
   */
  readonly #settings: Partial<Record<SettingKind, Map<string, string>>> = {};
  #closed = false;

  async get(name: string): Promise<EndpointRecord | undefined> {
    this.#assertOpen();
    const record = this.#records.get(name);
    return record && copy(record);
  }

  async create(record: EndpointRecord): Promise<boolean> {
    this.#assertOpen();
    if (this.#records.has(record.name)) return false;
    this.#records.set(record.name, copy(record));
    return true;
  }

  async put(record: EndpointRecord): Promise<{ created: boolean }> {
    this.#assertOpen();
    const created = !this.#records.has(record.name);
    this.#records.set(record.name, copy(record));
    return { created };
  }

  async delete(name: string): Promise<boolean> {
    this.#assertOpen();
    let had = this.#routes.delete(name);
    for (const kind of SETTING_KINDS) had = this.#settings[kind]?.delete(name) === true || had;
    return this.#records.delete(name) || had;
  }

  async getRoutes(name: string): Promise<Route[]> {
    this.#assertOpen();
    const text = this.#routes.get(name);
    if (text === undefined) return [];
    return text.length >= SLICED_ROUTES_CHARS ? decodeRoutesInTurns(text, new TurnBudget()) : decodeRoutes(text);
  }

  async updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    this.#assertOpen();
    // One update of a name at a time (each may take several turns): concurrent writers wait their
    // turn instead of computing again, so none is refused however many there are.
    const before = this.#routeUpdates.get(name) ?? Promise.resolve();
    const run = before.then(
      () => this.#updateRoutes(name, update),
      () => this.#updateRoutes(name, update),
    );
    this.#routeUpdates.set(name, run);
    try {
      return await run;
    } finally {
      if (this.#routeUpdates.get(name) === run) this.#routeUpdates.delete(name);
    }
  }

  async #updateRoutes(name: string, update: RoutesUpdate): Promise<Route[]> {
    this.#assertOpen();
    // A long list is decoded and written a slice per event-loop turn: optimistic, like a
    // shared store, the update is computed again when the list changed meanwhile (a delete or a
    // clear: updates of the name wait for each other).
    for (let attempt = 0; attempt < 100; attempt++) {
      const text = this.#routes.get(name);
      const budget = new TurnBudget();
      let now: Route[] = [];
      if (text !== undefined) {
        now = text.length >= SLICED_ROUTES_CHARS ? await decodeRoutesInTurns(text, budget) : decodeRoutes(text);
      }
      if (this.#routes.get(name) !== text) continue;
      const next = update(now);
      const written = next.length === 0 ? undefined : await routesJsonInTurns(next, budget);
      if (this.#routes.get(name) !== text) continue;
      if (written === undefined) this.#routes.delete(name);
      else this.#routes.set(name, written);
      return next;
    }
    throw new MockpointError('STORE_UNAVAILABLE', `the routes of "${name}" kept changing under this update; retry`);
  }

  async getSetting<K extends SettingKind>(kind: K, name: string): Promise<StoredSetting<K> | undefined> {
    this.#assertOpen();
    const text = this.#settings[kind]?.get(name);
    return text === undefined ? undefined : decodeSetting(kind, text);
  }

  async setSetting<K extends SettingKind>(kind: K, name: string, value: SettingValue<K> | undefined): Promise<boolean> {
    const text = encodeSetting(kind, value);
    let part = this.#settings[kind];
    if (part === undefined) {
      // A removal from a kind no name holds: nothing to remove.
      if (text === undefined) {
        this.#assertOpen();
        return false;
      }
      part = new Map();
      this.#settings[kind] = part;
    }
    return this.#setPart(part, name, text);
  }

  async settingNames(kind: SettingKind, options: RouteNamesOptions = {}): Promise<string[]> {
    return this.#namesOf(this.#settings[kind] ?? NO_TEXTS, options);
  }

  /** Sets (`text` given) or removes a name's part kept in `part`; whether the name had one. */
  #setPart(part: Map<string, string>, name: string, text: string | undefined): boolean {
    this.#assertOpen();
    const had = part.has(name);
    if (text === undefined) part.delete(name);
    else part.set(name, text);
    return had;
  }

  /** The names that hold a part kept in `part` (a setting's values), in the range of `options`. */
  #namesOf(part: ReadonlyMap<string, string>, options: RouteNamesOptions): string[] {
    this.#assertOpen();
    const names = [...part.keys()].filter((name) => inNameRange(name, options)).sort();
    return names.slice(0, options.limit);
  }

  async list({ limit, after, prefix = '' }: ListOptions): Promise<ListPage> {
    this.#assertOpen();
    const names = [...this.#records.keys()]
      .filter((n) => (after === undefined || n > after) && n.startsWith(prefix))
      .sort();
    const page = names.slice(0, limit);
    const endpoints = page.map((n) => copy(this.#records.get(n) as EndpointRecord));
    const next = names.length > limit ? (page.at(-1) ?? null) : null;
    return { endpoints, next };
  }

  async routeNames(options: RouteNamesOptions = {}): Promise<RoutedName[]> {
    this.#assertOpen();
    const names = [...this.#routes.keys()].filter((name) => inNameRange(name, options)).sort();
    return names.slice(0, options.limit).map((name) => ({
      name,
      routes: routeCount(this.#routes.get(name) as string),
      record: this.#records.has(name),
    }));
  }

  async count({ prefix = '' }: { prefix?: string } = {}): Promise<number> {
    this.#assertOpen();
    let n = 0;
    for (const name of this.#records.keys()) if (name.startsWith(prefix)) n++;
    return n;
  }

  async clear(): Promise<void> {
    this.#assertOpen();
    this.#records.clear();
    this.#routes.clear();
    for (const kind of SETTING_KINDS) this.#settings[kind]?.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #assertOpen(): void {
    if (this.#closed) throw new MockpointError('STORE_UNAVAILABLE', 'the memory store is closed');
  }
}
