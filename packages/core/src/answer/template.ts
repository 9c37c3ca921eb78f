/**
 * Rendering templated answers: each placeholder is a lookup in the request
 * (`params`, `query`, `headers`, the JSON `body`) or a fresh value (`uuid`,
 * `now`, `seq`). Logic-less and prototype-safe: only own keys are read, nothing
 * is evaluated, and it runs on every runtime the core supports.
 *
 * @module
 */

import { NOT_JSON } from '../journal/request-filter.js';
import { headerSafeText } from '../wire/http-header.js';
import { jsonStringTokens, type Placeholder, parseTemplate, type TemplatePart } from '../wire/template-syntax.js';

/** What placeholders are looked up in. */
export interface TemplateContext {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or {@link NOT_JSON}. */
  readonly json: unknown;
  /** How many requests the route has answered, this one included. */
  readonly seq: number;
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

/** The value of one placeholder, or `undefined` when it is missing. */
export function lookup(placeholder: Placeholder, context: TemplateContext): unknown {
  switch (placeholder.source) {
    case 'uuid':
      return crypto.randomUUID();
    case 'now':
      return new Date().toISOString();
    case 'seq':
      return context.seq;
    case 'body': {
      let value = context.json === NOT_JSON ? undefined : context.json;
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

/** Renders parsed parts as text. */
export function renderText(parts: readonly TemplatePart[], context: TemplateContext): string {
  let out = '';
  for (const part of parts) out += typeof part === 'string' ? part : asText(lookup(part, context));
  return out;
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

/** Renders a compiled JSON template into JSON text. */
export function renderJson(template: JsonTemplate, context: TemplateContext): string {
  let out = '';
  for (const piece of template) {
    if (typeof piece === 'string') out += piece;
    else if (piece.single !== undefined) {
      const value = lookup(piece.single, context);
      // A missing value renders as empty: the empty string.
      out += value === undefined ? '""' : (JSON.stringify(value) ?? '""');
    } else out += JSON.stringify(renderText(piece.parts, context));
  }
  return out;
}

/**
 * A rendered header value, always sendable (no header injection, nothing HTTP
 * cannot carry): what a placeholder inserts has every character past visible
 * ASCII percent-encoded, as UTF-8 (`€` → `%E2%82%AC`, CR LF → `%0D%0A`), or,
 * from a request header, as the bytes it came as. The literal parts were
 * checked when the answer was saved.
 */
export function renderHeader(parts: readonly TemplatePart[], context: TemplateContext): string {
  let out = '';
  for (const part of parts) {
    out += typeof part === 'string' ? part : headerSafeText(asText(lookup(part, context)), part.source === 'headers');
  }
  return out;
}
