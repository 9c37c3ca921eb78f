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
import { utf8Length } from '../answer/endpoint-answer.js';
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

/** An answer with relations that would pass its bound (see {@link AnswerBudget}). */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
}

/**
 * The UTF-8 bytes an answer may still take: relations multiply what an answer
 * holds (every listed item embeds its own copy), so each item's text is
 * charged here as it is made, and what would pass the bound is refused before
 * it is built.
 */
export interface AnswerBudget {
  readonly limit: number;
  /** Bytes charged so far. */
  used: number;
}

function charge(budget: AnswerBudget, bytes: number): void {
  budget.used += bytes;
  if (budget.used > budget.limit) {
    throw new AnswerTooLargeError(
      `the answer would be more than ${budget.limit} bytes (MOCKPOINT_MAX_COLLECTION_BYTES) with its _embed/_expand; page the list (_limit, _page) or ask for fewer relations`,
    );
  }
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

/**
 * `item`'s text with each `_embed` and `_expand` of the query added (in place
 * of a field of that name, or at the end); every other field keeps its text.
 * An `_expand` that finds nothing removes the field, as json-server's does.
 * With a `budget`, the text is charged to it (and what would pass its bound
 * is refused with {@link AnswerTooLargeError} before it is built).
 */
export function related(
  item: Item,
  embed: readonly string[],
  expand: readonly string[],
  context: RelationContext,
  budget?: AnswerBudget,
): string {
  if (embed.length === 0 && expand.length === 0) {
    if (budget !== undefined) charge(budget, itemBytes(item));
    return item.text;
  }
  let text = item.text;
  let bytes = itemBytes(item);
  const id = ownField(item, context.idField);
  const foreignKey = `${singular(context.collection)}Id`;
  for (const name of embed) {
    const others = context.find(name)?.items ?? [];
    const matches = id === undefined ? [] : itemsWith(others, foreignKey, id);
    // An upper bound of what the member adds (its key, its items and their commas), checked before it is built.
    let adds = name.length * 6 + 6 + matches.length;
    for (const other of matches) adds += itemBytes(other);
    if (budget !== undefined && budget.used + bytes + adds > budget.limit) charge(budget, bytes + adds);
    bytes += adds;
    text = withMember(text, name, `[${matches.map((other) => other.text).join(',')}]`);
  }
  for (const name of expand) {
    const other = context.find(plural(name));
    if (other === undefined) continue;
    const key = ownField(item, `${name}Id`);
    const at = key === undefined || key === null ? -1 : indexOfId(other.items, other.idField, String(key));
    const found = at === -1 ? undefined : (other.items[at] as Item);
    const adds = found === undefined ? 0 : name.length * 6 + 4 + itemBytes(found);
    if (budget !== undefined && budget.used + bytes + adds > budget.limit) charge(budget, bytes + adds);
    bytes += adds;
    text = withMember(text, name, found?.text);
  }
  if (budget !== undefined) charge(budget, utf8Length(text));
  return text;
}
