/**
 * Rendering templated answers: each placeholder is a lookup in the request
 * (`params`, `query`, `headers`, the JSON `body`) or a fresh value (`uuid`,
 * `now`, `seq`). Logic-less and prototype-safe: only own keys are read, nothing
 * is evaluated, and it runs on every runtime the core supports.
 *
 * @module
 */

import { stateOf } from '../api/state-json.js';
import { headerSafeText } from '../codec/http-header.js';
import { scanJson } from '../codec/json-text.js';
import { utf8Length } from '../codec/utf8-length.js';
import { NOT_JSON } from '../journal/request-filter.js';
import { MockpointError } from '../registry/errors.js';
import { renderNow } from '../template/now-placeholder.js';
import { jsonStringTokens, type Placeholder, parseTemplate, type TemplatePart } from '../template/template-syntax.js';

/**
 * The bytes one answer's templates may render in all (its headers, its body or
 * every event of its stream): the body limit, since the largest body mockpoint
 * accepts is also the largest it renders. Counted piece by piece as the text
 * grows, so rendering stops as soon as the bound is passed and a template that
 * repeats a large request value never builds the huge text. One per request.
 */
export class RenderBudget {
  readonly limit: number;
  #left: number;

  constructor(limit: number) {
    this.limit = limit;
    this.#left = limit;
  }

