/**
 * json-server's relations between collections, named by convention: a comment
 * with `postId` belongs to the post with that id. `_embed=comments` on a post
 * adds the comments whose `postId` is the post's id; `_expand=post` on a
 * comment adds the post whose id is its `postId`. Collection names are made
 * singular and plural by the regular English rules below (json-server uses the
 * `pluralize` package, which also knows irregular words: name such
 * collections so that the regular rule gives the field your items hold).
 *
 * @module
 */
import { utf8Length } from '../codec/utf8-length.js';
import { type Item, indexOfId, itemBytes, ownField, withMember } from './item.js';

const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', man: 'men', woman: 'women' };
const IRREGULAR_PLURAL = new Map(Object.entries(IRREGULAR).map(([one, many]) => [many, one]));
const CONSONANT_Y = /[^aeiou]y$/;
const SIBILANT = /(ss|x|z|ch|sh)$/;

/** `post` → `posts`, `category` → `categories`, `box` → `boxes`; a word ending in one `s` is taken as plural already. */
export function plural(word: string): string {
  if (IRREGULAR[word] !== undefined) return IRREGULAR[word];
  if (IRREGULAR_PLURAL.has(word)) return word;
  if (SIBILANT.test(word)) return `${word}es`;
  if (word.endsWith('s')) return word;
  if (CONSONANT_Y.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** `posts` → `post`, `categories` → `category`, `boxes` → `box`. */
export function singular(word: string): string {
  const irregular = IRREGULAR_PLURAL.get(word);
  if (irregular !== undefined) return irregular;
  if (word.endsWith('ies') && word.length > 3) return `${word.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Another collection of the same endpoint, as a relation reads it. */
export interface RelatedCollection {
  items: readonly Item[];
  idField: string;
}

/** What a relation needs: this collection's name and id field, and the endpoint's other collections by name. */
export interface RelationContext {
  collection: string;
  idField: string;
  find(name: string): RelatedCollection | undefined;
}

/** Each collection's items by the value of one field (`postId`), per items array as item.ts keeps its indexes. */
const byField = new WeakMap<readonly Item[], Map<string, Map<unknown, Item[]>>>();

/**
 * The items of `items` whose own `field` is `value` (`===`, as a filter by
 * `value` would find them, in their order): indexed on the first ask, so a
 * list that embeds pays one pass over the other collection, not one per item.
 */
function itemsWith(items: readonly Item[], field: string, value: unknown): readonly Item[] {
  let fields = byField.get(items);
  if (fields === undefined) {
    fields = new Map();
    byField.set(items, fields);
  }
  let index = fields.get(field);
  if (index === undefined) {
    index = new Map();
    for (const item of items) {
      const key = ownField(item, field);
      if (key === undefined) continue;
      const same = index.get(key);
      if (same === undefined) index.set(key, [item]);
      else same.push(item);
    }
    fields.set(field, index);
  }
  return index.get(value) ?? [];
}

/** The items of collection `name` whose foreign key is `item`'s id (`_embed=name`). */
function embedded(item: Item, name: string, context: RelationContext): readonly Item[] {
  const id = ownField(item, context.idField);
  if (id === undefined) return [];
  return itemsWith(context.find(name)?.items ?? [], `${singular(context.collection)}Id`, id);
}

/** The item `_expand=name` adds to `item`; null: the collection is absent (nothing changes); undefined: none found. */
function expanded(item: Item, name: string, context: RelationContext): Item | undefined | null {
  const other = context.find(plural(name));
  if (other === undefined) return null;
  const key = ownField(item, `${name}Id`);
  const at = key === undefined || key === null ? -1 : indexOfId(other.items, other.idField, String(key));
  return at === -1 ? undefined : (other.items[at] as Item);
}

/** The UTF-8 bytes a member `"name":` takes at most, with its comma. */
function memberBytes(name: string): number {
  return utf8Length(JSON.stringify(name)) + 2;
}

/**
 * The UTF-8 bytes of `item`'s text with its relations ({@link related}), at
 * most: the item and what each relation adds, counted from the sizes of the
 * items it adds without building the text (exact, but for a field the relation
 * replaces, counted twice). What a bound on an answer is checked against.
 */
export function relatedBytes(
  item: Item,
  embed: readonly string[],
  expand: readonly string[],
  context: RelationContext,
): number {
  let bytes = itemBytes(item);
  for (const name of embed) {
    const matches = embedded(item, name, context);
    bytes += memberBytes(name) + 2 + Math.max(0, matches.length - 1);
    for (const other of matches) bytes += itemBytes(other);
  }
  for (const name of expand) {
    const found = expanded(item, name, context);
    if (found) bytes += memberBytes(name) + itemBytes(found);
  }
  return bytes;
}

/**
 * `item`'s text with each `_embed` and `_expand` of the query added (in place
 * of a field of that name, or at the end); every other field keeps its text.
 * An `_expand` that finds nothing removes the field, as json-server's does.
 */
export function related(
  item: Item,
  embed: readonly string[],
  expand: readonly string[],
  context: RelationContext,
): string {
  let text = item.text;
  for (const name of embed) {
    text = withMember(
      text,
      name,
      `[${embedded(item, name, context)
        .map((other) => other.text)
        .join(',')}]`,
    );
  }
  for (const name of expand) {
    const found = expanded(item, name, context);
    if (found !== null) text = withMember(text, name, found?.text);
  }
  return text;
}
