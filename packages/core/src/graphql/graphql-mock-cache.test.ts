import { describe, expect, it } from 'vitest';
import { GraphqlMockCache } from './graphql-mock-cache.js';
import type { StoredGraphqlSchema } from './graphql-runner.js';

const mock = (id: number) => ({ id }) as unknown as StoredGraphqlSchema;

describe('GraphqlMockCache', () => {
  it('keeps many "no schema" names but at most maxMocks compiled schemas, the least recently set going first', () => {
    const cache = new GraphqlMockCache(2, 1000);
    for (let i = 0; i < 500; i++) cache.set(`none-${i}`, null);
    cache.set('a', mock(1));
    cache.set('b', mock(2));
    cache.set('c', mock(3));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual({ id: 2 });
    expect(cache.get('c')).toEqual({ id: 3 });
    expect(cache.get('none-0')).toBeNull();
    // Replacing a compiled schema by "none" frees its place.
    cache.set('b', null);
    cache.set('d', mock(4));
    expect(cache.get('c')).toEqual({ id: 3 });
  });

  it('forgets the oldest name past maxNames', () => {
    const cache = new GraphqlMockCache(2, 3);
    for (const name of ['w', 'x', 'y', 'z']) cache.set(name, null);
    expect(cache.get('w')).toBeUndefined();
    expect(cache.get('z')).toBeNull();
  });
});
