/**
 * One item of a collection: a JSON object kept as its exact text (as `data`
 * is), with the value parsed from it for matching and sorting only. What an
 * item answers with is always its text; its parsed value (whose numbers beyond
 * double precision are rounded) only decides which items answer and in what order.
 *
 * @module
 */

import { JsonSyntaxError, scanJson } from '../codec/json-text.js';
import { parseSliced } from '../codec/sliced-json.js';
import { utf8Length } from '../codec/utf8-length.js';
import type { Edit } from './collection-store.js';
import { mergePatchText, objectText } from './merge-patch.js';

/**
 * An item: its exact, minified JSON text (an object) and the value parsed from it. A large item's
 * value may be a new object in a later turn (parsed again when nothing held it): never change it.
 */
export interface Item {
  readonly text: string;
  readonly value: Readonly<Record<string, unknown>>;
}

/** Why a text is not an item. */
export type ItemProblem = { problem: 'not-json'; message: string } | { problem: 'not-object'; message: string };

/** `text` as an item, or why it is not one (not JSON, or JSON but not an object). */
export function parseItem(text: string): Item | ItemProblem {
  let scanned: ReturnType<typeof scanJson>;
  try {
    scanned = scanJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { problem: 'not-json', message: error.message };
    throw error;
  }
  if (scanned.members === undefined) {
    return { problem: 'not-object', message: 'an item is a JSON object ({…}), with its id as one of its fields' };
  }
  return itemOf(scanned.text);
}

/**
 * Texts from this many UTF-16 units up are parsed when their value is read, and
 * the value is held only while something uses it: a large item is kept once
 * (its text), not twice, and its parse is paid by the reads that need it.
 */
export const LAZY_ITEM_CHARS = 256 * 1024;

/**
 * A large item: its text held, its value parsed on demand and kept weakly; the value's long
 * strings are slices of the text (sliced-json.ts), so a read does not copy a 4 MB field again.
 */
class LargeItem implements Item {
  #value: WeakRef<Readonly<Record<string, unknown>>> | undefined;
  constructor(readonly text: string) {}
  get value(): Readonly<Record<string, unknown>> {
    let value = this.#value?.deref();
    if (value === undefined) {
      value = parseSliced(this.text) as Record<string, unknown>;
      this.#value = new WeakRef(value);
    }
    return value;
  }
}

/** The item of text known to be a minified JSON object. */
export function itemOf(text: string): Item {
  if (text.length >= LAZY_ITEM_CHARS) return new LargeItem(text);
  return { text, value: JSON.parse(text) as Record<string, unknown> };
}

/**
 * The item of a text read back from a store: a large one is checked whole here as well, so that
 * a store damaged under the daemon fails as it is opened or read, as before, and not at the first
 * filter that reads the item's value; then held as {@link itemOf} holds it.
 */
export function storedItemOf(text: string): Item {
  if (text.length >= LAZY_ITEM_CHARS) JSON.parse(text);
  return itemOf(text);
}

/** The items of a stored collection's JSON text (an array of objects, as {@link collectionText} writes it). */
export function itemsOf(arrayText: string): Item[] {
  return (scanJson(arrayText).elements ?? []).map(itemOf);
}

/** The JSON text of `items`, as one array: what is stored and answered. */
export function collectionText(items: readonly Item[]): string {
  return `[${items.map((item) => item.text).join(',')}]`;
}

/**
 * `text` (an object) with member `key` set to `value` (JSON text) where it
 * stands, added at the end when absent, or removed when `value` is undefined.
 * Every other member keeps its text.
 */
export function withMember(text: string, key: string, value: string | undefined): string {
  const { members, keyTexts } = scanJson(text);
  const result = new Map<string, [string, string]>();
  for (const [k, v] of members ?? []) result.set(k, [keyTexts?.get(k) ?? JSON.stringify(k), v]);
  if (value === undefined) result.delete(key);
  else result.set(key, [result.get(key)?.[0] ?? JSON.stringify(key), value]);
  return objectText(result.values());
}

/** The text of member `key` of `text` (an object), as written; undefined when absent. */
export function memberText(text: string, key: string): string | undefined {
  return scanJson(text).members?.get(key);
}

/** The item's own field `field` (never one of its prototype's, such as `constructor`); undefined when absent. */
export function ownField(item: Item, field: string): unknown {
  return Object.hasOwn(item.value, field) ? item.value[field] : undefined;
}

/**
 * The id of `item` as the text a URL names it by: a number by its JSON text
 * (exact beyond 2^53: `12345678901234567891`, not its rounded double), anything
 * else as JavaScript's `String()` gives it (json-server's `toString()`);
 * undefined when it has none (or `null`).
 */
