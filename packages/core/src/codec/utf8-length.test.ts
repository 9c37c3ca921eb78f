import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8-length.js';

/** What Node's own encoder counts (lone surrogates as U+FFFD, 3 bytes). */
const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('counts as the encoder does: ASCII, 2, 3 and 4 byte characters, lone surrogates, short and long', () => {
    const parts = ['a', 'é', '€', '😀', '\ud800', '\udc00', '\ud800x', 'x'.repeat(100)];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 300; round++) {
      const length = next() % 400;
      let text = '';
      for (let i = 0; i < length; i++) text += parts[next() % parts.length];
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoded(text));
    }
  });

  it('counts a long text with a few characters past ASCII, and one with many (past the sparse scan)', () => {
    const sparse = `${'x'.repeat(100_000)}é${'y'.repeat(100_000)}😀z`;
    expect(utf8Length(sparse)).toBe(encoded(sparse));
    const dense = `${'ab€'.repeat(5_000)}😀${'é'.repeat(3)}`;
    expect(utf8Length(dense)).toBe(encoded(dense));
  });
});
