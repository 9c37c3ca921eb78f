import { describe, expect, it } from 'vitest';
import { compileValuePattern, valueMatches } from './value-pattern.js';

describe('value patterns (the filter regex form, Java syntax run by RE2)', () => {
  it('match the whole value, as Java matches() does', () => {
    expect(valueMatches({ matches: '[0-9]+' }, '42')).toBe(true);
    expect(valueMatches({ matches: '[0-9]+' }, 'a42')).toBe(false);
    expect(valueMatches({ doesNotMatch: '[0-9]+' }, 'a42')).toBe(true);
    expect(valueMatches({ doesNotMatch: '[0-9]+' }, '42')).toBe(false);
    expect(valueMatches({ matches: '.*' }, undefined)).toBe(false);
  });

  it("translate Java's POSIX classes and \\Z, and keep (?i), \\Q…\\E and named groups", () => {
    expect(valueMatches({ matches: '/files/\\p{Alpha}+\\.txt' }, '/files/abc.txt')).toBe(true);
    expect(valueMatches({ matches: '/files/\\p{Alpha}+\\.txt' }, '/files/a1.txt')).toBe(false);
    expect(valueMatches({ matches: '[\\p{Digit}x]+' }, '1x2')).toBe(true);
    expect(valueMatches({ matches: '\\P{Digit}+' }, 'ab')).toBe(true);
    expect(valueMatches({ matches: 'ab\\Z' }, 'ab\n')).toBe(true);
    expect(valueMatches({ matches: '(?i)/ci/path' }, '/CI/Path')).toBe(true);
    expect(valueMatches({ matches: '\\Q(?=x)\\E' }, '(?=x)')).toBe(true);
    expect(valueMatches({ matches: '(?<id>[a-z]+)-1' }, 'ab-1')).toBe(true);
  });

  it('refuse by name what RE2 cannot run, and bound the length', () => {
    expect(compileValuePattern('/la/(?!x).*')).toMatch(/^lookahead \(\?!…\) is not supported/);
    expect(compileValuePattern('(?<=a)b')).toMatch(/^lookbehind/);
    expect(compileValuePattern('(a)\\1')).toMatch(/^backreferences \(\\1\)/);
    expect(compileValuePattern('(?>a)')).toMatch(/^atomic groups/);
    expect(compileValuePattern('a*+')).toMatch(/^possessive quantifiers/);
    expect(compileValuePattern('[(?=]')).not.toBeTypeOf('string');
    expect(compileValuePattern('a'.repeat(1025))).toMatch(/longer than 1024/);
    expect(compileValuePattern('(')).toMatch(/missing closing \)/);
  });

  it('run in linear time on a pattern that backtracks exponentially in JavaScript', () => {
    expect(valueMatches({ matches: '(a+)+$' }, `${'a'.repeat(100_000)}!`)).toBe(false);
  });
});
