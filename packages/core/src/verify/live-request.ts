/**
 * The example request `verify --upstream` replays for a route: a HAR request
 * the route would answer, else the newest recorded request it answered, else
 * one made from its `match` (method, a path without parameters, the exact
 * query and header values, the body given). Secrets never leave: headers that
 * carry credentials (the recording's always-redacted list, and any name with
 * `key`, `token`, `secret`, `auth`, `session`, `signature`, `password`,
 * `csrf`/`xsrf`) and the connection's own are dropped; only the user's
 * `headers` add them back.
 *
 * @module
 */

import type { JournalEntry } from '../api/journal-json.js';
import { ALWAYS_REDACTED } from '../api/proxy-answer.js';
import type { Route } from '../api/route.js';
import { fromBase64 } from '../codec/base64.js';
import { NOT_FORWARDED } from '../codec/hop-by-hop.js';
import { matchPathPattern, parsePathPattern, splitPath } from '../pattern/path-pattern.js';

/** A request to replay upstream, below the upstream's base URL. */
export interface ExampleRequest {
  method: string;
  /** The path below the upstream's base (`/pets/7`), as sent (percent-encoded). */
  subpath: string;
  /** The query string without `?` (empty: none). */
  query: string;
  headers: [string, string][];
  body: Uint8Array | null;
  /** Where it came from, for the report's notes. */
  from: 'har' | 'journal' | 'route';
}

/** Header names that may carry a credential. */
const SECRET =
  /(?:^|-)(?:api-?key|key|token|secret|auth\w*|session\w*|signature|password|passwd|csrf\w*|xsrf\w*)(?:-|$)/;
const DROPPED = new Set([...ALWAYS_REDACTED, ...NOT_FORWARDED, 'accept-encoding', 'cookie2']);

/** Whether a recorded header may be replayed: not a credential, not the connection's. */
export function replayable(name: string): boolean {
  const lower = name.toLowerCase();
  return !DROPPED.has(lower) && !SECRET.test(lower);
}

/** One HAR request (`log.entries[].request`), as far as verify reads it. */
export interface HarRequest {
  method: string;
  url: URL;
  headers: [string, string][];
  body: string | undefined;
}

/** The requests of a HAR document; malformed entries are left out. */
export function harRequests(har: unknown): HarRequest[] {
  const entries = (har as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) return [];
  const out: HarRequest[] = [];
  for (const entry of entries) {
    const request = (entry as { request?: Record<string, unknown> } | null)?.request;
    if (typeof request?.method !== 'string' || typeof request.url !== 'string') continue;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      continue;
    }
    const headers: [string, string][] = [];
    if (Array.isArray(request.headers)) {
      for (const header of request.headers as { name?: unknown; value?: unknown }[]) {
        if (typeof header?.name === 'string' && typeof header.value === 'string')
          headers.push([header.name, header.value]);
      }
    }
    const text = (request.postData as { text?: unknown } | undefined)?.text;
    out.push({ method: request.method.toUpperCase(), url, headers, body: typeof text === 'string' ? text : undefined });
  }
  return out;
}

/** Whether `route` would answer `method` at `subpath` by its method and path (the rest of its match not read). */
export function routeTakes(route: Route, method: string, subpath: string): boolean {
  const match = route.match;
  if (match?.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match?.path === undefined) return true;
  if (typeof match.path !== 'string') return false;
  try {
    return matchPathPattern(parsePathPattern(match.path), splitPath(subpath)) !== undefined;
  } catch {
    return false;
  }
}

function headersOf(pairs: Iterable<[string, string]>): [string, string][] {
  return [...pairs].filter(([name]) => replayable(name));
}

/** The HAR request's example, its path taken below `base` (the upstream's path). */
export function fromHar(request: HarRequest, base: string): ExampleRequest {
  const path = request.url.pathname;
  const subpath = base !== '' && path.startsWith(`${base}/`) ? path.slice(base.length) : path;
  const body = request.body === undefined || request.body === '' ? null : new TextEncoder().encode(request.body);
  return {
    method: request.method,
    subpath,
    query: request.url.search.slice(1),
    headers: headersOf(request.headers),
    body,
    from: 'har',
  };
}

/** A recorded request's example; a reason when it cannot be replayed as it was. */
export function fromJournal(entry: JournalEntry): ExampleRequest | { why: string } {
  if (entry.bodyTruncated) return { why: `journal #${entry.id}'s body was longer than the journal keeps` };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(entry.query)) {
    for (const one of Array.isArray(value) ? value : [value]) query.append(key, one);
  }
  const body =
    entry.body === ''
      ? null
      : entry.bodyEncoding === 'base64'
        ? (fromBase64(entry.body) ?? null)
        : new TextEncoder().encode(entry.body);
  return {
    method: entry.method,
    subpath: entry.subpath,
    query: query.toString(),
    headers: headersOf(Object.entries(entry.headers)),
    body,
    from: 'journal',
  };
}

/** The example a route's own `match` makes; a reason when it makes none (a path parameter, a regular expression). */
export function fromRoute(route: Route): ExampleRequest | { why: string } {
  const match = route.match ?? {};
  const path = match.path ?? '/';
  if (typeof path !== 'string')
    return { why: 'its path is a regular expression and no recorded or HAR request of it was found' };
  const pattern = parsePathPattern(path);
  if (pattern.wildcard || pattern.segments.some((segment) => !('literal' in segment))) {
    return { why: 'its path has parameters and no recorded or HAR request of it was found to fill them' };
  }
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(match.query ?? {})) {
    if (typeof value === 'string') query.append(key, value);
    else if (Array.isArray(value)) for (const one of value) query.append(key, one);
  }
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(match.headers ?? {}))
    if (typeof value === 'string') headers.push([name, value]);
  let body: Uint8Array | null = null;
  if (match.bodyEquals !== undefined) {
    // The whole JSON body the route wants (any `body` subset of it included).
    body = new TextEncoder().encode(JSON.stringify(match.bodyEquals));
    headers.push(['content-type', 'application/json']);
  } else if (match.body !== undefined) {
    const json = typeof match.body !== 'string';
    body = new TextEncoder().encode(json ? JSON.stringify(match.body) : (match.body as string));
    if (json) headers.push(['content-type', 'application/json']);
  }
  return {
    method: (match.method ?? 'GET').toUpperCase(),
    subpath: path,
    query: query.toString(),
    headers: headersOf(headers),
    body,
    from: 'route',
  };
}
