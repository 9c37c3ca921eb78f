import { sample } from 'openapi-sampler';
import { describe, expect, it } from 'vitest';
import { expandedValues, SAMPLE_DEPTH, SampleWork } from './import-work.js';

/** `levels` objects, each holding the one below `fan` times (shared, as load-openapi.ts resolves $refs). */
function shared(levels: number, fan: number): Record<string, unknown> {
  let node: Record<string, unknown> = { v: 1 };
  for (let i = 0; i < levels; i++) node = Object.fromEntries(Array.from({ length: fan }, (_, k) => [`k${k}`, node]));
  return node;
}

describe('expandedValues', () => {
  it('counts a tree as written out, shared parts once per place, in the time of the graph', () => {
    expect(expandedValues({ a: [1, 2], b: 'x' }, 100)).toBe(5);
    const node = { v: 1 };
    expect(expandedValues({ a: node, b: node }, 100)).toBe(5);
    // 2^40 leaves: counted up to the cap at once.
    expect(expandedValues(shared(40, 2), 1_000_000)).toBe(1_000_001);
    expect(expandedValues(shared(10, 2), 1_000_000)).toBe(2 ** 11 - 1 + 2 ** 10);
  });
});

describe('SampleWork', () => {
  it('is an upper bound of what openapi-sampler builds, and bounded for exponential schemas', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: { v: { type: 'string' } } };
    for (let i = 0; i < 8; i++) schema = { type: 'object', properties: { a: schema, b: schema } };
    const work = new SampleWork(1_000_000);
    const bound = work.of(schema, SAMPLE_DEPTH);
    expect(bound).toBeGreaterThanOrEqual(
      expandedValues(sample(schema as never, { quiet: true }), Number.MAX_SAFE_INTEGER),
    );
    // 40 levels of 3 references each: 3^14 at the sampler's depth, past the cap, counted at once.
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep, b: deep }, items: deep, minItems: 1 };
    expect(new SampleWork(50_000).of(deep, SAMPLE_DEPTH)).toBe(50_001);
    // A large minItems is as many samples.
    expect(new SampleWork(50_000).of({ type: 'array', items: { type: 'string' }, minItems: 1e9 }, SAMPLE_DEPTH)).toBe(
      50_001,
    );
    // An example is one node: its value is counted by expandedValues.
    expect(new SampleWork(50_000).of({ example: shared(40, 2), properties: { a: deep } }, SAMPLE_DEPTH)).toBe(1);
  });
});
