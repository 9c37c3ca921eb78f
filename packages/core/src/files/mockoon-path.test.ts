import { describe, expect, it } from 'vitest';
import { type ValueMatcher, valueMatches } from '../pattern/value-pattern.js';
import { caseless, caselessPath, mergePins, pinParam } from './mockoon-path.js';

const form = caseless('/api/users/:id/posts/:post') as ValueMatcher;

describe('pinned params (a Mockoon params rule)', () => {
  it('the path still ignores case and a trailing /, the value is compared exactly', () => {
    const pinned = pinParam(form, 'id', 'Ab.1') as ValueMatcher;
    expect(pinned).toEqual({ matches: '(?i)/api/users/(?<id>(?-i:Ab\\.1))/posts/(?<post>[^/]+?)/?' });
    expect(valueMatches(pinned, '/API/Users/Ab.1/posts/9/')).toBe(true);
    expect(valueMatches(pinned, '/api/users/ab.1/posts/9')).toBe(false);
    expect(valueMatches(pinned, '/api/users/AbX1/posts/9')).toBe(false);
    expect(pinParam(form, 'nope', '1')).toBeUndefined();
  });

  it('two pins of one path merge; one parameter pinned twice to two values does not', () => {
    const both = mergePins(pinParam(form, 'id', '1') as ValueMatcher, pinParam(form, 'post', '2') as ValueMatcher);
    expect(both).toEqual({ matches: '(?i)/api/users/(?<id>(?-i:1))/posts/(?<post>(?-i:2))/?' });
    expect(mergePins(pinParam(form, 'id', '1') as ValueMatcher, pinParam(form, 'id', '2') as ValueMatcher)).toBe(
      undefined,
    );
    expect(mergePins(form, caseless('/other/:id') as ValueMatcher)).toBeUndefined();
  });

  it('read back by the Mockoon export as the path with the value in place', () => {
    expect(caselessPath(pinParam(form, 'id', '1') as ValueMatcher)).toBe('/api/users/1/posts/:post');
    expect(caselessPath(form)).toBe('/api/users/:id/posts/:post');
  });
});
