/**
 * Collections as a client sends them (the admin API's bodies, a mock file's
 * `collections:`), checked once: names by the name rule, each collection a JSON
 * array of objects, and the limits of the settings table; and one item as a
 * write sends it (a resource route's or the item API's body). Every problem is
 * a {@link MockpointError} naming the collection and the item.
 *
 * @module
 */

import { JsonSyntaxError, scanJson } from '../codec/json-text.js';
import { MockpointError } from '../registry/errors.js';
import type { LimitOptions } from '../registry/limits.js';
import { COLLECTION_NAME, type Collections } from './collection-store.js';
import { collectionBytes, collectionText, type Item, itemBytes, itemOf, parseItem } from './item.js';

/** The limits a collection is held to. */
export type CollectionLimits = Required<Pick<LimitOptions, 'maxCollectionItems' | 'maxCollectionBytes'>>;

/** The name rule, as a sentence. */
export const COLLECTION_NAME_RULE = 'a collection name is 1-64 of A-Z a-z 0-9 _ -';

/** `collection`, checked against the name rule. @throws MockpointError `INVALID_COLLECTION` */
export function collectionName(collection: string): string {
  if (!COLLECTION_NAME.test(collection)) {
    throw new MockpointError('INVALID_COLLECTION', `${COLLECTION_NAME_RULE} (got ${JSON.stringify(collection)})`, {
      details: { collection },
    });
  }
  return collection;
}

/** The JSON text of every collection, by name in name order: `{"posts":[…],"users":[…]}`. */
export function collectionsText(collections: Collections): string {
  const names = [...collections.keys()].sort();
  return `{${names.map((name) => `${JSON.stringify(name)}:${collectionText(collections.get(name) ?? [])}`).join(',')}}`;
}

/**
 * Refuses `items` when they pass a limit; with `replace`, as they would be with
 * the item at `replace.at` replaced by `replace.item` (or `replace.item` added
 * at the end, when `at` is -1), without building that list.
 * @throws MockpointError `COLLECTION_TOO_LARGE`
 */
export function checkCollectionSize(
  collection: string,
  items: readonly Item[],
  limits: CollectionLimits,
  replace?: { at: number; item: Item },
): void {
  const count = items.length + (replace?.at === -1 ? 1 : 0);
  if (count > limits.maxCollectionItems) {
    throw new MockpointError(
      'COLLECTION_TOO_LARGE',
      `collection "${collection}" would hold ${count} items, more than the limit ${limits.maxCollectionItems} (MOCKPOINT_MAX_COLLECTION_ITEMS); nothing was changed`,
      { details: { collection } },
    );
  }
  let bytes = collectionBytes(items);
  if (replace !== undefined) {
    const old = items[replace.at];
    bytes +=
      old === undefined
        ? itemBytes(replace.item) + (items.length > 0 ? 1 : 0)
        : itemBytes(replace.item) - itemBytes(old);
  }
  if (bytes > limits.maxCollectionBytes) {
    throw new MockpointError(
      'COLLECTION_TOO_LARGE',
      `collection "${collection}" would hold about ${bytes} bytes of JSON, more than the limit ${limits.maxCollectionBytes} (MOCKPOINT_MAX_COLLECTION_BYTES); nothing was changed`,
      { details: { collection } },
    );
  }
}

/**
 * One item as a write sends it (a body's UTF-8 text): a JSON object, kept as
 * its exact text; an empty body is `{}` (as json-server takes it).
 * @throws MockpointError `INVALID_JSON`, `INVALID_ITEM`
 */
export function parseItemBody(text: string): Item {
  const parsed = parseItem(text.trim() === '' ? '{}' : text);
  if (!('problem' in parsed)) return parsed;
  throw parsed.problem === 'not-json'
    ? new MockpointError('INVALID_JSON', `the body is not valid JSON: ${parsed.message}`)
    : new MockpointError('INVALID_ITEM', `the body is not an item: ${parsed.message}`);
}

/**
 * One collection from its JSON text (an array of objects).
 * @throws MockpointError `INVALID_COLLECTION` (`details.index` names the item), `COLLECTION_TOO_LARGE`
 */
export function parseCollection(collection: string, text: string, limits: CollectionLimits): Item[] {
  collectionName(collection);
  let elements: string[] | undefined;
  try {
    elements = scanJson(text).elements;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new MockpointError('INVALID_COLLECTION', `collection "${collection}" is not valid JSON: ${error.message}`, {
      details: { collection },
    });
  }
  if (elements === undefined) {
    throw new MockpointError('INVALID_COLLECTION', `collection "${collection}" must be a JSON array of objects`, {
      details: { collection },
    });
  }
  const items = elements.map((element, index) => {
    if (!element.startsWith('{')) {
      throw new MockpointError(
        'INVALID_COLLECTION',
        `collection "${collection}", item ${index}: an item is a JSON object ({…}), with its id as one of its fields`,
        { details: { collection, index } },
      );
    }
    return itemOf(element);
  });
  checkCollectionSize(collection, items, limits);
  return items;
}

/** Every collection of an object's members (collection name → its JSON text). */
export function parseCollections(members: ReadonlyMap<string, string>, limits: CollectionLimits): Map<string, Item[]> {
  const collections = new Map<string, Item[]>();
  for (const [collection, text] of members) collections.set(collection, parseCollection(collection, text, limits));
  return collections;
}
