import { describe, expect, it } from 'vitest';
import { utf8Text, utf8TextKeepingBom } from './utf8.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('utf8Text', () => {
  it('decodes UTF-8', () => {
    expect(utf8Text(new TextEncoder().encode('café €'))).toBe('café €');
    expect(utf8Text(bytes())).toBe('');
  });

  it('is undefined for bytes that are not UTF-8, never U+FFFD', () => {
    expect(utf8Text(bytes(0x61, 0xff, 0x62))).toBeUndefined();
    // An overlong encoding of '/', and a surrogate (U+D800) encoded as UTF-8.
    expect(utf8Text(bytes(0xc0, 0xaf))).toBeUndefined();
    expect(utf8Text(bytes(0xed, 0xa0, 0x80))).toBeUndefined();
  });

  it('refuses a character cut in half at the end, unless the bytes were truncated', () => {
    const cut = bytes(0x61, 0xe2, 0x82); // 'a' and the first two bytes of '€'
    expect(utf8Text(cut)).toBeUndefined();
    expect(utf8Text(cut, true)).toBe('a');
    expect(utf8Text(bytes(0xff, 0x61), true)).toBeUndefined();
  });

  it('drops a leading byte-order mark', () => {
    expect(utf8Text(bytes(0xef, 0xbb, 0xbf, 0x61))).toBe('a');
  });

  it('keeps no state between calls', () => {
    expect(utf8Text(bytes(0x61, 0xe2), true)).toBe('a');
    expect(utf8Text(bytes(0x82, 0xac))).toBeUndefined();
  });
});

describe('utf8TextKeepingBom', () => {
  it('keeps a leading byte-order mark and refuses what is not UTF-8', () => {
    expect(utf8TextKeepingBom(bytes(0xef, 0xbb, 0xbf, 0x61))).toBe('\uFEFFa');
    expect(utf8TextKeepingBom(bytes(0x61, 0xff))).toBeUndefined();
  });
});
