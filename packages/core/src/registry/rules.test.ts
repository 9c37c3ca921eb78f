import { describe, expect, it } from 'vitest';
import { isValidName, NAME_PATTERN } from './rules.js';

describe('isValidName', () => {
  it('takes exactly what NAME_PATTERN takes, for every character of the first 512 code points', () => {
    for (let code = 0; code < 512; code++) {
      const c = String.fromCharCode(code);
      for (const name of [c, `a${c}`, `${c}b`, `x${c}-y`]) {
        expect(isValidName(name), JSON.stringify(name)).toBe(NAME_PATTERN.test(name));
      }
    }
  });

  it('takes 1 to 64 characters and nothing shorter or longer', () => {
    expect(isValidName('')).toBe(false);
    expect(isValidName('a')).toBe(true);
    expect(isValidName('A-z_09'.padEnd(64, 'q'))).toBe(true);
    expect(isValidName('a'.repeat(65))).toBe(false);
  });

  it('refuses a name with a character beyond Latin-1 or a surrogate pair', () => {
    expect(isValidName('caf\u00e9')).toBe(false);
    expect(isValidName('a\u0161')).toBe(false);
    expect(isValidName('a\u{1F600}')).toBe(false);
  });
});
