/**
 * Base64 without Node's `Buffer` (the core runs on every runtime): standard
 * padded base64 (RFC 4648 §4), as every `bodyBase64`, a journal's binary body
 * and a base64 signature carry it, and the URL alphabet for ETags.
 *
 * @module
 */

/** 1 at the character codes of the standard base64 alphabet (A-Z a-z 0-9 + /). */
const ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') ALPHABET[c.charCodeAt(0)] = 1;

/**
 * True when `text` is standard padded base64 (the empty text included): whole
 * groups of four, the last one padded with `=` (`xx==` or `xxx=`). One pass over
 * the text, no regex: a backtracking pattern overflows the stack on a few MB.
 */
export function isBase64(text: string): boolean {
  const length = text.length;
  if (length % 4 !== 0) return false;
  const padding = length > 0 && text.charCodeAt(length - 1) === 61 ? (text.charCodeAt(length - 2) === 61 ? 2 : 1) : 0;
  const end = length - padding;
  for (let i = 0; i < end; i++) if (ALPHABET[text.charCodeAt(i)] !== 1) return false;
  return true;
}

/** Base64 with the URL alphabet (`-` and `_`) and no padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Node's `Buffer` where there is one (its base64 coders are native). */
const NodeBuffer = (
  globalThis as {
    Buffer?: {
      from(text: string, encoding: 'base64'): Uint8Array;
      from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
    };
  }
).Buffer;

/** From this length on, checked base64 is decoded, and bytes encoded, by `Buffer` where there is one. */
const NATIVE_FROM = 64 * 1024;

/**
 * Standard padded base64 of `bytes`; from {@link NATIVE_FROM} bytes on by Node's
 * native encoder where there is one (the same text: a 5 MiB delivery body took
 * ~260 ms of one event-loop turn in the slices below, a few ms natively).
 */
export function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined && bytes.length >= NATIVE_FROM) {
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * The bytes of base64 text checked before (a saved `bodyBase64`), as `atob`
 * reads it: short text throws on what `atob` refuses; long text is decoded
 * natively where Node's `Buffer` is (a 5 MiB body: ~5 ms, not ~25 ms), which
 * gives the same bytes for checked text. Unchecked text takes {@link fromBase64}.
 */
export function base64Bytes(text: string): Uint8Array {
  if (NodeBuffer !== undefined && text.length >= NATIVE_FROM) {
    const bytes = NodeBuffer.from(text, 'base64');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The bytes of standard padded base64, or `undefined` if the text is not that. */
export function fromBase64(text: string): Uint8Array | undefined {
  return isBase64(text) ? base64Bytes(text) : undefined;
}

/** The bytes of standard padded base64 as `latin1` text (one character per byte), or `undefined` if the text is not that. */
export function latin1FromBase64(text: string): string | undefined {
  return isBase64(text) ? atob(text) : undefined;
}
