/**
 * Text files read as strict UTF-8: a byte sequence that is not UTF-8 is an
 * error naming its offset, never U+FFFD (the admin API refuses such bodies with
 * `INVALID_UTF8`; a mock file or a `$file` fixture is refused the same way).
 *
 * @module
 */
import { utf8Text } from '../codec/utf8.js';

/** Bytes that are not UTF-8; `offset` is the first byte of the bad sequence. */
export class InvalidUtf8Error extends Error {
  override readonly name = 'InvalidUtf8Error';
  readonly offset: number;
  constructor(offset: number) {
    super(`byte ${offset} is not valid UTF-8`);
    this.offset = offset;
  }
}

/**
 * The text of `bytes` (a leading byte-order mark dropped, as {@link utf8Text} does).
 * @throws InvalidUtf8Error at the first byte that is not part of a UTF-8 sequence
 */
export function decodeStrictUtf8(bytes: Uint8Array): string {
  const text = utf8Text(bytes);
  if (text === undefined) throw new InvalidUtf8Error(firstInvalid(bytes));
  return text;
}

/** The offset of the first ill-formed sequence (RFC 3629: no overlongs, surrogates or values past U+10FFFF). */
function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) min = 0xa0;
      if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) min = 0x90;
      if (b === 0xf4) max = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (c === undefined || c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
