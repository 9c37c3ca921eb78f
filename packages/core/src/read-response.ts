/**
 * What a read of `/endpoint/{name}` answers with, shared by the Hono route and
 * the Node fast path so both send the same status, headers and bytes.
 *
 * @module
 */
import type { CachedResponse } from './cache.js';

/** HTTP forbids a body with these statuses. */
export const BODILESS_STATUS: ReadonlySet<number> = new Set([204, 205, 304]);

/** CORS is open on `/endpoint/*` so browser clients can call it. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
} as const;

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS } as const;

const encoder = new TextEncoder();
const prepared = new WeakMap<CachedResponse, Record<string, string>>();

/**
 * The response headers for a cached endpoint, with its Content-Length; built
 * once per cache entry (entries are immutable: a write makes a new one).
 */
export function readHeaders(entry: CachedResponse): Record<string, string> {
  let headers = prepared.get(entry);
  if (headers === undefined) {
    headers = BODILESS_STATUS.has(entry.statusCode)
      ? { ...CORS_HEADERS }
      : { ...JSON_HEADERS, 'content-length': String(encoder.encode(entry.body).byteLength) };
    prepared.set(entry, headers);
  }
  return headers;
}

/** A JSON response with the charset every mockpoint body declares. */
export function jsonResponse(body: unknown, status = 200): Response {
  return jsonTextResponse(JSON.stringify(body), status);
}

/** {@link jsonResponse} for text that is JSON already (e.g. a record with its exact `data`). */
export function jsonTextResponse(text: string, status = 200): Response {
  return new Response(text, { status, headers: { 'content-type': JSON_HEADERS['content-type'] } });
}