export function idText(item: Item, idField: string): string | undefined {
  const cached = idTexts.get(item);
  if (cached?.field === idField) return cached.text;
  const own = ownField(item, idField);
  const text =
    own === undefined || own === null
      ? undefined
      : typeof own === 'number'
        ? memberText(item.text, idField)
        : String(own);
  idTexts.set(item, { field: idField, text });
  return text;
}

/**
 * Each item's id text for the id field last asked: an item never changes, so
 * the scan of its text for a numeric id is paid once, not on every write's
 * pass over the collection (the next id, the id index).
 */
const idTexts = new WeakMap<Item, { field: string; text: string | undefined }>();

/** Each item's size in UTF-8 bytes, measured once (see {@link itemBytes}). */
const sizes = new WeakMap<Item, number>();

/** The size of `item`'s text in UTF-8 bytes. */
export function itemBytes(item: Item): number {
  let size = sizes.get(item);
  if (size === undefined) {
    size = utf8Length(item.text);
    sizes.set(item, size);
  }
  return size;
}

/**
 * Each collection's ids as text → the index of the first item with that id, by
 * the items array (a store hands out the same array until the collection
 * changes) and the id field: built on the first lookup, so reads find an item
 * at once and a write pays one pass, as a scan would.
 */
const idIndexes = new WeakMap<readonly Item[], Map<string, Map<string, number>>>();

/** The index of the item whose id is `id`, or -1 (`items` is never changed in place: see {@link idIndexes}). */
export function indexOfId(items: readonly Item[], idField: string, id: string): number {
  let byField = idIndexes.get(items);
  if (byField === undefined) {
    byField = new Map();
    idIndexes.set(items, byField);
  }
  let index = byField.get(idField);
  if (index === undefined) {
    index = new Map();
    for (let i = 0; i < items.length; i++) {
      const key = idText(items[i] as Item, idField);
      if (key !== undefined && !index.has(key)) index.set(key, i);
    }
    byField.set(idField, index);
  }
  return index.get(id) ?? -1;
}

const INTEGER = /^-?\d+$/;

/**
 * The id a new item gets, as JSON text: `1` in an empty collection; one more
 * than the greatest id when that is a number (exactly, for integers of any
 * size); else a random UUID (where json-server makes a 7-character nanoid).
 */
export function nextId(items: readonly Item[], idField: string): string {
  if (items.length === 0) return '1';
  const maxIndex = greatestId(items, idField);
  const max = maxIndex === -1 ? undefined : ownField(items[maxIndex] as Item, idField);
  if (typeof max === 'number' && Number.isFinite(max)) {
    const text = idText(items[maxIndex] as Item, idField) as string;
    return INTEGER.test(text) ? String(BigInt(text) + 1n) : String(max + 1);
  }
  return JSON.stringify(crypto.randomUUID());
}

/**
 * The index of the item with the greatest id as lodash's maxBy finds it
 * (json-server's rule): `>` over the ids that are set, left to right, the first
 * of equals kept; two integers compared exactly (as BigInt from their text),
 * where doubles could not tell them apart. -1 when no item has an id. Kept per
 * items array and carried to the array an edit makes ({@link applyEdit}).
 */
function greatestId(items: readonly Item[], idField: string): number {
  const known = greatest.get(items);
  if (known?.field === idField) return known.index;
  let index = -1;
  for (let i = 0; i < items.length; i++) index = greaterOf(items, index, i, idField);
  greatest.set(items, { field: idField, index });
  return index;
}

/** Of the items at `best` (-1: none yet) and `i`, the index of the one maxBy keeps. */
function greaterOf(items: readonly Item[], best: number, i: number, idField: string): number {
  const item = items[i] as Item;
  const id = ownField(item, idField);
  if (id === undefined || id === null) return best;
  if (best === -1) return i;
  const other = items[best] as Item;
  return greater(item, id, other, ownField(other, idField), idField) ? i : best;
}

const greatest = new WeakMap<readonly Item[], { field: string; index: number }>();

/** The UTF-8 bytes of `items` as one JSON array ({@link collectionText}), kept per array as {@link greatestId} is. */
export function collectionBytes(items: readonly Item[]): number {
  let bytes = totals.get(items);
  if (bytes === undefined) {
    bytes = 2 + Math.max(0, items.length - 1);
    for (const item of items) bytes += itemBytes(item);
    totals.set(items, bytes);
  }
  return bytes;
}

const totals = new WeakMap<readonly Item[], number>();

/**
 * Where `after` (a put's items) keeps `before` from some index on, in order, the same items, with
 * only new ones after them, as a rolling collection's put does (events, idempotency answers: the
 * oldest dropped, the newest appended): that index, and the items added. `undefined` for any other
 * put. Compared by identity, one pass over `before`: a store writes only what changed.
 */
