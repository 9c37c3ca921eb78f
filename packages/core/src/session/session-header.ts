/**
 * Which session (namespace) a request is in, read from its headers: the
 * `mockpoint-session` header, else the `mockpoint-session` entry of W3C
 * `baggage` (docs/sessions.md).
 *
 * @module
 */
import { rawHeaderJoined } from '../wire/raw-headers.js';
import { isValidName } from '../wire/rules.js';
import { baggageEntry } from './baggage.js';

/** The header (and the `baggage` entry key) that names a request's session. */
export const SESSION_HEADER = 'mockpoint-session';

/**
 * Headers in any of the shapes a Node server is handed: a Fetch `Headers`, a
 * Node `IncomingHttpHeaders` (`req.headers`), Node's `rawHeaders` (names and
 * values alternating) or a plain record (names in any case).
 */
export type HeadersInput =
  | { get(name: string): string | null }
  | readonly string[]
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/**
 * Every value of header `name` (lower case) in `headers`, joined with `, ` as
 * HTTP reads a repeated list header, or `undefined` when it is absent.
 */
function headerValue(headers: HeadersInput, name: string): string | undefined {
  if (isRawHeaders(headers)) return rawHeaderJoined(headers, name);
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | number | undefined>>;
  let value = record[name];
  if (value === undefined) {
    // A plain record may spell the name in any case (Node's `req.headers` never does).
    const key = Object.keys(record).find((k) => k.length === name.length && k.toLowerCase() === name);
    if (key !== undefined) value = record[key];
  }
  if (value === undefined) return undefined;
  return typeof value === 'object' ? value.join(', ') : String(value);
}

function isRawHeaders(headers: HeadersInput): headers is readonly string[] {
  return Array.isArray(headers);
}

/**
 * The session a request names, or `undefined`: the `mockpoint-session` header
 * when it is there, else the `mockpoint-session` entry of `baggage`. A value
 * that is not a valid name (1–64 characters of `A–Z a–z 0–9 _ -`, the
 * endpoint-name rule; a header sent twice reads as `a, b`, so not one) counts
 * as none, and a header with an invalid value is not passed over for the
 * baggage entry.
 */
export function sessionOf(headers: HeadersInput | undefined | null): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  const direct = headerValue(headers, SESSION_HEADER);
  if (direct !== undefined) return valid(direct.trim());
  const baggage = headerValue(headers, 'baggage');
  if (baggage === undefined) return undefined;
  const entry = baggageEntry(baggage, SESSION_HEADER);
  return entry === undefined ? undefined : valid(entry);
}

function valid(name: string): string | undefined {
  return isValidName(name) ? name : undefined;
}
