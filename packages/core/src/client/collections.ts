/**
 * The collection methods of the client: a name's collections and their items.
 *
 * @module
 */
import type { JsonText } from '../codec/json-text.js';
import type { ItemOptions, MergePatch } from './client.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function collectionMethods({ call, json }: Transport) {
  const collectionsOf = (name: string): Promise<Record<string, unknown[]>> =>
    json('GET', `/api/endpoints/${seg(name)}/collections`);
  return {
    /**
     * Every collection of `name` (`{}` when none), items parsed (use
     * {@link collectionText} for their exact text). See docs/state.md.
     */
    getCollections: collectionsOf,

    /** @deprecated Use {@link getCollections}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    collections: collectionsOf,

    /**
     * Replaces every collection of `name`; what is set is also the seed that
     * {@link resetEndpoint} returns to. Items are JSON objects (a {@link JsonText}
     * keeps an item's exact text). Resolves with the collections as stored.
     * @throws MockpointError `INVALID_COLLECTION`, `COLLECTION_TOO_LARGE`.
     * @example await client.setCollections('api', { users: [{ id: 1, name: 'Ada' }] })
     */
    setCollections(name: string, collections: Record<string, readonly unknown[]>): Promise<Record<string, unknown[]>> {
      return json('PUT', `/api/endpoints/${seg(name)}/collections`, collections);
    },

    /** The items of one collection of `name`, in order; throws `COLLECTION_NOT_FOUND` when there is none. */
    collection(name: string, collection: string): Promise<unknown[]> {
      return json('GET', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`);
    },

    /** One collection's items as their exact JSON text (big integers, key order as stored). */
    async collectionText(name: string, collection: string): Promise<string> {
      return (await call('GET', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`)).text();
    },

    /** Replaces (or creates) one collection of `name`, which becomes its seed too; the others stay. */
    setCollection(name: string, collection: string, items: readonly unknown[]): Promise<unknown[]> {
      return json('PUT', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`, items);
    },

    /** Removes one collection of `name` and its seed; throws `COLLECTION_NOT_FOUND` when there is none. */
    async removeCollection(name: string, collection: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/collections/${seg(collection)}`);
    },

    /**
     * One item of a collection of `name`, by id (as a resource route's URL names
     * it: `1` finds `1` and `"1"`), parsed (use {@link itemText} for its exact
     * text); `idField` names the field that holds the ids when it is not `id`.
     * @throws MockpointError `ITEM_NOT_FOUND`.
     * @example const user = await client.item<User>('api', 'users', 1)
     */
    item<T = unknown>(name: string, collection: string, id: string | number, options: ItemOptions = {}): Promise<T> {
      return json('GET', itemPath(name, collection, id, options));
    },

    /** One item's exact JSON text (big integers, key order as stored). @throws MockpointError `ITEM_NOT_FOUND`. */
    async itemText(name: string, collection: string, id: string | number, options: ItemOptions = {}): Promise<string> {
      return (await call('GET', itemPath(name, collection, id, options))).text();
    },

    /**
     * Adds an item at the end of a collection of `name` (making the collection),
     * as a `POST` to a resource route does: its own id when it has a truthy one,
     * else the next one. The seed stays (a reset takes the item away). A
     * {@link JsonText} keeps the item's exact text. Resolves with the item as stored.
     * @throws MockpointError `ID_TAKEN`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
     * @example const { id } = await client.insertItem<User>('api', 'users', { name: 'Grace' })
     */
    insertItem<T = unknown>(
      name: string,
      collection: string,
      item: Partial<NoInfer<T>> | JsonText,
      options: ItemOptions = {},
    ): Promise<T> {
      return json('POST', itemPath(name, collection, undefined, options), item);
    },

    /**
     * Replaces the item whose id is `id` by `item` (the id kept); the seed stays.
     * @throws MockpointError `ITEM_NOT_FOUND`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
     */
    replaceItem<T = unknown>(
      name: string,
      collection: string,
      id: string | number,
      item: Partial<NoInfer<T>> | JsonText,
      options: ItemOptions = {},
    ): Promise<T> {
      return json('PUT', itemPath(name, collection, id, options), item);
    },

    /**
     * Merges `patch` into the item whose id is `id` (JSON Merge Patch, RFC 7396:
     * nested objects merge, `null` removes a field); the id and every field the
     * patch leaves alone keep their exact text. The seed stays.
     * @throws MockpointError `ITEM_NOT_FOUND`, `INVALID_ITEM`, `COLLECTION_TOO_LARGE`.
     * @example await client.updateItem<User>('api', 'users', 1, { role: 'admin' })
     */
    updateItem<T = unknown>(
      name: string,
      collection: string,
      id: string | number,
      patch: MergePatch<NoInfer<T>> | JsonText,
      options: ItemOptions = {},
    ): Promise<T> {
      return json('PATCH', itemPath(name, collection, id, options), patch);
    },

    /** Removes the item whose id is `id`; the seed stays. @throws MockpointError `ITEM_NOT_FOUND`. */
    async removeItem(name: string, collection: string, id: string | number, options: ItemOptions = {}): Promise<void> {
      await call('DELETE', itemPath(name, collection, id, options));
    },
  };
}

/** The admin path of a collection's items (no id) or of one item, with its `idField` query. */
function itemPath(name: string, collection: string, id: string | number | undefined, options: ItemOptions): string {
  const seg = encodeURIComponent;
  const items = `/api/endpoints/${seg(name)}/collections/${seg(collection)}/items`;
  const query = options.idField === undefined ? '' : `?idField=${seg(options.idField)}`;
  return `${id === undefined ? items : `${items}/${seg(String(id))}`}${query}`;
}