export function keptRun(
  before: readonly Item[],
  after: readonly Item[],
): { from: number; added: readonly Item[] } | undefined {
  const from = after.length === 0 || before.length === 0 ? before.length : before.indexOf(after[0] as Item);
  if (from === -1) return undefined;
  const kept = before.length - from;
  if (kept > after.length) return undefined;
  for (let i = from; i < before.length; i++) if (after[i - from] !== before[i]) return undefined;
  return { from, added: after.slice(kept) };
}

/**
 * `items` after `edit`, as a new array (`items` is never changed: readers keep
 * theirs). What is known of `items` (its size, its greatest id) is carried to
 * the new array where the edit allows, so a write does not pay a pass over the
 * collection for them.
 */
export function applyEdit(items: readonly Item[], edit: Edit): readonly Item[] {
  const bytes = totals.get(items);
  let after: Item[];
  if ('put' in edit) {
    after = edit.put.slice();
    // A rolling put (the oldest dropped, the newest added): its size from the known one, not a pass over all.
    const run = bytes === undefined ? undefined : keptRun(items, edit.put);
    if (run !== undefined && bytes !== undefined) {
      let size = bytes;
      for (let i = 0; i < run.from; i++) size -= itemBytes(items[i] as Item) + 1;
      for (const item of run.added) size += itemBytes(item) + 1;
      // The commas: one fewer than the items (the count above took one per item).
      size += (items.length > 0 ? 1 : 0) - (after.length > 0 ? 1 : 0);
      totals.set(after, size);
    }
    return after;
  }
  const known = greatest.get(items);
  if ('append' in edit) {
    // concat, with and toSpliced copy once at memory speed; a spread, or a slice then push, costs 100 times more.
    after = items.concat([edit.append]);
    if (bytes !== undefined) totals.set(after, bytes + itemBytes(edit.append) + (items.length > 0 ? 1 : 0));
    if (known !== undefined) {
      greatest.set(after, { field: known.field, index: greaterOf(after, known.index, items.length, known.field) });
    }
    return after;
  }
  if ('set' in edit) {
    const old = items[edit.set];
    if (old === undefined) return items.slice(); // no item there: nothing to replace
    after = items.with(edit.set, edit.item);
    if (bytes !== undefined) totals.set(after, bytes - itemBytes(old) + itemBytes(edit.item));
    // The same id where it stood: maxBy picks the same item.
    if (known !== undefined && Object.is(ownField(old, known.field), ownField(edit.item, known.field))) {
      greatest.set(after, known);
    }
    return after;
  }
  const old = items[edit.remove];
  if (old === undefined) return items.slice(); // no item there: nothing to remove
  after = items.toSpliced(edit.remove, 1);
  if (bytes !== undefined) totals.set(after, bytes - itemBytes(old) - (items.length > 1 ? 1 : 0));
  return after;
}

/** Whether id `a` (of item `x`) is greater than id `b` (of item `y`). */
function greater(x: Item, a: unknown, y: Item, b: unknown, idField: string): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    // Doubles that are safe integers came from texts they hold exactly: compared as they are.
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) return a > b;
    const [ta, tb] = [idText(x, idField) as string, idText(y, idField) as string];
    if (INTEGER.test(ta) && INTEGER.test(tb)) return BigInt(ta) > BigInt(tb);
  }
  return (a as number) > (b as number);
}

/** Whether a JSON value counts as "no id given" (json-server's `doc.id || createId()`). */
function isFalsy(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === 0 || value === '';
}

/** What {@link insertItem} made, or why not. */
export type Inserted = { item: Item } | { problem: 'id-taken'; id: string };

/**
 * The item `body` becomes in `items`: its own id when it has one (refused when
 * taken), else {@link nextId} (in place of a falsy id, or added at the end).
 */
export function insertItem(items: readonly Item[], body: Item, idField: string): Inserted {
  const given = ownField(body, idField);
  if (!isFalsy(given)) {
    const id = idText(body, idField) as string;
    return indexOfId(items, idField, id) === -1 ? { item: body } : { problem: 'id-taken', id };
  }
  return { item: itemOf(withMember(body.text, idField, nextId(items, idField))) };
}

/** `current` replaced by `body`, keeping its id (where `body` has the id field, else at the end). */
export function replaceItem(current: Item, body: Item, idField: string): Item {
  return itemOf(withMember(body.text, idField, memberText(current.text, idField)));
}

/** `current` merged with `patch` (RFC 7396, an object); its id is kept whatever the patch says of it. */
export function patchItem(current: Item, patch: Item, idField: string): Item {
  const withoutId = ownField(patch, idField) !== undefined ? withMember(patch.text, idField, undefined) : patch.text;
  return itemOf(mergePatchText(current.text, withoutId));
}
