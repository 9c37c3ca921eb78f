/**
 * Reading request bodies under a byte limit that holds for chunked bodies too,
 * not only for a declared Content-Length, and parsing them as JSON.
 *
 * @module
 */
import { MockpointError } from './errors.js';

/** JSON nested deeper than this is refused: it cannot be stored, copied or serialised safely. */
export const MAX_JSON_DEPTH = 512;

function tooLarge(maxBytes: number): MockpointError {
  return new MockpointError('BODY_TOO_LARGE', `request body is larger than the limit of ${maxBytes} bytes`);
}

/**
 * Reads at most `limit` bytes of the body. When more arrive, `truncated` is true
 * and the rest is read and dropped (never buffered) up to `drainLimit` bytes in
 * all, so the connection can carry the next request; past that the stream is
 * cancelled.
 */
export async function readBodyPrefix(
  request: Request,
  limit: number,
  drainLimit: number = limit,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  // `request.body` rather than Content-Length: a Request built in-process
  // (`app.request()`, the client's `app` option) carries a body without one.
  if (request.body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (kept < limit) {
      const take = Math.min(value.byteLength, limit - kept);
      chunks.push(take === value.byteLength ? value : value.subarray(0, take));
      kept += take;
    }
    if (seen > drainLimit || (seen > limit && drainLimit <= limit)) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const truncated = seen > limit;
  if (chunks.length === 1) return { bytes: chunks[0] as Uint8Array, truncated };
  const bytes = new Uint8Array(kept);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

/**
 * Reads the whole body as bytes, failing with `BODY_TOO_LARGE` as soon as more
 * than `maxBytes` arrive.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  const { bytes, truncated } = await readBodyPrefix(request, maxBytes);
  if (truncated) throw tooLarge(maxBytes);
  return bytes;
}

const decoder = new TextDecoder();

/** Reads the body as UTF-8 text under the limit. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return decoder.decode(await readBodyBytes(request, maxBytes));
}

/**
 * True when `text` (JSON) nests arrays/objects deeper than `max`. A linear scan
 * that skips strings, so it costs no parsing and no recursion.
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/**
 * Reads the body and parses it as JSON whatever its Content-Type says, so a bare
 * `curl -X PUT -d '{...}'` works.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === '') throw new MockpointError('INVALID_JSON', 'request body is empty; send a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new MockpointError('INVALID_JSON', `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (jsonTooDeep(text)) {
    throw new MockpointError('INVALID_BODY', `request body nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return parsed;
}