  /** `text`, counted; past the limit a `TEMPLATE_TOO_LARGE` error (the caller says which answer). */
  spend(text: string): string {
    this.#left -= utf8Length(text);
    if (this.#left < 0) throw tooLarge(this.limit);
    return text;
  }

  /** Counts `bytes` more (e.g. the quotes around a JSON string). */
  add(bytes: number): void {
    this.#left -= bytes;
    if (this.#left < 0) throw tooLarge(this.limit);
  }
}

function tooLarge(limit: number): MockpointError {
  return new MockpointError(
    'TEMPLATE_TOO_LARGE',
    `its template renders more than ${limit} bytes for this request, the most an answer may render (the body limit, MOCKPOINT_MAX_BODY_BYTES); render less of the request (a field such as {{body.id}} rather than the whole {{body}}, or fewer repeats), send a smaller request, or raise MOCKPOINT_MAX_BODY_BYTES`,
    { details: { limit } },
  );
}

/**
 * A {@link TemplateContext}'s `json` when the body is longer than the body limit
 * and was not read whole: `{{body…}}` then fails with `BODY_TOO_LARGE` rather
 * than render as if the body were empty.
 */
export const BODY_NOT_READ: unique symbol = Symbol('mockpoint.bodyNotRead');

/** What placeholders are looked up in. */
export interface TemplateContext {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, {@link NOT_JSON}, or {@link BODY_NOT_READ}. */
  readonly json: unknown;
  /** How many requests the route has answered, this one included. */
  readonly seq: number;
  /** What this answer may still render (one per request, shared by its headers, body and events). */
  readonly budget: RenderBudget;
  /** The endpoint's scenarios after this answer's move, as far as its route looks at them (`{{state.x}}`; else `started`). */
  readonly state?: Readonly<Record<string, string>>;
  /** In a resource route, the exact JSON text of the item answered (`{{item.a.b}}`); none for a list. */
  readonly item?: string;
  /** The GraphQL request's (first operation's) variables (`{{variables.a.b}}`), read when first asked. */
  readonly variables?: () => unknown;
  /** A gRPC call's request messages in proto3 JSON (`{{messages}}`, `{{messages.0.a}}`). */
  readonly messages?: readonly unknown[];
  /** An MCP tool call's or prompt's arguments (`{{arguments.a.b}}`). */
  readonly arguments?: unknown;
  /** The app's clock at this request, ms since the epoch (`{{now}}`; docs/clock.md). @default real time */
  readonly now?: number;
}

/** An own property, or `undefined` (never a prototype's). */
function own(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
    return value[Number(key)];
  }
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The value at `path` in JSON `text`, exact: a string decoded, anything else as
 * its own text (`12345678901234567890` stays that, not a rounded double);
 * `undefined` when missing.
 */
function exactAt(text: string, path: readonly string[]): string | undefined {
  let at: string | undefined = text;
  for (const key of path) {
    const { members, elements } = scanJson(at);
    at = members !== undefined ? members.get(key) : /^(0|[1-9]\d*)$/.test(key) ? elements?.[Number(key)] : undefined;
    if (at === undefined) return undefined;
  }
  return at.startsWith('"') ? (JSON.parse(at) as string) : at;
}

/** The value of one placeholder, or `undefined` when it is missing. */
export function lookup(placeholder: Placeholder, context: TemplateContext): unknown {
  switch (placeholder.source) {
    case 'uuid':
      return crypto.randomUUID();
    case 'now':
      return renderNow(context.now ?? Date.now(), placeholder.path);
    case 'seq':
      return context.seq;
    case 'body': {
      if (context.json === BODY_NOT_READ) {
        throw new MockpointError(
          'BODY_TOO_LARGE',
          'its template reads {{body}}, and the request body is longer than the body limit (MOCKPOINT_MAX_BODY_BYTES), the most mockpoint reads of a request; send a smaller body, or raise MOCKPOINT_MAX_BODY_BYTES',
        );
      }
      let value = context.json === NOT_JSON ? undefined : context.json;
      for (const key of placeholder.path) value = own(value, key);
      return value;
    }
    case 'state':
      return stateOf(context.state ?? {}, placeholder.path[0] as string);
    case 'item':
      return context.item === undefined ? undefined : exactAt(context.item, placeholder.path);
    case 'messages': {
      let value: unknown = context.messages;
      for (const key of placeholder.path) value = own(value, key);
      return value;
    }
    case 'arguments': {
      let value = context.arguments;
      for (const key of placeholder.path) value = own(value, key);
      return value;
    }
    case 'variables': {
      let value = context.variables?.();
      for (const key of placeholder.path) value = own(value, key);
      return value;
    }
    default:
      return own(context[placeholder.source], placeholder.path[0] as string);
  }
}

/** A looked-up value as text: strings as they are, others as JSON, a missing one as empty. */
function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

/** Renders parsed parts as text, within the context's budget. */
export function renderText(parts: readonly TemplatePart[], context: TemplateContext): string {
  const { budget } = context;
  let out = '';
  for (const part of parts) out += budget.spend(typeof part === 'string' ? part : asText(lookup(part, context)));
  return out;
}

/** A JSON string's text without its quotes (escaping is per character, so pieces escape apart). */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A JSON text whose string tokens are templates, compiled once. */
export type JsonTemplate = readonly (string | { parts: TemplatePart[]; single: Placeholder | undefined })[];

/**
 * Compiles the string tokens of `text` (valid, minified JSON) that hold
 * placeholders; everything else stays literal text. A value string that is
 * exactly one placeholder renders as the JSON value itself.
 */
export function compileJsonTemplate(text: string): JsonTemplate {
  const out: (string | { parts: TemplatePart[]; single: Placeholder | undefined })[] = [];
  let at = 0;
  for (const token of jsonStringTokens(text)) {
    const parts = parseTemplate(token.value);
    if (!parts.some((part) => typeof part !== 'string')) continue;
    if (token.start > at) out.push(text.slice(at, token.start));
    const only = parts.length === 1 && typeof parts[0] !== 'string' && !token.key ? parts[0] : undefined;
    out.push({ parts, single: only as Placeholder | undefined });
    at = token.end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Renders a compiled JSON template into JSON text, within the context's budget. */
export function renderJson(template: JsonTemplate, context: TemplateContext): string {
  const { budget } = context;
  let out = '';
  for (const piece of template) {
    if (typeof piece === 'string') out += budget.spend(piece);
    else if (piece.single !== undefined) {
      const value = lookup(piece.single, context);
      // A missing value renders as empty: the empty string.
      out += budget.spend(value === undefined ? '""' : (JSON.stringify(value) ?? '""'));
    } else {
      // Escaped piece by piece, so a repeated placeholder is stopped before the whole string exists.
      budget.add(2);
      out += '"';
      for (const part of piece.parts) {
        out += budget.spend(jsonEscaped(typeof part === 'string' ? part : asText(lookup(part, context))));
      }
      out += '"';
    }
  }
  return out;
}

/**
 * A rendered header value, always sendable (no header injection, nothing HTTP
 * cannot carry): what a placeholder inserts has every character past visible
 * ASCII percent-encoded, as UTF-8 (`€` → `%E2%82%AC`, CR LF → `%0D%0A`), or,
 * from a request header, as the bytes it came as. The literal parts were
 * checked when the answer was saved. Counted in the context's budget, as sent.
 */
export function renderHeader(parts: readonly TemplatePart[], context: TemplateContext): string {
  const { budget } = context;
  let out = '';
  for (const part of parts) {
    // Literal parts are visible ASCII (checked when saved): a byte a character.
    if (typeof part === 'string') {
      budget.add(part.length);
      out += part;
      continue;
    }
    // What a placeholder inserts is counted before it is encoded (each character is at least
    // a byte), so a value far past the budget is refused without encoding it; then what the
    // encoding added (it is ASCII: a byte a character).
    const text = asText(lookup(part, context));
    budget.add(text.length);
    const safe = headerSafeText(text, part.source === 'headers');
    budget.add(safe.length - text.length);
    out += safe;
  }
  return out;
}
