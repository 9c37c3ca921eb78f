/**
 * Which session (namespace) a request is in, read from its headers: the
 * `mockpoint-session` header, else the `mockpoint-session` entry of W3C
 * `baggage` (docs/sessions.md).
 *
 * @module
 */

import {
  SESSION_HEADER,
  sessionFromBaggage,
  sessionFromHeader,
  sessionOfHeaders,
  sessionOfRawHeaders,
} from '../api/session.js';
import { isValidName } from '../registry/rules.js';

export { SESSION_HEADER };

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
 * Every value of header `name` (lower case) in a record, joined with `, ` as
 * HTTP reads a repeated list header, or `undefined` when it is absent.
 */
function recordHeader(
  record: Readonly<Record<string, string | readonly string[] | number | undefined>>,
  name: string,
): string | undefined {
  let value = record[name];
  if (value === undefined) {
    // A plain record may spell the name in any case (Node's `req.headers` never does).
    const key = Object.keys(record).find((k) => k.length === name.length && k.toLowerCase() === name);
    if (key !== undefined) value = record[key];
  }
  if (value === undefined) return undefined;
  return typeof value === 'object' ? value.join(', ') : String(value);
}

/** The name a request's headers give, valid or not: the daemon's reading (api/session.ts). */
function namedSession(headers: HeadersInput): string | undefined {
  if (Array.isArray(headers)) return sessionOfRawHeaders(headers as readonly string[]);
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return sessionOfHeaders(headers as Headers);
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | number | undefined>>;
  const direct = recordHeader(record, SESSION_HEADER);
  if (direct !== undefined) return sessionFromHeader(direct);
  const baggage = recordHeader(record, 'baggage');
  return baggage === undefined ? undefined : sessionFromBaggage(baggage);
}

/**
 * The session a request names, or `undefined`, read as the daemon reads it:
 * the `mockpoint-session` header when it is there, else the
 * `mockpoint-session` entry of `baggage`. A value that is not a valid name
 * (1–64 characters of `A–Z a–z 0–9 _ -`, the endpoint-name rule) counts as
 * none, and a header with an invalid value is not passed over for the baggage
 * entry. A header sent twice is read as every value, in every shape alike
 * (`sessionFromHeader`): the same name twice is that name; two names (`a, b`) are none.
 */
export function sessionOf(headers: HeadersInput | undefined | null): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  const name = namedSession(headers);
  return name !== undefined && isValidName(name) ? name : undefined;
}
