/**
 * A recording: one distinct request (method, subpath, query, the proxy's
 * `matchHeaders`, body) and the upstream's complete answer, as a route that
 * answers the same request again without the upstream. The answer is exact:
 * JSON already in its minified form as `data`, other text as `body`, anything
 * else as `bodyBase64`. Secrets never get in: Authorization, Cookie,
 * Set-Cookie, X-Api-Key and the proxy's `redact` headers are left out of the
 * recorded answer (a replay sends no such header, rather than a placeholder).
 *
 * @module
 */

import type { RequestFilter } from '../../api/journal-json.js';
import { ALWAYS_REDACTED, type ProxyAnswer, REDACTED_QUERY } from '../../api/proxy-answer.js';
import { type AnswerHeaders, FORBIDDEN_HEADERS, type Route, type RouteAnswer } from '../../api/route.js';
import { toBase64 } from '../../codec/base64.js';
import { JsonText, scanJson } from '../../codec/json-text.js';
import { headerRecord } from '../../codec/raw-headers.js';
import { utf8Text } from '../../codec/utf8.js';
import { parseQuery, type RecordedRequest } from '../../journal/journal-entry.js';
import type { ValueMatcher } from '../../pattern/value-pattern.js';
import { BODILESS_STATUS } from '../read-response.js';
import type { CompleteAnswer } from './proxy-relay.js';

/** The lower-case names a recording redacts for `proxy` (a proxy route, `record`, a HAR import). */
export function redactedNames(proxy: Pick<ProxyAnswer, 'redact'>): Set<string> {
  return new Set([...ALWAYS_REDACTED, ...(proxy.redact ?? []).map((name) => name.toLowerCase())]);
}

/**
 * Headers that tell the moment an answer was made (`Date`, a cache's `Age`):
 * never recorded, so a replay answers with the daemon's fresh `Date` rather
 * than the upstream's of the day it was recorded (a proxy recording, a HAR import).
 */
export const FRESH_HEADERS: ReadonlySet<string> = new Set(['date', 'age']);

/** Any value, for a credential matched by presence only. */
const PRESENT: ValueMatcher = { matches: '(?s).*' };

/**
 * A request's query as a filter's, credentials ({@link REDACTED_QUERY} and the
 * `redact` names) matched by presence, their values never written.
 */
export function redactedQuery(
  query: Record<string, string | string[]>,
  redacted: ReadonlySet<string>,
): Record<string, string | string[] | ValueMatcher> {
  const out: Record<string, string | string[] | ValueMatcher> = { ...query };
  for (const key of Object.keys(out)) {
    const lower = key.toLowerCase();
    if (REDACTED_QUERY.includes(lower) || redacted.has(lower)) out[key] = PRESENT;
  }
  return out;
}

/** A subpath as a path pattern that matches only itself (`:` and `*` escaped; literals are compared decoded). */
export function literalPattern(subpath: string): string {
  const segments = subpath.split('/').slice(1);
  return `/${segments
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // a malformed escape is compared as it is
      }
      return /^[A-Za-z0-9._~!$&'()+,;=@-]*$/.test(decoded)
        ? decoded
        : encodeURIComponent(decoded).replace(/\*/g, '%2A');
    })
    .join('/')}`;
}

/** The JSON media types: `application/json`, `application/problem+json`, … */
function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** The answer's body in the form that keeps its bytes exactly (for recordings and for HAR files). */
export function exactBody(
  body: Uint8Array,
  contentType: string | undefined,
): Pick<RouteAnswer, 'data' | 'body' | 'bodyBase64'> {
  if (body.byteLength === 0) return {};
  const text = utf8Text(body, false);
  if (text === undefined) return { bodyBase64: toBase64(body) };
  if (isJsonType(contentType)) {
    try {
      // Only text that is minified already: whitespace outside strings would not survive as data.
      if (scanJson(text).text === text) return { data: new JsonText(text) };
    } catch {
      // not JSON after all: kept as text
    }
  }
  return { body: text };
}

/**
 * Why an answer of `status` cannot be recorded, or `undefined` when it can. Any
 * request body can: one that is not UTF-8 as its base64, which is how a route
 * compares it.
 */
export function unrecordable(status: number): string | undefined {
  if (status < 200 || status > 599) return `status ${status} is outside 200-599`;
  return undefined;
}

/** A short stable id for a request: `rec-` and 12 hex digits of its SHA-256. */
async function recordingId(key: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(key)));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `rec-${hex.slice(0, 12)}`;
}

/**
 * The route that answers `request` as the upstream did (the same request, the
 * same id, always); `body` is its whole body (`request.body` is the journal's copy).
 */
export async function recordedRoute(
  request: RecordedRequest,
  body: Uint8Array,
  subpath: string,
  proxy: ProxyAnswer,
  complete: CompleteAnswer,
): Promise<Route> {
  const redacted = redactedNames(proxy);
  const match: RequestFilter = { method: request.method, path: literalPattern(subpath) };
  const q = request.target.indexOf('?');
  if (q !== -1 && q < request.target.length - 1) {
    match.query = redactedQuery(parseQuery(new URLSearchParams(request.target.slice(q + 1))), redacted);
  }
  const sent = headerRecord(request.rawHeaders);
  const chosen: Record<string, string> = {};
  for (const name of proxy.matchHeaders ?? []) {
    const lower = name.toLowerCase();
    if (!redacted.has(lower) && Object.hasOwn(sent, lower)) chosen[lower] = sent[lower] as string;
  }
  if (Object.keys(chosen).length > 0) match.headers = chosen;
  // Bytes that are not UTF-8 are compared as their base64, as a route compares them (and the journal keeps them).
  const text = utf8Text(body, false) ?? toBase64(body);
  if (text !== '' || ['POST', 'PUT', 'PATCH'].includes(request.method)) match.body = text;

  const headers: AnswerHeaders = {};
  for (const [name, value] of complete.headers) {
    const lower = name.toLowerCase();
    // A secret is left out: a replay sending `set-cookie: <redacted>` would set a cookie of that text.
    if (FORBIDDEN_HEADERS.has(lower) || redacted.has(lower)) continue;
    // The moment of that answer: a replay sends its own `Date` (and no stale `Age`).
    if (FRESH_HEADERS.has(lower)) continue;
    const seen = headers[lower];
    headers[lower] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  const answer: RouteAnswer = { statusCode: complete.status };
  if (Object.keys(headers).length > 0) answer.headers = headers;
  if (!BODILESS_STATUS.has(complete.status) && request.method !== 'HEAD') {
    const type = headers['content-type'];
    Object.assign(answer, exactBody(complete.body, Array.isArray(type) ? type[0] : type));
  }
  const id = await recordingId([match.method, match.path, match.query ?? {}, chosen, text]);
  return { id, match, answer };
}
