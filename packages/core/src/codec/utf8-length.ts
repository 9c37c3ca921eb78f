/**
 * The size of a text once encoded as UTF-8, counted without encoding it: what
 * Content-Length, the journal's limit and the stores' byte bounds measure.
 *
 * @module
 */

/** A character past ASCII: a text without one is as many bytes as characters. */
const NON_ASCII = /[\u0080-\uffff]/;

/** Bytes of `text` once encoded as UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  // The regular expression scans natively, many times faster than the loop below (a 2.7 MB list: 55 -> 2 ms).
  const first = text.length > 64 ? text.search(NON_ASCII) : 0;
  if (first === -1) return text.length;
  let bytes = text.length;
  for (let i = first; i < text.length; i++) {
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
