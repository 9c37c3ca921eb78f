/**
 * The size of a text once encoded as UTF-8, counted without encoding it: what
 * Content-Length, the journal's limit and the stores' byte bounds measure.
 *
 * @module
 */

/** A character past ASCII: a text without one is as many bytes as characters. */
const NON_ASCII = /[\u0080-\uffff]/;

/** Every character past ASCII, one at a time: the native scan jumps over the ASCII between them. */
const NON_ASCII_EACH = /[\u0080-\uffff]/g;

/** Past this many characters past ASCII, the rest is counted by the loop (dense text: the loop is faster). */
const SPARSE_MOST = 4096;

/**
 * The runtime's own count where it has one (Node's, Bun's and Deno's `Buffer.byteLength`): a
 * regular expression over a 15 MB text runs in V8's interpreter again each time a full garbage
 * collection flushed its code (300-500 ms), the count 2 ms.
 */
const nativeLength = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer
  ?.byteLength;

/** Texts from this many characters on are counted by {@link nativeLength} where there is one. */
const NATIVE_FROM = 64 * 1024;

/** Bytes of `text` once encoded as UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  if (nativeLength !== undefined && text.length >= NATIVE_FROM) return nativeLength(text, 'utf8');
  // The regular expression scans natively, many times faster than the loop below (a 2.7 MB list: 55 -> 2 ms).
  const first = text.length > 64 ? text.search(NON_ASCII) : 0;
  if (first === -1) return text.length;
  let bytes = text.length;
  let from = first;
  // A long text with a few characters past ASCII (a 15 MB answer with one in each object: 200 ms
  // in the loop) is counted from one to the next by the native scan.
  if (text.length > 64) {
    NON_ASCII_EACH.lastIndex = first;
    let seen = 0;
    for (let found = NON_ASCII_EACH.exec(text); found !== null; found = NON_ASCII_EACH.exec(text)) {
      const i = found.index;
      const c = text.charCodeAt(i);
      if (c < 0x800) bytes += 1;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        bytes += 2;
        // A surrogate pair is 2 code units and 4 bytes.
        if (next >= 0xdc00 && next <= 0xdfff) NON_ASCII_EACH.lastIndex = i + 2;
      } else bytes += 2;
      if (++seen >= SPARSE_MOST) {
        from = NON_ASCII_EACH.lastIndex;
        break;
      }
    }
    if (seen < SPARSE_MOST) return bytes;
  }
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair is 2 code units and 4 bytes.
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2;
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
