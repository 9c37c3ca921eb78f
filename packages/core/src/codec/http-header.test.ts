// headerSafeText encodes runs of characters at once: the same text as encoding
// each character on its own (the definition, written out here), over random
// strings of every kind of code point, for text and for a request header's bytes.
import { describe, expect, it } from 'vitest';
import { headerSafeText, isHeaderName, isToken } from './http-header.js';

/** The definition: each character past tab, space and visible ASCII percent-encoded on its own. */
function oneByOne(text: string, bytes: boolean): string {
  let out = '';
  for (const character of text) {
    if (/[\t\x20-\x7e]/.test(character)) out += character;
    else if (bytes && character.length === 1 && character.charCodeAt(0) <= 0xff)
      out += `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    else
      for (const byte of new TextEncoder().encode(character))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A seeded generator (mulberry32), so a failure names a string that can be made again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RANGES: [number, number][] = [
  [0x00, 0x1f], // C0 controls
  [0x20, 0x7e], // visible ASCII
  [0x7f, 0xff], // DEL, C1, Latin-1
  [0x2028, 0x2029],
  [0x20ac, 0x20ac],
  [0xd800, 0xdfff], // lone surrogates
  [0x1f600, 0x1f64f], // astral
];

describe('headerSafeText', () => {
  it.each([false, true])(
    'matches the character-by-character definition on 2,000 random strings (bytes: %s)',
    (bytes) => {
      const next = random(bytes ? 7 : 31);
      for (let i = 0; i < 2000; i++) {
        let text = '';
        const length = Math.floor(next() * 24);
        for (let j = 0; j < length; j++) {
          const [low, high] = RANGES[Math.floor(next() * RANGES.length)] as [number, number];
          text += String.fromCodePoint(low + Math.floor(next() * (high - low + 1)));
        }
        expect([text, headerSafeText(text, bytes)]).toEqual([text, oneByOne(text, bytes)]);
      }
    },
  );

  it('encodes the examples the docs give', () => {
    expect(headerSafeText('/items/€')).toBe('/items/%E2%82%AC');
    expect(headerSafeText('a\u2028b')).toBe('a%E2%80%A8b');
    expect(headerSafeText('x\r\ny')).toBe('x%0D%0Ay');
    expect(headerSafeText('\ud800')).toBe('%EF%BF%BD');
    expect(headerSafeText('caf\u00c3\u00a9', true)).toBe('caf%C3%A9');
    expect(headerSafeText('100% plain')).toBe('100% plain');
  });
});

describe('isToken and isHeaderName: the one RFC 9110 token rule', () => {
  it('takes every token character', () => {
    expect(isToken("!#$%&'*+-.^_`|~09AZaz")).toBe(true);
    expect(isHeaderName('X-Request-Id')).toBe(true);
    expect(isToken('chat.v1')).toBe(true);
  });

  it('refuses separators, white space, non-ASCII and the empty text', () => {
    for (const text of ['', 'a b', 'a:b', 'a,b', '(a)', 'a"b', 'a/b', 'é', 'a\tb']) {
      expect(isToken(text), text).toBe(false);
      expect(isHeaderName(text), text).toBe(false);
    }
  });
});
