import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from './json-text.js';
import { jsonValueOf } from './json-value.js';

describe('jsonValueOf', () => {
  it('parses one JSON value, null and false included', () => {
    expect(jsonValueOf('{"a":[1,"x"]}')).toEqual({ a: [1, 'x'] });
    expect(jsonValueOf(' null ')).toBeNull();
    expect(jsonValueOf('false')).toBe(false);
  });

  it('is undefined for empty text and text that is not JSON', () => {
    expect(jsonValueOf('')).toBeUndefined();
    expect(jsonValueOf('{"a":')).toBeUndefined();
    expect(jsonValueOf('hello')).toBeUndefined();
  });

  it('is undefined for JSON nested deeper than MAX_JSON_DEPTH, and parses it at that depth', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(jsonValueOf(nested(MAX_JSON_DEPTH + 1))).toBeUndefined();
    expect(jsonValueOf(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    // Brackets inside strings do not count.
    expect(jsonValueOf(JSON.stringify('['.repeat(MAX_JSON_DEPTH + 1)))).toBe('['.repeat(MAX_JSON_DEPTH + 1));
  });
});
