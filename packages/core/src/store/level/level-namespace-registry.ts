/**
 * The namespace registry on a LevelDB data directory: one key per namespace
 * (`\u0003namespace:<name>`, its {@link namespaceEntryJson} text), written
 * through the store's fsync'd group commit, and held in memory, loaded whole at
 * open (one process owns the directory, so what it holds is what is there).
 *
 * @module
 */
import type { WriteLog } from '../change-gate.js';
import {
  decodeNamespaceEntry,
  MapNamespaceRegistry,
  type NamespaceCreated,
  type NamespaceEntry,
  type NamespaceRegistry,
  namespaceEntryJson,
} from '../namespaces.js';
import { KeyedMutex } from '../store.js';

/**
 * Every write goes to the log before it is taken in memory, except a use:
 * `touch` takes `usedAt` in memory at once (what `get` and `list` return) and
 * writes it through; a write the store refuses then (degraded, see
 * LevelStore) is not the caller's failure — the use stays in memory and the
 * next touch writes it, so only a restart before that loses it.
 */
export class LevelNamespaceRegistry extends MapNamespaceRegistry implements NamespaceRegistry {
  readonly #log: WriteLog;
  /** Per name (delete, touch). */
  readonly #locks = new KeyedMutex();
  /** The names of the creates whose room is taken and whose write is under way. */
  readonly #writing = new Set<string>();
  /** Keys found at open that are not a namespace (damaged): skipped. */
  readonly unreadableAtOpen: readonly string[];

  private constructor(log: WriteLog, entries: Iterable<readonly [string, string]>) {
    super();
    this.#log = log;
    const unreadable: string[] = [];
    for (const [name, text] of entries) {
      try {
        const entry = decodeNamespaceEntry(text);
        if (entry.name !== name) throw new TypeError('not its key');
        this.entries.set(name, entry);
      } catch {
        unreadable.push(name);
      }
    }
    this.unreadableAtOpen = unreadable;
  }

  /** Loads every entry `log` holds (LevelStore.namespaceLog()). */
  static async open(log: WriteLog): Promise<LevelNamespaceRegistry> {
    return new LevelNamespaceRegistry(log, await log.load());
  }

  create(entry: NamespaceEntry, max: number): Promise<NamespaceCreated> {
    return this.createAll([entry], max);
  }

  async createAll(entries: readonly NamespaceEntry[], max: number): Promise<NamespaceCreated> {
    // The names and the count are checked and the room taken in one synchronous step; the entries
    // are then one write, which concurrent creates' writes join (the group commit's one fsync).
    if (entries.some(({ name }) => this.entries.has(name) || this.#writing.has(name))) return 'exists';
    if (this.entries.size + this.#writing.size + entries.length > max) return 'full';
    for (const { name } of entries) this.#writing.add(name);
    try {
      const copies = entries.map((entry) => ({ ...entry }));
      await this.#log.write(copies.map((copy) => ({ key: copy.name, value: namespaceEntryJson(copy) })));
      for (const copy of copies) this.entries.set(copy.name, copy);
      return 'created';
    } finally {
      for (const { name } of entries) this.#writing.delete(name);
    }
  }

  async delete(name: string): Promise<boolean> {
    return this.#locks.run(name, async () => {
      if (!this.entries.has(name)) return false;
      await this.#log.write([{ key: name, value: undefined }]);
      this.entries.delete(name);
      return true;
    });
  }

  async touch(name: string, at: number): Promise<void> {
    const entry = this.entries.get(name);
    if (entry === undefined || at <= entry.usedAt) return;
    entry.usedAt = at;
    await this.#locks.run(name, async () => {
      // Written as it is by then (a later touch may have moved it on); nothing when deleted meanwhile.
      const now = this.entries.get(name);
      if (now !== entry) return;
      await this.#log.write([{ key: name, value: namespaceEntryJson(now) }]).catch(() => undefined);
    });
  }
}
