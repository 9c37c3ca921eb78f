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
import { hasId, type Item, ownField, withMember } from './item.js';

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
  const id = ownField(item, context.idField);
  const foreignKey = `${singular(context.collection)}Id`;
  for (const name of embed) {
    const others = context.find(name)?.items ?? [];
    const matches = id === undefined ? [] : others.filter((other) => ownField(other, foreignKey) === id);
    text = withMember(text, name, `[${matches.map((other) => other.text).join(',')}]`);
  }
  for (const name of expand) {
    const other = context.find(plural(name));
    if (other === undefined) continue;
    const key = ownField(item, `${name}Id`);
    const found =
      key === undefined || key === null ? undefined : other.items.find((o) => hasId(o, other.idField, String(key)));
    text = withMember(text, name, found?.text);
  }
  return text;
}
