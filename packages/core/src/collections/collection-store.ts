/**
 * The collections part of the backend: each endpoint's named collections of
 * items, and their seed (what a reset returns to). Changes to one endpoint's
 * collections run one after another (a POST's id check and its insert are one
 * step), and a change is acknowledged only once it is written.
 *
 * @module
 */
import type { Item } from './item.js';

/** Collection names: like endpoint names, so that they fit a URL and a storage key as they are. */
export const COLLECTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Refuses a collection name outside {@link COLLECTION_NAME} (a store's own check; the API's is `INVALID_COLLECTION`). */
export function checkCollectionName(collection: string): void {
  if (!COLLECTION_NAME.test(collection)) {
    throw new TypeError(`collection names are 1-64 of A-Z a-z 0-9 _ - (got ${JSON.stringify(collection)})`);
  }
}

/** An endpoint's collections: collection name → its items, in order. */
export type Collections = ReadonlyMap<string, readonly Item[]>;

/**
 * What a change does to one collection. `put` replaces every item (creating
 * the collection); `append` adds one at the end; `set` replaces the item at an
 * index where it stands; `remove` takes out the item at an index.
 */
export type Edit = { put: readonly Item[] } | { append: Item } | { set: number; item: Item } | { remove: number };

/** What a change function returns: the edit to make (none: nothing changes) and the result to resolve with. */
export interface Change<T> {
  edit?: Edit;
  result: T;
}

/** What {@link CollectionStore.update} runs: the collection's items as they are (undefined: none) → what to do. */
export type ChangeFn<T> = (items: readonly Item[] | undefined) => Change<T>;

export interface CollectionStore {
  /** `memory`, `level`, `redis`, … */
  readonly kind: string;
  /** The collections of `name` as they are (an empty map when it has none). */
  get(name: string): Promise<Collections>;
  /**
   * Changes collection `collection` of `name`: `change` sees its items as they
   * are (undefined when there is no such collection) and says what to do. Changes
   * to one name never interleave; the promise resolves once the edit is written.
   * On a shared store `change` runs again when another replica changed the
   * collection meanwhile: it must not do anything but compute.
   */
  update<T>(name: string, collection: string, change: ChangeFn<T>): Promise<T>;
  /** Replaces every collection of `name` by `collections`, which become its seed too. */
  seed(name: string, collections: Collections): Promise<void>;
  /**
   * Replaces one collection of `name` by `items`, which become its seed too
   * (`undefined` removes the collection and its seed); the others stay as they are.
   */
  seedOne(name: string, collection: string, items: readonly Item[] | undefined): Promise<void>;
  /** The seed of `name` (an empty map when none was set). */
  getSeed(name: string): Promise<Collections>;
  /** Returns the collections of `name` to its seed. */
  reset(name: string): Promise<void>;
  /** Forgets the collections and the seed of `name`; whether it had any. */
  delete(name: string): Promise<boolean>;
  /** The names that have collections or a seed, in any order. */
  names(): Promise<string[]>;
  /** Forgets every name's. */
  clear(): Promise<void>;
}
