/**
 * What a twin's flows derive from its whole state (the index a list across repositories or a
 * search reads a page of: #86 H2), made once while the name's collections stay as they are and
 * then read by every request. The memory and LevelDB stores hand out each collection's items as
 * one array until it changes (copy on write), so "as they are" is: every collection the same
 * array as when it was made. A change to any of them makes the next read build it again; a store
 * that reads its collections anew (Redis) builds it every time, as before.
 *
 * A build reads the whole state: it is admitted through the daemon's budget of expensive work
 * ({@link SCAN_ITEM_UNITS} an item), and requests that arrive while one is under way wait for
 * that one instead of building their own.
 *
 * @module
 */
import type { Collections } from '../collections/collection-store.js';
import { SCAN_ITEM_UNITS } from '../turns/work-budget.js';

/** Most values kept for one twin (each flow names a few). */
const MAX_KEPT = 16;

interface Kept {
  /** The collections it was made from. */
  sources: Collections;
  value: Promise<unknown>;
}

/** Whether `now` holds the same collections, each the same array, as `then`. */
function same(then: Collections, now: Collections): boolean {
  if (then.size !== now.size) return false;
  for (const [name, items] of now) if (then.get(name) !== items) return false;
  return true;
}

/** The values one twin derived from its state, by key. */
export class TwinDerived {
  readonly #kept = new Map<string, Kept>();

  /**
   * The value of `key` for `collections`: the one made already from these same collections, else
   * `build`'s, run through `admit` with the units of a scan of every item.
   */
  get<T>(
    key: string,
    collections: Collections,
    build: () => Promise<T>,
    admit: (units: number, work: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    const kept = this.#kept.get(key);
    if (kept !== undefined && same(kept.sources, collections)) return kept.value as Promise<T>;
    let items = 0;
    for (const list of collections.values()) items += list.length;
    const value = admit(items * SCAN_ITEM_UNITS, build);
    if (this.#kept.size >= MAX_KEPT && !this.#kept.has(key)) this.#kept.clear();
    const entry: Kept = { sources: collections, value };
    this.#kept.set(key, entry);
    // A build refused (the budget full) or failed is not kept: the next request tries again.
    value.catch(() => {
      if (this.#kept.get(key) === entry) this.#kept.delete(key);
    });
    return value;
  }
}
