import { describe, expect, it } from 'vitest';
import { jsonTooDeep, MAX_JSON_DEPTH } from './body.js';

describe('jsonTooDeep', () => {
  const nest = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('counts object and array nesting up to the limit', () => {
    expect(MAX_JSON_DEPTH).toBe(512);
    expect(jsonTooDeep(nest(512))).toBe(false);
    expect(jsonTooDeep(nest(513))).toBe(true);
    expect(jsonTooDeep('[[[1]]]', 2)).toBe(true);
    expect(jsonTooDeep('[[1],[2],[3]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeep('["[[[[", "{{{{"]', 1)).toBe(false);
    expect(jsonTooDeep('["\\"[[[[\\""]', 1)).toBe(false);
    expect(jsonTooDeep('["\\\\", [[1]]]', 2)).toBe(true);
  });
});
