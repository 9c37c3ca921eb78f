/**
 * Headers and JSON responses shared by the routes and the `/endpoint/{name}` answers.
 *
 * @module
 */

/** HTTP forbids a body with these statuses. */
export const BODILESS_STATUS: ReadonlySet<number> = new Set([204, 205, 304]);

/** CORS is open on `/endpoint/*` so browser clients can call it. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
} as const;

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS } as const;

/** A JSON response with the charset every mockpoint body declares. */
export function jsonResponse(body: unknown, status = 200): Response {
  return jsonTextResponse(JSON.stringify(body), status);
}

/** {@link jsonResponse} for text that is JSON already (e.g. a record with its exact `data`). */
export function jsonTextResponse(text: string, status = 200): Response {
  return new Response(text, { status, headers: { 'content-type': JSON_HEADERS['content-type'] } });
}
