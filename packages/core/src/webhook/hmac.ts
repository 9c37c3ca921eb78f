/**
 * The byte-level parts of webhook signing: HMAC through Web Crypto (so it runs
 * on Node, Bun, Deno and workerd alike), hex and base64 without `Buffer`, and a
 * comparison that does not stop at the first differing byte.
 *
 * @module
 */

/** The hash functions a signature scheme may use. */
export const HMAC_ALGORITHMS = { sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' } as const;

/** A hash function name as a scheme spells it: `sha256`, `sha1` or `sha512`. */
export type HmacAlgorithm = keyof typeof HMAC_ALGORITHMS;

/** The HMAC of `data` under `key`, computed by `crypto.subtle`. */
export async function hmac(algorithm: HmacAlgorithm, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: HMAC_ALGORITHMS[algorithm] },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, data as Uint8Array<ArrayBuffer>));
}

/**
 * True when both byte strings are equal. Every byte is looked at whatever the
 * earlier ones were, so the time taken does not tell an attacker how much of a
 * guessed signature was right. (Lengths are public: signatures have fixed sizes.)
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** The bytes of `parts` one after the other. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const utf8 = new TextEncoder();

/** The UTF-8 bytes of a string. */
export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** The bytes of a hex string (either case), or `undefined` if it is not hex. */
export function fromHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Standard (padded) base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of standard padded base64, or `undefined` if the text is not that. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
