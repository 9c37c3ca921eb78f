// Shapes, not values: fields missing, extra and retyped found by path; null fits any type; items merged as `*`;
// ignored paths (and what is below them) left out; deep and wide values stay bounded.
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, shapeDifferences } from './live-shapes.js';

describe('shapeDifferences', () => {
  it('names each missing, extra and retyped field by its path; values and null do not count', () => {
    const mock = { id: 1, name: 'a', note: null, items: [{ id: 'x' }, { id: 'y', extra: 1 }], more: true };
    const real = { id: 99, name: 'b', note: 'set', items: [{ id: 7, tags: [] }], total: 3 };
    expect(shapeDifferences(mock, real, 'body')).toEqual([
      { code: 'SHAPE_TYPE_CHANGED', path: 'body.items.*.id', mock: 'string', real: 'number' },
      { code: 'SHAPE_MISSING_FIELD', path: 'body.items.*.tags', mock: 'absent', real: 'array' },
      { code: 'SHAPE_EXTRA_FIELD', path: 'body.items.*.extra', mock: 'number', real: 'absent' },
      { code: 'SHAPE_MISSING_FIELD', path: 'body.total', mock: 'absent', real: 'number' },
      { code: 'SHAPE_EXTRA_FIELD', path: 'body.more', mock: 'boolean', real: 'absent' },
    ]);
    expect(shapeDifferences([], [{ a: 1 }], 'body')).toEqual([]);
    expect(shapeDifferences({ a: 1 }, [1], 'body')).toEqual([
      { code: 'SHAPE_TYPE_CHANGED', path: 'body', mock: 'object', real: 'array' },
    ]);
  });

  it('leaves out ignored paths and everything below them', () => {
    const mock = { at: 1, items: [{ id: 'x', meta: { a: 1 } }] };
    const real = { at: 'now', items: [{ id: 7, meta: { b: 2 } }] };
    expect(shapeDifferences(mock, real, 'body', new Set(['body.at', 'body.items.*.id', 'body.items.*.meta']))).toEqual(
      [],
    );
  });

  it('stays bounded on deep values', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(shapeDifferences(deep, deep, 'body')).toEqual([]);
    expect(MAX_DEPTH).toBe(64);
  });
});
