/**
 * SHA-256 of a text as lowercase hex: a namespace token's kept hash (http/namespace-token.ts) and
 * a twin's strong `ETag` (codec/etag.ts).
 *
 * @module
 */

/** `node:crypto`'s hashing where the runtime has it (Node, Bun, Deno), found at run time as signing/hmac.ts does. */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as
  | { createHash(algorithm: 'sha256'): { update(text: string): { digest(encoding: 'hex'): string } } }
  | undefined;

/**
 * SHA-256 of `text` as lowercase hex: `node:crypto` in place where there is one (Web Crypto's
 * digest hops to a thread pool and back: 2 ms of a session's creation, and 80 µs of each GitHub
 * twin answer's ETag, measured on Node 20), else Web Crypto (every runtime has it).
 */
export async function sha256Hex(text: string): Promise<string> {
  if (nodeCrypto !== undefined) return nodeCrypto.createHash('sha256').update(text).digest('hex');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
