// Values made from a document's schemas are valid against them: a 3.1 `const` (with or without a
// `type`), a list of types, `examples`, a moment typed as an integer in unix seconds.
import { describe, expect, it } from 'vitest';
import { exampleOf } from './twin-example.js';

const now = Date.UTC(2026, 10, 29, 12, 0, 0);
const made = (schema: unknown) => exampleOf({ doc: {}, now, timestamps: 'iso' }, schema);

describe('exampleOf', () => {
  it("answers a `const` whatever the schema's type says, before an example", () => {
    expect(made({ type: 'object', properties: { object: { const: 'list' } } })).toEqual({ object: 'list' });
    expect(made({ type: 'string', const: 'file', example: 'other' })).toBe('file');
    expect(made({ const: { a: [1] } })).toEqual({ a: [1] });
  });

  it('reads a list of types, `null` left for where nothing else is allowed', () => {
    expect(made({ type: ['string', 'null'] })).toBe('string');
    expect(made({ type: 'object', properties: { n: { type: ['integer', 'null'] } } })).toEqual({ n: null });
    expect(made({ type: ['null'] })).toBeNull();
    expect(made({ type: 'object', properties: { n: { type: ['number'], exclusiveMinimum: 0 } } })).toEqual({ n: 1 });
  });

  it("takes the first of 3.1's `examples`", () => {
    expect(made({ type: 'string', examples: ['gpt-5', 'o3'] })).toBe('gpt-5');
  });

  it('makes a moment typed as an integer unix seconds, and one typed as a string an ISO time', () => {
    const schema = {
      type: 'object',
      properties: {
        created_at: { type: 'integer' },
        expires_at: { type: 'integer' },
        created: { type: 'integer' },
        updated_at: { type: 'string', format: 'date-time' },
        count: { type: 'integer' },
      },
    };
    expect(made(schema)).toEqual({
      created_at: now / 1000,
      expires_at: now / 1000,
      created: now / 1000,
      updated_at: '2026-11-29T12:00:00.000Z',
      count: 0,
    });
  });

  it('reads `nullable` as 3.0 does, and not in a 3.1 document (no such keyword there)', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', nullable: true, minimum: 256 },
        error: { type: 'object', nullable: true, required: ['code'], properties: { code: { type: 'string' } } },
      },
    };
    expect(made(schema)).toEqual({ n: null, error: null });
    const of31 = exampleOf({ doc: { openapi: '3.1.0' }, now, timestamps: 'iso' }, schema);
    expect(of31).toEqual({ n: 256, error: { code: 'code' } });
  });

  it('fills an allOf of a choice and `{ nullable: true }` from the choice, not with `{}`', () => {
    const choice = {
      anyOf: [
        { type: 'string', enum: ['none', 'auto'] },
        { type: 'object', properties: {} },
      ],
    };
    const schema = { type: 'object', properties: { tool_choice: { allOf: [choice, { nullable: true }] } } };
    expect(exampleOf({ doc: { openapi: '3.1.0' }, now, timestamps: 'iso' }, schema)).toEqual({ tool_choice: 'none' });
    // Objects still merge.
    expect(
      made({
        allOf: [{ type: 'object', properties: { a: { type: 'boolean' } } }, { properties: { b: { const: 1 } } }],
      }),
    ).toEqual({ a: false, b: 1 });
  });
});
