// What is written in turns is JSON.stringify's text, character for character (and its UTF-8 bytes).
import { describe, expect, it } from 'vitest';
import { jsonBytesInTurns, jsonInTurns } from './json-in-turns.js';

const VALUES: unknown[] = [
  { object: 'list', data: [{ id: 'pi_1', customer: { id: 'cus_1', metadata: { a: 'b' } } }], has_more: false },
  [1, 'two', null, undefined, () => 3, Symbol('s'), { deep: [[[[[{ x: [1, { y: 2 }] }]]]]] }],
  { skipped: undefined, fn: () => 1, when: new Date(0), nested: { toJSON: () => 'mine' }, n: -0, big: 1e21 },
  { text: 'é ünïcode 🐈 and a lone \ud800 half', quote: '"\\\n\t', [Symbol('k')]: 1 },
  Object.assign(Object.create(null) as object, { bare: true }),
  Array.from({ length: 3000 }, (_, i) => ({ i, pad: 'x'.repeat(i % 50) })),
  'a string',
  42,
  null,
];

describe('json in turns', () => {
  it("writes JSON.stringify's text and UTF-8 bytes for every kind of value", async () => {
    for (const value of VALUES) {
      const text = JSON.stringify(value);
      expect(await jsonInTurns(value)).toBe(text);
      expect(Buffer.from((await jsonBytesInTurns(value)) as Uint8Array).equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });

  it('writes nothing where JSON.stringify does: undefined, a function', async () => {
    expect(await jsonInTurns(undefined)).toBeUndefined();
    expect(await jsonBytesInTurns(() => 1)).toBeUndefined();
  });

  it('throws where JSON.stringify throws: a cycle below the walked levels, a BigInt', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = { a: { b: { c: { d: cycle } } } };
    await expect(jsonInTurns(cycle)).rejects.toThrow(TypeError);
    await expect(jsonBytesInTurns({ n: 1n })).rejects.toThrow(TypeError);
  });
});
