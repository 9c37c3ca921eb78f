import { describe, expect, it } from 'vitest';
import { urlPart } from './url-part.js';

describe('urlPart', () => {
  it('encodes as encodeURIComponent does, a lone surrogate as U+FFFD instead of throwing', () => {
    expect(urlPart('needs triage/ü')).toBe(encodeURIComponent('needs triage/ü'));
    expect(urlPart('a\u{1F600}b')).toBe(encodeURIComponent('a\u{1F600}b'));
    expect(() => encodeURIComponent('x\uD9C0y')).toThrow(URIError);
    expect(urlPart('x\uD9C0y')).toBe('x%EF%BF%BDy');
    expect(urlPart('\uDC49!')).toBe('%EF%BF%BD!');
  });
});
