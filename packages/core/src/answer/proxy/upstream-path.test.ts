import { describe, expect, it } from 'vitest';
import { containedSubpath } from './upstream-path.js';

describe('containedSubpath', () => {
  it.each([
    ['/', '/'],
    ['/users/7', '/users/7'],
    ['/a//b', '/a//b'],
    ['/a/../b', '/b'],
    ['/a/./b/', '/a/b/'],
    ['/a/b/..', '/a/'],
    ['/a/%2E%2e', '/'],
    ['/a\\b', '/a/b'],
    ['/group%2Fproject/issues', '/group%2Fproject/issues'],
    ['/a%2f..', '/a%2f..'],
    ['/%2e%2e.x/%252e%252e', '/%2e%2e.x/%252e%252e'],
  ])('keeps %s below the base as %s', (subpath, sent) => {
    expect(containedSubpath(subpath)).toBe(sent);
  });

  it.each([
    '/..',
    '/a/../..',
    '/%2e%2e',
    '/.%2E/x',
    '/a\\..\\..',
    '/..%2fx',
    '/..%2Fx',
    '/a%2f..%2f..',
    '/..%5cx',
    '/a%2fb/../..',
    '/a//../..',
    '//..',
  ])('refuses %s', (subpath) => {
    expect(containedSubpath(subpath)).toBeUndefined();
  });
});
