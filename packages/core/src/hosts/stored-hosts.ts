/**
 * The hosts mapped through the API, kept in the store (durable like a GraphQL
 * schema: written before they are acknowledged, removed with the name and by a
 * reset) and mirrored in the {@link HostTable} every request reads. At start the
 * table is filled from the store; on a shared store (Redis) a change another
 * replica announces for a name reloads that name's hosts, and a possibly missed
 * change (a clear, a dropped subscription) reloads them all.
 *
 * @module
 */

import type { HostEntry, HostMove } from '../pattern/host-mapping.js';
import type { EndpointStore } from '../store/store.js';
import { KeyedMutex } from '../store/store.js';
import type { HostTable } from './host-table.js';

/** One lock for every host write and reload: which host is whose is checked across names. */
const ALL = '';

export class StoredHosts {
  readonly #table: HostTable;
  readonly #store: EndpointStore;
  readonly #lock = new KeyedMutex();
  /** A reload failed: the next change reloads every name. */
  #stale = false;
  #loaded = false;
  /** Resolves once the table holds what the store held at start; rejects when the store could not be read. */
  readonly ready: Promise<void>;

  /** `empty`: the store is known to hold no host mapping (a namespace's made a moment ago): none is read. */
  constructor(table: HostTable, store: EndpointStore, empty = false) {
    this.#table = table;
    this.#store = store;
    store.changes?.subscribe((name) => void this.#changed(name));
    if (empty) {
      this.#loaded = true;
      this.ready = Promise.resolve();
      return;
    }
    this.ready = this.#lock.run(ALL, () => this.#loadAll());
    // Whoever starts serving awaits it; nobody else must see an unhandled rejection.
    this.ready.then(
      () => {
        this.#loaded = true;
      },
      () => {
        // A store that could not be read whole: serve what there is; the next change reloads every name.
        this.#stale = true;
        this.#loaded = true;
      },
    );
  }

  /** Whether {@link ready} has settled (resolved, or rejected: then the table waits for the next change). */
  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * Replaces the hosts the API gave `name`: checked against the table, written
   * to the store, and only then put in the table (see {@link HostTable.check}).
   */
  set(name: string, hosts: readonly string[]): Promise<HostEntry[]> {
    return this.#lock.run(ALL, async () => {
      await this.#fresh();
      const patterns = this.#table.check(name, hosts);
      await this.#write(name, patterns);
      return this.#table.hostsOf(name);
    });
  }

  /**
   * As {@link set}, but a host the API gave another name moves to `name` (the
   * settings' are still refused): each name it leaves is written without it
   * first, so a crash between the writes leaves the host unmapped, never with
   * the name it left. Answers the hosts of `name` and the moves.
   */
  take(name: string, hosts: readonly string[]): Promise<{ hosts: HostEntry[]; moved: HostMove[] }> {
    return this.#lock.run(ALL, async () => {
      // Checked and moved against what the store holds, not a table a failed read left short.
      await this.#fresh();
      const patterns = this.#table.check(name, hosts, { move: true });
      const moved: HostMove[] = [];
      for (const host of patterns) {
        const held = this.#table.held(host);
        if (held !== undefined && held.name !== name) moved.push({ host, from: held.name, to: name });
      }
      const taken = new Set(moved.map((move) => move.host));
      for (const from of new Set(moved.map((move) => move.from))) {
        // From the store, not the table: a pattern it keeps but the table left out (the settings hold it) stays kept.
        const kept = ((await this.#store.getSetting('hosts', from)) ?? []).filter((host) => !taken.has(host));
        await this.#write(from, kept);
      }
      await this.#write(name, patterns);
      return { hosts: this.#table.hostsOf(name), moved };
    });
  }

  /**
   * When the store could not be read whole (at start, or a write or reload that
   * failed), reads every name's hosts again before a write checks against the
   * table: else a host another name holds in the store would be given twice, and
   * the next full reload would keep it for whichever name sorts first. A store
   * still unreadable refuses the write (its error).
   */
  async #fresh(): Promise<void> {
    if (this.#stale) await this.#loadAll();
  }

  /** Writes `patterns` as the hosts of `name` to the store, then to the table. */
  async #write(name: string, patterns: readonly string[]): Promise<void> {
    try {
      await this.#store.setSetting('hosts', name, patterns);
    } catch (error) {
      // A write that failed may still have landed: the next change reloads every name.
      this.#stale = true;
      throw error;
    }
    this.#table.load(name, patterns);
  }

  /** Removes the hosts the API gave `name`, from the store first. */
  remove(name: string): Promise<void> {
    return this.set(name, []).then(() => undefined);
  }

  /** `name` was deleted (its hosts with it, in the store): drop them from the table. */
  forget(name: string): Promise<void> {
    return this.#lock.run(ALL, async () => {
      this.#table.clearHosts(name);
    });
  }

  /** Every name was cleared in the store: drop every API mapping from the table. */
  forgetAll(): Promise<void> {
    return this.#lock.run(ALL, async () => {
      this.#table.clearAll();
    });
  }

  async #changed(name: string | undefined): Promise<void> {
    try {
      await this.#lock.run(ALL, async () => {
        if (name === undefined || this.#stale) return this.#loadAll();
        // A host another name held here may have moved: then read every name.
        if (!this.#table.load(name, (await this.#store.getSetting('hosts', name)) ?? [])) await this.#loadAll();
      });
    } catch {
      // The store is unreachable: its return is announced as a change of everything.
      this.#stale = true;
    }
  }

  /** Reads every name's hosts, then swaps them into the table at once (names in order: the first keeps a host two claim). */
  async #loadAll(): Promise<void> {
    const loaded: Array<[string, string[]]> = [];
    let after: string | undefined;
    // Bounded: each round reads the next page of names, and stops at a short one.
    for (;;) {
      const names = await this.#store.settingNames(
        'hosts',
        after === undefined ? { limit: 500 } : { limit: 500, after },
      );
      for (const name of names) loaded.push([name, (await this.#store.getSetting('hosts', name)) ?? []]);
      if (names.length < 500) break;
      after = names.at(-1);
    }
    this.#table.clearAll();
    for (const [name, patterns] of loaded) this.#table.load(name, patterns);
    this.#stale = false;
  }
}
