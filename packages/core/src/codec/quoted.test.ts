import { describe, expect, it } from 'vitest';
import { quoted } from './quoted.js';

describe('quoted', () => {
  it('quotes printable ASCII as JSON does', () => {
    expect(quoted('api.github.com', 64)).toBe('"api.github.com"');
    expect(quoted('say "hi"\\', 64)).toBe('"say \\"hi\\"\\\\"');
  });

  it('escapes line breaks, U+2028, C1 controls, bidi overrides and anything else past ASCII', () => {
    expect(quoted('a\nb\u2028c\u0085d\u202ee\u00e9', 64)).toBe('"a\\nb\\u2028c\\u0085d\\u202ee\\u00e9"');
  });

  it('keeps at most max characters', () => {
    expect(quoted('x'.repeat(10), 4)).toBe('"xxxx"');
  });
});
