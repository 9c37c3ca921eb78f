/**
 * Reading request bodies under a byte limit that holds for chunked bodies too,
 * not only for a declared Content-Length.
 *
 * @module
 */
import { MockpointError } from './errors.js';

function tooLarge(maxBytes: number): MockpointError {
  return new MockpointError('BODY_TOO_LARGE', `request body is larger than the limit of ${maxBytes} bytes`);
}

/**
 * Reads the whole body as bytes, failing with `BODY_TOO_LARGE` as soon as more
 * than `maxBytes` arrive (the rest of the stream is cancelled, not buffered).
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const decoder = new TextDecoder();

/** Reads the body as UTF-8 text under the limit. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return decoder.decode(await readBodyBytes(request, maxBytes));
}

/**
 * Reads the body and parses it as JSON whatever its Content-Type says, so a bare
 * `curl -X PUT -d '{...}'` works.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === '') throw new MockpointError('INVALID_JSON', 'request body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MockpointError('INVALID_JSON', `request body is not valid JSON: ${(error as Error).message}`);
  }
}
