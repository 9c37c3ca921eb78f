/**
 * Collection handles: what `api.collection('users')` returns. One collection
 * of one name, item by item, over the admin API's collection and item routes
 * (docs/state.md), typed by the item type the test gives.
 *
 * @module
 */
import {
  type ItemOptions,
  isMockpointError,
  type JsonText,
  type MergePatch,
  type MockpointClient,
} from '@mockpoint/core';

/**
 * One collection of a name, typed by its items' type `T`. Item writes change
 * the items, never the seed: `api.reset()` returns to the seed. Ids are the
 * items' `id` field (or the `idField` given to `api.collection()`), named as a
 * resource route's URL names them (`1` finds `1` and `"1"`). A {@link JsonText}
 * keeps an item's exact text (numbers a JavaScript number cannot hold).
 * @example
 * const users = api.collection<User>('users')
 * await users.replace([{ id: 1, name: 'Ada' }]) // the seed too
 * const grace = await users.insert({ name: 'Grace' }) // { name: 'Grace', id: 2 }
 * await users.update(grace.id, { role: 'admin' })
 * expect(await users.list()).toHaveLength(2)
 */
export interface CollectionHandle<T = Record<string, unknown>> {
  /** The endpoint name. */
  readonly name: string;
  /** The collection name. */
  readonly collection: string;
  /** The items, in order (`[]` when the collection does not exist). */
  list(): Promise<T[]>;
  /** The item whose id is `id`. @throws MockpointError `ITEM_NOT_FOUND` when there is none. */
  get(id: string | number): Promise<T>;
  /**
   * Adds an item at the end (making the collection), as a `POST` to a resource
   * route does: its own id when it has a truthy one, else the next one.
   * Resolves with the item as stored, its id given.
   * @throws MockpointError `ID_TAKEN`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
   */
  insert(item: Partial<T> | JsonText): Promise<T>;
  /**
   * Merges `patch` into the item whose id is `id` (JSON Merge Patch, RFC 7396:
   * nested objects merge, `null` removes a field); the id and every other field
   * keep their exact text. Resolves with the item as stored.
   * @throws MockpointError `ITEM_NOT_FOUND`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
   */
  update(id: string | number, patch: MergePatch<T> | JsonText): Promise<T>;
  /** Removes the item whose id is `id`. @throws MockpointError `ITEM_NOT_FOUND` when there is none. */
  remove(id: string | number): Promise<void>;
  /**
   * Replaces every item of the collection (a `PUT` of it), and **sets its seed**
   * to them: what `api.reset()` (and `resetBetweenTests`) returns to from now on.
   * Resolves with the items as stored.
   * @throws MockpointError `INVALID_COLLECTION`, `COLLECTION_TOO_LARGE`.
   */
  replace(items: readonly (T | JsonText)[]): Promise<T[]>;
}

/** The {@link CollectionHandle} implementation. */
class Collection<T> implements CollectionHandle<T> {
  readonly name: string;
  readonly collection: string;
  readonly #client: MockpointClient;
  readonly #options: ItemOptions;

  constructor(client: MockpointClient, name: string, collection: string, options: ItemOptions) {
    this.#client = client;
    this.name = name;
    this.collection = collection;
    this.#options = options;
  }

  async list(): Promise<T[]> {
    try {
      return (await this.#client.collection(this.name, this.collection)) as T[];
    } catch (error) {
      // A collection that does not exist lists as [], as a resource route lists it.
      if (isMockpointError(error) && error.code === 'COLLECTION_NOT_FOUND') return [];
      throw error;
    }
  }

  get(id: string | number): Promise<T> {
    return this.#client.item<T>(this.name, this.collection, id, this.#options);
  }

  insert(item: Partial<T> | JsonText): Promise<T> {
    return this.#client.insertItem<T>(this.name, this.collection, item, this.#options);
  }

  update(id: string | number, patch: MergePatch<T> | JsonText): Promise<T> {
    return this.#client.updateItem<T>(this.name, this.collection, id, patch, this.#options);
  }

  remove(id: string | number): Promise<void> {
    return this.#client.removeItem(this.name, this.collection, id, this.#options);
  }

  async replace(items: readonly (T | JsonText)[]): Promise<T[]> {
    return (await this.#client.setCollection(this.name, this.collection, items)) as T[];
  }

  /** What test reporters and `console.log` show. */
  toJSON(): { name: string; collection: string } {
    return { name: this.name, collection: this.collection };
  }
}

/** A handle for collection `collection` of `name`, bound to `client`. */
export function createCollectionHandle<T>(
  client: MockpointClient,
  name: string,
  collection: string,
  options: ItemOptions = {},
): CollectionHandle<T> {
  return new Collection<T>(client, name, collection, options);
}
