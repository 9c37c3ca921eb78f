/**
 * Entity tags (RFC 9110 §8.8.3) of a JSON text, and `If-None-Match` read
 * against one: `/api`'s weak validators (http/api-encoding.ts) and a twin's
 * strong ones (GitHub's `ETag`, twin/twin-conditional.ts).
 *
 * @module
 */
import { toBase64Url } from './base64.js';
import { sha256Hex } from './sha256-hex.js';

function sha256(bytes: Uint8Array): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === opaque;
  });
}

/** A weak validator for a JSON text: the first 128 bits of its SHA-256. */
export async function weakEtag(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await sha256(bytes));
  return `W/"${toBase64Url(digest.subarray(0, 16))}"`;
}

/** A strong validator for a text, as GitHub writes one: its SHA-256 in hex, quoted. */
export async function strongEtag(text: string): Promise<string> {
  return `"${await sha256Hex(text)}"`;
}
