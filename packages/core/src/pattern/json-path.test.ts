import { describe, expect, it } from 'vitest';
import { jsonPathProblem, jsonPathSelects, MAX_JSON_PATH_LENGTH, parseJsonPath } from './json-path.js';

describe('parseJsonPath', () => {
  it('takes names, quoted names, indexes, wildcards and the filter forms', () => {
    for (const expression of [
      '$',
      '$.items[0].id',
      '$[\'a b\']["c"]',
      '$.items[-1]',
      '$.items[*].id',
      '$.*',
      '$[?(@.total > 10)]',
      '$.items[?(@.price >= 5.5)]',
      "$[?(@.kind == 'gift')]",
      '$[?(@.a.b == null)]',
      '$[?(@.flag)]',
    ]) {
      expect(jsonPathProblem(expression), expression).toBeUndefined();
    }
  });

  it('refuses what is outside the subset, naming the place', () => {
    expect(jsonPathProblem('items')).toBe('a JSONPath starts with $');
    expect(jsonPathProblem('$..id')).toMatch(/^at character 2 of "\$\.\.id": a deep scan/);
    expect(jsonPathProblem('$[?(@.a > 1 && @.b)]')).toMatch(/no &&, \|\|, functions or !=/);
    expect(jsonPathProblem('$[?(@.a != 1)]')).toMatch(/no &&, \|\|, functions or !=/);
    expect(jsonPathProblem("$[?(@.a > 'x')]")).toBe(
      "at character 2 of \"$[?(@.a > 'x')]\": > compares numbers: 'x' is not one",
    );
    expect(jsonPathProblem('$.a[1:2]')).toMatch(/a step is \.name/);
    expect(jsonPathProblem(`$.${'a'.repeat(MAX_JSON_PATH_LENGTH)}`)).toMatch(
      /at most 256 characters \(this one has 258\)/,
    );
    expect(jsonPathProblem(`$${'.a'.repeat(17)}`)).toBe('a JSONPath has at most 16 steps and names');
    expect(typeof parseJsonPath('$.a')).toBe('object');
  });
});

describe('jsonPathSelects (as WireMock 3.13.2 answered each case, side by side)', () => {
  it('a path of names and indexes: a value that is not null nor empty', () => {
    const path = '$.items[0].id';
    expect(jsonPathSelects(path, { items: [{ id: 0 }] })).toBe(true);
    expect(jsonPathSelects(path, { items: [{ id: '' }] })).toBe(true);
    expect(jsonPathSelects(path, { items: [{ id: false }] })).toBe(true);
    expect(jsonPathSelects(path, { items: [{ id: null }] })).toBe(false);
    expect(jsonPathSelects(path, { items: [{ id: {} }] })).toBe(false);
    expect(jsonPathSelects(path, { items: [{ id: [] }] })).toBe(false);
    expect(jsonPathSelects(path, { items: [] })).toBe(false);
    expect(jsonPathSelects(path, { items: { 0: { id: 1 } } })).toBe(false);
    expect(jsonPathSelects(path, [{ id: 1 }])).toBe(false);
    expect(jsonPathSelects('$.items[-1].id', { items: [{ id: 1 }, { id: 2 }] })).toBe(true);
  });

  it('a filter: elements of an array, or the object itself', () => {
    const root = '$[?(@.total > 10)]';
    expect(jsonPathSelects(root, { total: 11 })).toBe(true);
    expect(jsonPathSelects(root, { total: 10 })).toBe(false);
    expect(jsonPathSelects(root, { total: '11' })).toBe(false);
    expect(jsonPathSelects(root, [{ total: 11 }])).toBe(true);
    expect(jsonPathSelects(root, [{ total: 1 }])).toBe(false);
    expect(jsonPathSelects(root, 11)).toBe(false);
    const items = '$.items[?(@.price >= 5)]';
    expect(jsonPathSelects(items, { items: [{ price: 1 }, { price: 5 }] })).toBe(true);
    expect(jsonPathSelects(items, { items: [{ price: 1 }] })).toBe(false);
    expect(jsonPathSelects(items, { items: { price: 6 } })).toBe(true);
    expect(jsonPathSelects('$[?(@.kind == 10)]', { kind: 10.0 })).toBe(true);
    expect(jsonPathSelects('$[?(@.kind)]', { kind: null })).toBe(true);
    expect(jsonPathSelects('$[?(@.kind)]', { kind: false })).toBe(true);
    expect(jsonPathSelects('$[?(@.kind)]', { x: 1 })).toBe(false);
  });

  it('wildcards select each member; an indefinite path takes any value found, null included', () => {
    expect(jsonPathSelects('$.items[*].id', { items: [{ x: 1 }, { id: null }] })).toBe(true);
    expect(jsonPathSelects('$.items[*].id', { items: [{ x: 1 }] })).toBe(false);
    expect(jsonPathSelects('$.*', {})).toBe(false);
    expect(jsonPathSelects("$['a b']", { 'a b': 1 })).toBe(true);
  });

  it('own members only, and an expression outside the subset selects nothing', () => {
    expect(jsonPathSelects('$.constructor', {})).toBe(false);
    expect(jsonPathSelects('$.__proto__', JSON.parse('{"__proto__":1}'))).toBe(true);
    expect(jsonPathSelects('$..id', { id: 1 })).toBe(false);
  });

  it('is linear: a wide array under wildcards and a filter', () => {
    const wide = { items: Array.from({ length: 50_000 }, (_, i) => ({ n: i, tags: [i] })) };
    expect(jsonPathSelects('$.items[*].tags[*]', wide)).toBe(true);
    expect(jsonPathSelects('$.items[?(@.n > 49998)]', wide)).toBe(true);
    expect(jsonPathSelects('$.items[?(@.n > 49999)]', wide)).toBe(false);
  });
});
