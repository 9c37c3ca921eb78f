/**
 * How a request names its namespace (docs/design.md#namespaces), read in one place for every
 * adapter: the path prefix `/ns/{ns}/…` first (for senders that cannot set
 * headers, such as a provider's webhook), then the header `mockpoint-session:
 * {ns}`, then the W3C `baggage` entry `mockpoint-session={ns}`. The name is
 * returned as sent; the caller checks it against the name rule.
 *
 * @module
 */

import { isHeaderName } from '../codec/raw-headers.js';

/** The header that names a request's namespace (test session). */
export const SESSION_HEADER = 'mockpoint-session';

/** The path prefix that names a request's namespace: `/ns/{ns}` and what follows. */
export const NAMESPACE_PREFIX = '/ns/';

/** A W3C baggage header holds at most this many bytes (its spec's limit is 8192). */
const MAX_BAGGAGE_CHARS = 8192;

/**
 * The `mockpoint-session` entry of a W3C `baggage` header value
 * (`key=value;property, key2=value2`), percent-decoded; `undefined` when it has
 * none or the entry cannot be decoded.
 */
export function sessionFromBaggage(value: string): string | undefined {
  if (value.length > MAX_BAGGAGE_CHARS || !value.includes(SESSION_HEADER)) return undefined;
  for (const member of value.split(',')) {
    const equals = member.indexOf('=');
    if (equals === -1 || member.slice(0, equals).trim() !== SESSION_HEADER) continue;
    const semicolon = member.indexOf(';', equals);
    const raw = member.slice(equals + 1, semicolon === -1 ? undefined : semicolon).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The name a `mockpoint-session` header's value gives, as sent (the caller checks it against the
 * name rule): the value trimmed. Sent more than once, the header is read as HTTP reads a repeated
 * header, its values joined with `, ` (a Fetch `Headers` can only give them so): the same name
 * repeated (`a, a`) is that name; different ones (`a, b`) are no one name, and are returned
 * joined, which no name can be. Raw headers and `Headers` are read alike (docs/design.md#one-path).
 */
export function sessionFromHeader(value: string): string {
  const trimmed = value.trim();
  const comma = trimmed.indexOf(',');
  if (comma === -1) return trimmed;
  const first = trimmed.slice(0, comma).trim();
  for (const member of trimmed.slice(comma + 1).split(',')) {
    if (member.trim() !== first) return trimmed;
  }
  return first;
}

/**
 * The session a request's raw headers name (Node's `rawHeaders`: name, value,
 * name, value…): the `mockpoint-session` header (every value, {@link sessionFromHeader}),
 * else the `baggage` entry; `undefined` when neither is there. Builds no string to compare a name.
 */
export function sessionOfRawHeaders(rawHeaders: readonly string[]): string | undefined {
  let named: string | undefined;
  let baggage: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (isHeaderName(name, SESSION_HEADER)) {
      const value = rawHeaders[i + 1] as string;
      named = named === undefined ? value : `${named}, ${value}`;
    } else if (named === undefined && isHeaderName(name, 'baggage')) {
      // Several baggage headers are one list (W3C Baggage §3.3).
      baggage = baggage === undefined ? rawHeaders[i + 1] : `${baggage},${rawHeaders[i + 1]}`;
    }
  }
  if (named !== undefined) return sessionFromHeader(named);
  return baggage === undefined ? undefined : sessionFromBaggage(baggage);
}

/** The session a Fetch request's headers name: the header ({@link sessionFromHeader}), else the `baggage` entry. */
export function sessionOfHeaders(headers: Headers): string | undefined {
  const header = headers.get(SESSION_HEADER);
  if (header !== null) return sessionFromHeader(header);
  const baggage = headers.get('baggage');
  return baggage === null ? undefined : sessionFromBaggage(baggage);
}

/**
 * Where a `GET` of `/ns/{ns}` (no slash after the name: the namespace's web
 * page) is sent, so that the page's relative URLs resolve below it; `undefined`
 * for any other target.
 */
export function namespacePageRedirect(target: string): string | undefined {
  const split = splitNamespaceTarget(target);
  if (split === undefined) return undefined;
  const after = target.slice(NAMESPACE_PREFIX.length + split.name.length);
  if (after !== '' && after.charCodeAt(0) !== 63 /* ? */) return undefined;
  return `${NAMESPACE_PREFIX}${split.name}/${after}`;
}

/**
 * A target (path and query) under `/ns/{ns}`: the namespace's name and the
 * target below it (`/` when nothing follows); `undefined` when the target is not under `/ns/`.
 * @example splitNamespaceTarget('/ns/t1/endpoint/a?x=1') // { name: 't1', rest: '/endpoint/a?x=1' }
 */
export function splitNamespaceTarget(target: string): { name: string; rest: string } | undefined {
  if (!target.startsWith(NAMESPACE_PREFIX)) return undefined;
  let end = NAMESPACE_PREFIX.length;
  while (end < target.length) {
    const c = target.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  const name = target.slice(NAMESPACE_PREFIX.length, end);
  const after = target.slice(end);
  return { name, rest: after === '' || after.charCodeAt(0) !== 47 ? `/${after}` : after };
}
