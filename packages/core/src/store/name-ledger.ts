/**
 * The names a namespace holds, counted for its cap (`MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE`):
 * a name counts from the first write that makes it hold anything — a record, routes, any
 * per-name setting (settings/name-settings.ts), collections, state — until the name is deleted (`DELETE /api/endpoints/{name}`) or everything is.
 * A claim is one atomic step: concurrent writes of new names never pass the cap.
 *
 * @module
 */
import { isValidName } from '../registry/rules.js';
import { SETTING_KINDS } from '../settings/name-settings.js';
import type { EndpointStore } from './store.js';

/** Which names count against a cap. */
export interface NameLedger {
  /**
   * Whether `name` may hold something: it counts already, or fewer than `max`
   * names do (then it counts from now on). One atomic step.
   */
  claim(name: string, max: number): Promise<boolean>;
  /** `name` holds nothing any more: it no longer counts. */
  release(name: string): Promise<void>;
  /**
   * `name` was just written: it counts (again), past `max` if need be. Only a ledger
   * shared by processes has it: a delete on another replica may have released the
   * name between this write's claim and the write itself.
   */
  keep?(name: string): Promise<void>;
  /** No name holds anything any more. */
  releaseAll(): Promise<void>;
}

/** Records read per page while the names are first read. */
const PAGE = 1000;

/** Every name `store` holds anything for (a record or any part beside it), in no order. */
export async function storeNames(store: EndpointStore): Promise<Set<string>> {
  const names = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = await store.list(after === undefined ? { limit: PAGE } : { limit: PAGE, after });
    for (const record of page.endpoints) names.add(record.name);
    if (page.next === null) break;
    after = page.next;
  }
  for (const { name } of await store.routeNames()) names.add(name);
  const parts = await Promise.all(SETTING_KINDS.map((kind) => store.settingNames(kind)));
  // A setting kept under a key no endpoint can have (a namespace's own, such as its chaos) is no name.
  for (const part of parts) for (const name of part) if (isValidName(name)) names.add(name);
  return names;
}

/**
 * A ledger in this process's memory, for a store only this process writes
 * (memory, LevelDB, a Durable Object): the names held are read once, on the
 * first claim; from then on a claim is a synchronous check-and-add.
 */
export class LocalNameLedger implements NameLedger {
  readonly #read: () => Promise<Iterable<string>>;
  #names: Promise<Set<string>> | undefined;

  /** `read` gives the names held when the ledger is first used. */
  constructor(read: () => Promise<Iterable<string>>) {
    this.#read = read;
  }

  async claim(name: string, max: number): Promise<boolean> {
    const names = await this.#held();
    if (names.has(name)) return true;
    if (names.size >= max) return false;
    names.add(name);
    return true;
  }

  async release(name: string): Promise<void> {
    (await this.#held()).delete(name);
  }

  async releaseAll(): Promise<void> {
    this.#names = Promise.resolve(new Set());
  }

  #held(): Promise<Set<string>> {
    if (this.#names === undefined) {
      const reading = this.#read().then((names) => new Set(names));
      // A failed read is tried again by the next claim.
      this.#names = reading;
      reading.catch(() => {
        if (this.#names === reading) this.#names = undefined;
      });
    }
    return this.#names;
  }
}
