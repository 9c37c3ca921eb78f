/**
 * Item operations on one collection (docs/state.md): read one, create, replace
 * (PUT), merge (PATCH, RFC 7396) and remove, by id. What a resource route and
 * the admin API's `…/collections/{collection}/items` both do: each write is one
 * atomic {@link CollectionStore.update} (the id check and the write are one
 * step, the size limits checked before anything changes), and each refusal a
 * coded {@link MockpointError} (`ITEM_NOT_FOUND`, `ID_TAKEN`, `COLLECTION_TOO_LARGE`).
 * Writes change the items, never the seed.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';
import { type CollectionLimits, checkCollectionSize } from './collection-input.js';
import type { CollectionStore } from './collection-store.js';
import { type Item, indexOfId, insertItem, patchItem, replaceItem } from './item.js';

/** One collection of one name in a store, the field that holds its items' ids, and the limits it is held to. */
export interface ItemPlace {
  readonly store: CollectionStore;
  /** The endpoint name. */
  readonly name: string;
  readonly collection: string;
  /** `id` unless the resource (or the request) names another. */
  readonly idField: string;
  readonly limits: CollectionLimits;
}

function itemNotFound(place: ItemPlace, id: string): MockpointError {
  return new MockpointError(
    'ITEM_NOT_FOUND',
    `collection "${place.collection}" of "${place.name}" has no item whose ${place.idField} is ${JSON.stringify(id)}`,
    { details: { collection: place.collection, id } },
  );
}

/**
 * The item of `items` (the collection of `place` as read) whose id is `id`.
 * @throws MockpointError `ITEM_NOT_FOUND`
 */
export function findItem(place: ItemPlace, items: readonly Item[], id: string): Item {
  const item = items[indexOfId(items, place.idField, id)];
  if (item === undefined) throw itemNotFound(place, id);
  return item;
}

/**
 * The item whose id is `id`, as stored (a collection that does not exist has none).
 * @throws MockpointError `ITEM_NOT_FOUND`
 */
export async function getItem(place: ItemPlace, id: string): Promise<Item> {
  const items = (await place.store.get(place.name)).get(place.collection) ?? [];
  return findItem(place, items, id);
}

/**
 * Adds `body` at the end of the collection (creating it), with its own id when
 * it has a truthy one, else the next one; resolves with the item as stored.
 * @throws MockpointError `ID_TAKEN`, `COLLECTION_TOO_LARGE`
 */
export function createItem(place: ItemPlace, body: Item): Promise<Item> {
  const { idField, collection, name } = place;
  return place.store.update(name, collection, (current) => {
    const items = current ?? [];
    const inserted = insertItem(items, body, idField);
    if ('problem' in inserted) {
      throw new MockpointError(
        'ID_TAKEN',
        `collection "${collection}" of "${name}" has an item whose ${idField} is ${JSON.stringify(inserted.id)} already; leave ${idField} out to get a new one`,
        { details: { collection, id: inserted.id } },
      );
    }
    checkCollectionSize(collection, items, place.limits, { at: -1, item: inserted.item });
    return { edit: { append: inserted.item }, result: inserted.item };
  });
}

/**
 * Replaces the item whose id is `id` by `body` (`replace`, the id kept) or
 * merges `body` into it (`merge`, RFC 7396; every other field keeps its text);
 * resolves with the item as stored.
 * @throws MockpointError `ITEM_NOT_FOUND`, `COLLECTION_TOO_LARGE`
 */
export function updateItem(place: ItemPlace, id: string, body: Item, how: 'replace' | 'merge'): Promise<Item> {
  const { idField } = place;
  return place.store.update(place.name, place.collection, (current) => {
    const items = current ?? [];
    const at = indexOfId(items, idField, id);
    const old = items[at];
    if (old === undefined) throw itemNotFound(place, id);
    const next = how === 'merge' ? patchItem(old, body, idField) : replaceItem(old, body, idField);
    checkCollectionSize(place.collection, items, place.limits, { at, item: next });
    return { edit: { set: at, item: next }, result: next };
  });
}

/**
 * Removes the item whose id is `id`.
 * @throws MockpointError `ITEM_NOT_FOUND`
 */
export function removeItem(place: ItemPlace, id: string): Promise<void> {
  return place.store.update(place.name, place.collection, (current) => {
    const at = indexOfId(current ?? [], place.idField, id);
    if (at === -1) throw itemNotFound(place, id);
    return { edit: { remove: at }, result: undefined };
  });
}
