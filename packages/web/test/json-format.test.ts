/**
 * The page's JSON pretty-printer (run in Node): it changes whitespace only, so
 * every number, escape and key keeps its text and its place.
 */
import { scanJson } from '@mockpoint/core/client';
import { describe, expect, test } from 'vitest';
import { formatJson, formatJsonSlices } from '../src/json-format.js';

describe('formatJson', () => {
  test('indents by two spaces, one member or element a line, empty containers kept short', () => {
    expect(formatJson('{"a":[1,{"b":null}],"c":{},"d":[ ]}')).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {},\n  "d": []\n}',
    );
    expect(formatJson(' 42 ')).toBe('42');
    expect(formatJson('"x"')).toBe('"x"');
  });

  test('keeps every token as written: big integers, 1.0, -0, 1e400, escapes, key order', () => {
    const text =
      '{"2":"two","b":12345678901234567890,"f":1.0,"z":-0,"e":1E+400,"u":"\\u00e9\\ud83d\\ude00\\"\\\\","s":"a, b: {c} [d]"}';
    const pretty = formatJson(text);
    expect(pretty).toBe(
      [
        '{',
        '  "2": "two",',
        '  "b": 12345678901234567890,',
        '  "f": 1.0,',
        '  "z": -0,',
        '  "e": 1E+400,',
        '  "u": "\\u00e9\\ud83d\\ude00\\"\\\\",',
        '  "s": "a, b: {c} [d]"',
        '}',
      ].join('\n'),
    );
    // Only whitespace outside strings changed.
    expect(scanJson(pretty).text).toBe(text);
  });

  test('re-formats already formatted or oddly spaced text to the same result', () => {
    const odd = '\t[ 1 ,\r\n 2.50 ,{ "k" :\n"v" } ]\n';
    const once = formatJson(odd);
    expect(once).toBe('[\n  1,\n  2.50,\n  {\n    "k": "v"\n  }\n]');
    expect(formatJson(once)).toBe(once);
  });

  test('a large document keeps its tokens', () => {
    const text = `[${Array.from({ length: 50_000 }, (_, i) => `{"id":${10n ** 20n + BigInt(i)},"v":"${i}"}`).join(',')}]`;
    const pretty = formatJson(text);
    expect(scanJson(pretty).text).toBe(text);
    expect(pretty.split('\n')).toHaveLength(50_000 * 4 + 2);
  });
});

describe('formatJsonSlices', () => {
  const text = JSON.stringify({
    items: Array.from({ length: 50 }, (_, i) => ({ id: i, tags: ['a', []], o: {} })),
  }).replace('"id":7', '"id":12345678901234567890');
  test.each([1, 7, 64, 1000, Number.POSITIVE_INFINITY])('slices of %s characters join to formatJson', (size) => {
    const slices = [...formatJsonSlices(text, size)];
    expect(slices.join('')).toBe(formatJson(text));
    if (size === 64) expect(slices.length).toBeGreaterThan(10);
  });

  test('a text cut short is laid out as far as it goes', () => {
    expect([...formatJsonSlices('{"a": [1, 2, "x', 100)].join('')).toBe('{\n  "a": [\n    1,\n    2,\n    "x');
  });
});
