/**
 * The body a `close` fault sends (see `Fault` in `answer-json.ts`): written
 * once, for the sinks that send it and the journal that shows it.
 *
 * @module
 */

const encoder = new TextEncoder();

/** The bytes of `body` that `close` sends before closing: the first half, so the client sees a cut body. */
export function truncatedBody(body: string | Uint8Array | null): Uint8Array {
  if (body === null) return new Uint8Array(0);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return bytes.subarray(0, Math.floor(bytes.byteLength / 2));
}
