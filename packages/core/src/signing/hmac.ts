/**
 * The byte-level parts of webhook signing: HMAC through `node:crypto` where the
 * runtime has it and Web Crypto elsewhere (so it runs on Node, Bun, Deno and
 * workerd alike), hex without `Buffer` (base64 is codec/base64.ts), and a
 * comparison that does not stop at the first differing byte.
 *
 * @module
 */

/** The hash functions a signature scheme may use. */
export const HMAC_ALGORITHMS = { sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' } as const;

/** A hash function name as a scheme spells it: `sha256`, `sha1` or `sha512`. */
export type HmacAlgorithm = keyof typeof HMAC_ALGORITHMS;

/** The part of `node:crypto` used here. */
interface NodeHmac {
  createSecretKey(key: Uint8Array): object;
  createHmac(algorithm: string, key: object): NodeHmacState;
  /** One-shot hashing (Node 20.12+, 21.7+): one call, no hash object. */
  hash?(algorithm: string, data: Uint8Array, outputEncoding: 'latin1'): string;
}

interface NodeHmacState {
  update(data: Uint8Array | string): NodeHmacState;
  digest(encoding: 'latin1'): string;
}

/**
 * `node:crypto` where the runtime has it (Node, Bun, Deno), found at run time
 * through `process.getBuiltinModule` so this module imports nothing from `node:`
 * and still runs on Workers. Its HMAC is computed in place, where `crypto.subtle`
 * hops to a thread pool and back: on the webhook POST path that hop cost half the
 * requests per second.
 */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeHmac | undefined;

/** The block size of each hash function (bytes): the HMAC key is padded to it. */
const BLOCK_BYTES: Readonly<Record<HmacAlgorithm, number>> = { sha1: 64, sha256: 64, sha512: 128 };

/** Contents up to this size are MACed by two one-shot hashes; longer ones stream through `createHmac`. */
const ONE_SHOT_MAX_BYTES = 64 * 1024;

const keyObjects = new WeakMap<Uint8Array, object>();

/** The HMAC of `data` under `key`: `node:crypto` where there is one, else `crypto.subtle`. */
export async function hmac(algorithm: HmacAlgorithm, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  return hmacNow(algorithm, key, '', data) ?? subtleHmac(algorithm, key, data);
}

/**
 * The HMAC of `prefix` (as UTF-8) followed by `body` under `key`, computed at
 * once by `node:crypto`; `undefined` where the runtime has none (then {@link hmac}
 * is the way). Without a promise, a checked request can be answered in the same
 * turn as an unchecked one.
 */
export function hmacNow(
  algorithm: HmacAlgorithm,
  key: Uint8Array,
  prefix: string,
  body: Uint8Array,
): Uint8Array | undefined {
  const mac = macNow(algorithm, key, prefix, body);
  return mac === undefined ? undefined : latin1Bytes(mac);
}

/**
 * {@link hmacNow} as a `latin1` string (one character per byte), as the webhook
 * check compares it: no byte array is made for it. `undefined` where the runtime
 * has no `node:crypto`.
 */
export function macNow(
  algorithm: HmacAlgorithm,
  key: Uint8Array,
  prefix: string,
  body: Uint8Array,
): string | undefined {
  if (nodeCrypto === undefined) return undefined;
  const hash = nodeCrypto.hash;
  if (hash !== undefined && body.length + prefix.length <= ONE_SHOT_MAX_BYTES && isAscii(prefix)) {
    return oneShotHmac(hash, algorithm, key, prefix, body);
  }
  // A key object made once per key array (callers reuse the arrays of their secrets).
  let secret = keyObjects.get(key);
  if (secret === undefined) {
    secret = nodeCrypto.createSecretKey(key);
    keyObjects.set(key, secret);
  }
  const state = nodeCrypto.createHmac(algorithm, secret);
  if (prefix !== '') state.update(prefix);
  return state.update(body).digest('latin1');
}

/** A key's HMAC pads for one hash function: the inner pad block, and the outer one with room for the inner digest. */
interface Pads {
  inner: Uint8Array;
  outer: Uint8Array;
}

const padsByKey = new WeakMap<Uint8Array, Partial<Record<HmacAlgorithm, Pads>>>();

/** The pads used last, so a run of requests checked with one secret looks nothing up. */
let lastKey: Uint8Array | undefined;
let lastAlgorithm: HmacAlgorithm | undefined;
let lastPads: Pads | undefined;

function padsOf(hash: NonNullable<NodeHmac['hash']>, algorithm: HmacAlgorithm, key: Uint8Array): Pads {
  if (key === lastKey && algorithm === lastAlgorithm) return lastPads as Pads;
  let byAlgorithm = padsByKey.get(key);
  if (byAlgorithm === undefined) {
    byAlgorithm = {};
    padsByKey.set(key, byAlgorithm);
  }
  let pads = byAlgorithm[algorithm];
  if (pads === undefined) {
    const block = BLOCK_BYTES[algorithm];
    // RFC 2104: a key longer than the block is hashed first; then zero-padded to the block.
    const padded = new Uint8Array(block);
    padded.set(key.length > block ? latin1Bytes(hash(algorithm, key, 'latin1')) : key);
    const digestBytes = hash(algorithm, new Uint8Array(0), 'latin1').length;
    pads = { inner: new Uint8Array(block), outer: new Uint8Array(block + digestBytes) };
    for (let i = 0; i < block; i++) {
      pads.inner[i] = (padded[i] as number) ^ 0x36;
      pads.outer[i] = (padded[i] as number) ^ 0x5c;
    }
    byAlgorithm[algorithm] = pads;
  }
  lastKey = key;
  lastAlgorithm = algorithm;
  lastPads = pads;
  return pads;
}

/** Reused for the inner hash's input (inner pad, prefix, body); grown as needed up to {@link ONE_SHOT_MAX_BYTES}. */
let scratch = new Uint8Array(4096);
/** The inner hash's input: `scratch` up to its length, kept while inputs keep that length (a view costs an allocation). */
let input = scratch.subarray(0, 0);
/** Whose inner pad `scratch` begins with now. */
let scratchPads: Pads | undefined;

/**
 * HMAC (RFC 2104) as two one-shot hashes over the key's prepared pads: about a
 * third of the CPU of a `createHmac` object for a small body (no hash object,
 * no OpenSSL HMAC context per call, no Buffer). `prefix` is ASCII.
 */
function oneShotHmac(
  hash: NonNullable<NodeHmac['hash']>,
  algorithm: HmacAlgorithm,
  key: Uint8Array,
  prefix: string,
  body: Uint8Array,
): string {
  const pads = padsOf(hash, algorithm, key);
  const block = pads.inner.length;
  const length = block + prefix.length + body.length;
  if (scratch.length < length) {
    scratch = new Uint8Array(Math.max(length, scratch.length * 2));
    input = scratch.subarray(0, 0);
    scratchPads = undefined;
  }
  if (input.length !== length) input = scratch.subarray(0, length);
  if (scratchPads !== pads) {
    scratch.set(pads.inner, 0);
    scratchPads = pads;
  }
  for (let i = 0; i < prefix.length; i++) scratch[block + i] = prefix.charCodeAt(i);
  scratch.set(body, block + prefix.length);
  const inner = hash(algorithm, input, 'latin1');
  const outer = pads.outer;
  for (let i = 0; i < inner.length; i++) outer[block + i] = inner.charCodeAt(i);
  return hash(algorithm, outer, 'latin1');
}

/** The bytes of a string whose characters are all below 256 (a `latin1` digest). */
function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** The HMAC of `data` under `key`, computed by `crypto.subtle` (every runtime has it). */
export async function subtleHmac(algorithm: HmacAlgorithm, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
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
 * True when `a` and `b`, byte strings as `latin1` text (a MAC, a decoded
 * signature), are equal. Every character is looked at whatever the earlier ones
 * were, so the time taken does not tell an attacker how much of a guessed
 * signature was right. (Lengths are public: signatures have fixed sizes.)
 */
export function latin1Equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * True when `text` from index `at` on is hex (either case) spelling the bytes of
 * `mac` (`latin1` text), every digit looked at as in {@link latin1Equal}: the
 * signature is compared where it lies in the header, without cutting it out or
 * decoding it into an array first. Text that is not hex never matches.
 */
export function hexSpells(mac: string, text: string, at = 0): boolean {
  if (text.length - at !== mac.length * 2) return false;
  let difference = 0;
  for (let i = 0; i < mac.length; i++) {
    // A digit that is not hex (-1) sets bits no byte has: never equal.
    const byte = (hexDigit(text.charCodeAt(at + 2 * i)) << 4) | hexDigit(text.charCodeAt(at + 2 * i + 1));
    difference |= byte ^ mac.charCodeAt(i);
  }
  return difference === 0;
}

/** `bytes` as `latin1` text, one character per byte (a MAC from `crypto.subtle`, to compare like {@link macNow}'s). */
export function latin1Text(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i] as number);
  return text;
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

/** The value of one hex digit's character code, or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}
