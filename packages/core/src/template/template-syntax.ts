/**
 * The placeholder syntax of templated answers (`"template": true`): logic-less
 * `{{…}}` placeholders, parsed into parts once when the route is saved. Nothing
 * is ever evaluated; a placeholder is one of a fixed set of lookups.
 *
 * @module
 */

import { thrownMessage } from '../registry/shape.js';
import { isNowPath, nowIsNumber, nowMinBytes } from './now-placeholder.js';

/** What a placeholder looks up. */
export type PlaceholderSource =
  | 'params'
  | 'query'
  | 'headers'
  | 'body'
  | 'item'
  | 'variables'
  | 'arguments'
  | 'messages'
  | 'uuid'
  | 'now'
  | 'seq'
  | 'state';

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

const KEYED = new Set<PlaceholderSource>(['params', 'query', 'headers', 'state']);
const BARE = new Set<PlaceholderSource>(['uuid', 'now', 'seq']);

/** The placeholders a template may use, for messages. */
export const PLACEHOLDER_RULE =
  'placeholders are {{params.NAME}}, {{query.NAME}}, {{headers.NAME}}, {{body}}, {{body.a.b}}, {{variables.a.b}} (a GraphQL request), {{arguments.a.b}} (an MCP tool call or prompt), {{messages}}, {{messages.0.a}} (the request messages of a gRPC call), {{state.SCENARIO}}, {{item.a.b}} (a resource route), {{uuid}}, {{now}} (and its date helpers: {{now.epoch}}, {{now.epochMs}}, {{now.date}}, {{now.plus.1d}}, {{now.minus.30s.epoch}}) and {{seq}}';

function placeholder(inner: string, text: string): Placeholder {
  const expression = inner.trim();
  const [head, ...path] = expression.split('.');
  const source = head as PlaceholderSource;
  if (BARE.has(source) && path.length === 0) return { source, path };
  if (source === 'now' && isNowPath(path)) return { source, path };
  if ((source === 'body' || source === 'item' || source === 'messages') && path.every((key) => key !== ''))
    return { source, path };
  if ((source === 'variables' || source === 'arguments') && path.length > 0 && path.every((key) => key !== ''))
    return { source, path };
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

const encoder = new TextEncoder();

/**
 * The fewest bytes a placeholder renders as text: every request gets a 36-byte
 * `{{uuid}}`, a 24-byte `{{now}}` and at least one digit of `{{seq}}`; a value of
 * the request may be missing (empty).
 */
const MIN_BYTES: Readonly<Record<PlaceholderSource, number>> = {
  uuid: 36,
  now: 24,
  seq: 1,
  params: 0,
  query: 0,
  headers: 0,
  body: 0,
  item: 0,
  variables: 0,
  arguments: 0,
  messages: 0,
  state: 0,
};

/** The fewest UTF-8 bytes parsed `parts` render for any request (literal text and fixed-width placeholders). */
function minPartsBytes(parts: readonly TemplatePart[]): number {
  let bytes = 0;
  for (const part of parts)
    bytes +=
      typeof part === 'string'
        ? encoder.encode(part).byteLength
        : part.source === 'now'
          ? nowMinBytes(part.path)
          : MIN_BYTES[part.source];
  return bytes;
}

/** The fewest UTF-8 bytes the (valid) template `text` renders for any request. */
export function minRenderedBytes(text: string): number {
  return minPartsBytes(parseTemplate(text));
}

/**
 * The fewest UTF-8 bytes valid JSON text renders when its string tokens are
 * templates: the text outside them as it is, each templated token as a JSON
 * string (quotes and at least its parts), or a token that is one placeholder as
 * the value itself (at least one byte; a string with its quotes for `{{uuid}}`
 * and `{{now}}`).
 */
export function minRenderedJsonBytes(text: string): number {
  let bytes = encoder.encode(text).byteLength;
  for (const token of jsonStringTokens(text)) {
    const parts = parseTemplate(token.value);
    if (!parts.some((part) => typeof part !== 'string')) continue;
    const only = parts.length === 1 && !token.key ? parts[0] : undefined;
    // A single {{uuid}} or {{now}} is a JSON string (quoted); {{seq}} and {{now.epoch}} numbers; others any value.
    let least = 2 + minPartsBytes(parts);
    if (only !== undefined && typeof only !== 'string') {
      least =
        only.source === 'uuid'
          ? MIN_BYTES.uuid + 2
          : only.source === 'now'
            ? nowMinBytes(only.path) + (nowIsNumber(only.path) ? 0 : 2)
            : 1;
    }
    bytes += least - encoder.encode(text.slice(token.start, token.end)).byteLength;
  }
  return bytes;
}

/** Why template `text` does not parse (a {@link TemplateSyntaxError}'s message), or `undefined` when it does. */
export function templateSyntaxProblem(text: string): string | undefined {
  return thrownMessage(() => parseTemplate(text), TemplateSyntaxError);
}
