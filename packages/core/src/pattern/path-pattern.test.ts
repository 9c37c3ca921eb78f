// Segments with several parameters and literal text between them
// (`/compare/:base...:head`, `/files/:name.json`): each parameter takes a
// non-empty run of its segment, as short as the literal after it allows;
// a pattern that cannot say where a parameter ends is refused at save.
import { describe, expect, it } from 'vitest';
import {
  explainPathMismatch,
  MAX_MIXED_SEGMENT,
  matchingPrefix,
  matchPathPattern,
  PathPatternError,
  parsePathPattern,
} from './path-pattern.js';

function params(pattern: string, path: string): Record<string, string> | undefined {
  return matchPathPattern(parsePathPattern(pattern), path.split('/').slice(1));
}

describe('a segment with several parameters', () => {
  it.each([
    ['/compare/:base...:head', '/compare/main...feature', { base: 'main', head: 'feature' }],
    // Non-greedy: the first "..." after one character ends :base; the rest is :head's.
    ['/compare/:base...:head', '/compare/a...b...c', { base: 'a', head: 'b...c' }],
    ['/compare/:base...:head', '/compare/....x', { base: '.', head: 'x' }],
    ['/files/:name.json', '/files/a.b.json', { name: 'a.b' }],
    ['/v/:major.:minor', '/v/1.2.3', { major: '1', minor: '2.3' }],
    ['/r/%76:major-:minor.txt', '/r/v10-2.txt', { major: '10', minor: '2' }],
    // A `:` right after a literal name character is literal: Google-style custom methods keep their colons.
    ['/v1/items:batchGet', '/v1/items:batchGet', {}],
    ['/r/v:major', '/r/v:major', {}],
    ['/x/:a%3Acancel', '/x/job:cancel', { a: 'job' }],
    ['/x/:a-:b-:c', '/x/1-2-3-4', { a: '1', b: '2', c: '3-4' }],
    ['/p/:id-x', '/p/7-x', { id: '7' }],
  ])('%s matches %s', (pattern, path, expected) => {
    expect(params(pattern, path)).toEqual(expected);
  });

  it.each([
    ['/compare/:base...:head', '/compare/main..feature'], // the literal is missing
    ['/compare/:base...:head', '/compare/...feature'], // :base would be empty
    ['/compare/:base...:head', '/compare/main...'], // :head would be empty
    ['/files/:name.json', '/files/.json'],
    ['/files/:name.json', '/files/a.jsonx'],
    ['/r/%76:n', '/r/v'],
    ['/r/%76:n', '/r/x1'],
    ['/v1/items:batchGet', '/v1/itemsXYZ'],
    ['/x/:a-:b', '/x/a-b/c'],
  ])('%s does not match %s', (pattern, path) => {
    const parsed = parsePathPattern(pattern);
    const segments = path.split('/').slice(1);
    expect(matchPathPattern(parsed, segments)).toBeUndefined();
    expect(explainPathMismatch(parsed, segments)).toEqual(expect.any(String));
  });

  it('explains which segment does not fit, and ranks by the segments that do', () => {
    const pattern = parsePathPattern('/repos/:owner/compare/:base...:head');
    expect(explainPathMismatch(pattern, ['repos', 'o', 'compare', 'main..x'])).toBe(
      'segment 4 is "main..x", route wants ":base...:head" (/repos/:owner/compare/:base...:head)',
    );
    expect(matchingPrefix(pattern, ['repos', 'o', 'compare', 'main..x'])).toBe(3);
    expect(matchingPrefix(pattern, ['repos', 'o', 'compare', 'main...x'])).toBe(4);
  });

  it('refuses two parameters with nothing between them, naming the segment', () => {
    expect(() => parsePathPattern('/c/:a:b')).toThrow(
      new PathPatternError(
        'path "/c/:a:b": segment ":a:b" has two parameters with no literal text between them (:a and :b), so where one ends is unknown',
      ),
    );
  });

  it('refuses a repeated name across or within segments', () => {
    expect(() => parsePathPattern('/c/:a-:a')).toThrow(/parameter :a appears twice/);
    expect(() => parsePathPattern('/:a/x-:a')).toThrow(/parameter :a appears twice/);
  });

  it(`refuses a segment with parameters longer than ${MAX_MIXED_SEGMENT} characters`, () => {
    const long = `/f/:a${'-'.repeat(MAX_MIXED_SEGMENT)}:b`;
    expect(() => parsePathPattern(long)).toThrow(/mixes parameters and text over 260 characters, more than 256/);
    // A literal segment has no such bound.
    expect(() => parsePathPattern(`/${'a'.repeat(1000)}`)).not.toThrow();
  });

  it('keeps a whole-segment parameter, a literal and a trailing * as they were', () => {
    expect(parsePathPattern('/users/:id/a:1/*').segments).toEqual([
      { literal: 'users' },
      { param: 'id' },
      { literal: 'a:1' },
    ]);
    expect(() => parsePathPattern('/:')).toThrow(/parameter ":" must be : then a letter/);
    expect(() => parsePathPattern('/:1a')).toThrow(/parameter ":1a" must be : then a letter/);
  });

  it('costs one pass over a long segment that almost matches', () => {
    // 50,000 "a"s, no "...": each literal is looked for once from where the last one ended.
    const pattern = parsePathPattern('/c/:a...:b...:c...:d');
    expect(matchPathPattern(pattern, ['c', 'a'.repeat(50_000)])).toBeUndefined();
    expect(matchPathPattern(pattern, ['c', `${'a.'.repeat(20_000)}x...b...c...d`])).toEqual({
      a: `${'a.'.repeat(20_000)}x`,
      b: 'b',
      c: 'c',
      d: 'd',
    });
  });
});
