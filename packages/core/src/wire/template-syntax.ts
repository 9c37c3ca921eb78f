/**
 * The placeholder syntax of templated answers (`"template": true`): logic-less
 * `{{…}}` placeholders, parsed into parts once when the route is saved. Nothing
 * is ever evaluated; a placeholder is one of a fixed set of lookups.
 *
 * @module
 */

/** What a placeholder looks up. */
export type PlaceholderSource = 'params' | 'query' | 'headers' | 'body' | 'uuid' | 'now' | 'seq';

/** One `{{…}}`: where to look, and the path of keys below it (`body.order.id` → `order`, `id`). */
export interface Placeholder {
  readonly source: PlaceholderSource;
  readonly path: readonly string[];
}

/** A template: literal text and placeholders, in order. */
export type TemplatePart = string | Placeholder;

/** Text that is not a valid template (the message says where). */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
}

const KEYED = new Set<PlaceholderSource>(['params', 'query', 'headers']);
const BARE = new Set<PlaceholderSource>(['uuid', 'now', 'seq']);

/** The placeholders a template may use, for messages. */
export const PLACEHOLDER_RULE =
  'placeholders are {{params.NAME}}, {{query.NAME}}, {{headers.NAME}}, {{body}}, {{body.a.b}}, {{uuid}}, {{now}} and {{seq}}';

function placeholder(inner: string, text: string): Placeholder {
  const expression = inner.trim();
  const [head, ...path] = expression.split('.');
  const source = head as PlaceholderSource;
  if (BARE.has(source) && path.length === 0) return { source, path };
  if (source === 'body' && path.every((key) => key !== '')) return { source, path };
  if (KEYED.has(source) && path.length === 1 && path[0] !== '') {
    // Header names are looked up lower-cased, as the journal lists them.
    return { source, path: source === 'headers' ? [(path[0] as string).toLowerCase()] : path };
  }
  throw new TemplateSyntaxError(`"{{${inner}}}" in "${text}" is not a placeholder; ${PLACEHOLDER_RULE}`);
}

/**
 * Splits `text` into literal parts and placeholders.
 * @throws TemplateSyntaxError for a `{{` that does not close, or an unknown placeholder.
 */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('{{', at);
    if (open === -1) break;
    const close = text.indexOf('}}', open + 2);
    if (close === -1) throw new TemplateSyntaxError(`"{{" at offset ${open} in "${text}" does not close with "}}"`);
    if (open > at) parts.push(text.slice(at, open));
    parts.push(placeholder(text.slice(open + 2, close), text));
    at = close + 2;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** A string token of JSON text: where it is, its decoded value, and whether it is an object key. */
export interface JsonStringToken {
  start: number;
  end: number;
  value: string;
  key: boolean;
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/**
 * The string tokens of valid, minified JSON text (outside strings JSON has no
 * quotes, so each match is exactly one string token).
 */
export function jsonStringTokens(text: string): JsonStringToken[] {
  const tokens: JsonStringToken[] = [];
  for (const match of text.matchAll(JSON_STRING)) {
    const start = match.index;
    const end = start + match[0].length;
    tokens.push({ start, end, value: JSON.parse(match[0]) as string, key: text.charCodeAt(end) === 58 /* : */ });
  }
  return tokens;
}
