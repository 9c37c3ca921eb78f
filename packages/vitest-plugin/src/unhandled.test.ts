import { describe, expect, it } from 'vitest';
import type { UnhandledRequest } from './namespaces.js';
import { describeUnhandled } from './unhandled.js';

const request = (over: Partial<UnhandledRequest>): UnhandledRequest => ({
  id: 1,
  name: 'users',
  method: 'GET',
  subpath: '/users/7',
  receivedAt: '2026-11-25T16:00:00.000Z',
  statusCode: 404,
  message: 'no route of "users" matched; nearest: GET /users/:id/orders (path)',
  ...over,
});

describe('describeUnhandled', () => {
  it('names each request (method, name, subpath, status) with the daemon’s message', () => {
    const text = describeUnhandled(
      [request({}), request({ id: 2, name: 'billing', method: 'POST', subpath: '', message: 'no endpoint "billing"' })],
      'error',
    );
    expect(text).toBe(
      [
        "2 requests in this test's session reached no endpoint or route (onUnhandledRequest: 'error'):",
        '  1. GET users /users/7 → 404: no route of "users" matched; nearest: GET /users/:id/orders (path)',
        '  2. POST billing / → 404: no endpoint "billing"',
      ].join('\n'),
    );
  });

  it('says "1 request" and the mode; counts what is past the first 20', () => {
    expect(describeUnhandled([request({})], 'warn')).toMatch(/^1 request in .*\(onUnhandledRequest: 'warn'\):\n/);
    const many = Array.from({ length: 23 }, (_, index) => request({ id: index, subpath: `/${index}` }));
    const lines = describeUnhandled(many, 'error').split('\n');
    expect(lines).toHaveLength(22);
    expect(lines[20]).toContain('20. GET users /19 ');
    expect(lines[21]).toBe('  … and 3 more');
  });
});
