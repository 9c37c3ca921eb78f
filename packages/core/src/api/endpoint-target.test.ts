// The one reader of absolute-form targets and what is built on it: the host a
// proxy client names, where its path starts, and the subpath a mapped host gets.

import { describe, expect, it } from 'vitest';
import { absoluteTarget, mappedTarget, urlTarget } from './endpoint-target.js';

describe('absoluteTarget', () => {
  it.each([
    ['http://api.github.com/repos/a/b?x=1', 'api.github.com', 21],
    ['http://user:pw@api.github.com:8080/x', 'api.github.com:8080', 34],
    ['https://h', 'h', -1],
    ['http://h?q=/x', 'h', -1],
    ['http://h#/x', 'h', -1],
    ['/origin/form', undefined, -1],
  ])('%s: authority %s, path at %i', (url, authority, path) => {
    expect(absoluteTarget(url)).toMatchObject({ authority, path });
  });

  it('keeps at most 300 characters of an authority, and still finds the path after it', () => {
    const url = `http://${'a'.repeat(400)}/x`;
    const target = absoluteTarget(url);
    expect(target.authority).toBe('a'.repeat(300));
    expect(target.path).toBe(407);
  });
});

describe('mappedTarget', () => {
  it.each([
    ['/repos/a/b?x=1', '/endpoint/github/repos/a/b?x=1'],
    ['http://api.github.com/repos/a/b?x=1#frag', '/endpoint/github/repos/a/b?x=1'],
    ['http://api.github.com', '/endpoint/github'],
    ['http://api.github.com?q=1', '/endpoint/github?q=1'],
    // A `/` in the query is not the path: the path is empty (`/`) and the query is kept whole.
    ['http://api.github.com?q=/repos/x', '/endpoint/github?q=/repos/x'],
    // The fragment is never sent on: after a query, and with a `?` in it.
    ['http://api.github.com?q=1#f', '/endpoint/github?q=1'],
    ['http://api.github.com#a?b', '/endpoint/github'],
  ])('%s -> %s', (url, target) => {
    expect(mappedTarget('github', url)).toBe(target);
  });
});

describe('urlTarget', () => {
  it.each([
    ['http://localhost:1234/endpoint/a/b?x=1', '/endpoint/a/b?x=1'],
    ['http://h/endpoint/a#frag?x', '/endpoint/a'],
    ['https://h/', '/'],
    ['http://h', '/'],
  ])('%s: %s', (url, target) => {
    expect(urlTarget(url)).toBe(target);
  });
});
