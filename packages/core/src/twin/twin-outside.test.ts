import { describe, expect, it } from 'vitest';
import type { ExampleContext } from './twin-example.js';
import { documentedJson, documentedText, emptyList } from './twin-outside.js';

const doc = {
  components: {
    schemas: { repository: { type: 'object', properties: { id: { type: 'integer' } } } },
    examples: { root: { value: { current_user_url: 'https://api.github.com/user' } } },
  },
};
const ctx: ExampleContext = { doc, now: 0, timestamps: 'iso' };
const example = () => ({ search_type: 'hybrid', state: 'pending' });

describe('emptyList', () => {
  it('empties an array, and an envelope of total_count and lists, its plain values as the example has them', () => {
    expect(emptyList(ctx, { type: 'array', items: {} }, example)).toEqual([]);
    const search = {
      type: 'object',
      required: ['total_count', 'incomplete_results', 'items', 'search_type'],
      properties: {
        total_count: { type: 'integer' },
        incomplete_results: { type: 'boolean' },
        items: { type: 'array' },
        search_type: { type: 'string' },
        lexical_fallback_reason: { type: 'array' },
      },
    };
    expect(emptyList(ctx, search, example)).toEqual({
      total_count: 0,
      incomplete_results: false,
      items: [],
      search_type: 'hybrid',
    });
    // One of lists only (GitHub's stargazers: users, or users with `starred_at`) is a list.
    const stargazers = { anyOf: [{ type: 'array', items: {} }, { $ref: '#/components/schemas/users' }] };
    const withUsers = { ...ctx, doc: { components: { schemas: { users: { type: 'array' } } } } };
    expect(emptyList(withUsers, stargazers, example)).toEqual([]);
  });

  it('takes no object holding an object, no one-of a list and an object, no object without total_count for a list', () => {
    const combinedStatus = {
      type: 'object',
      required: ['state', 'total_count', 'statuses', 'repository'],
      properties: {
        state: { type: 'string' },
        total_count: { type: 'integer' },
        statuses: { type: 'array' },
        repository: { $ref: '#/components/schemas/repository' },
      },
    };
    expect(emptyList(ctx, combinedStatus, example)).toBeUndefined();
    expect(emptyList(ctx, { oneOf: [{ type: 'array' }, { type: 'object' }] }, example)).toBeUndefined();
    expect(emptyList(ctx, { $ref: '#/components/schemas/repository' }, example)).toBeUndefined();
  });
});

describe('documented examples', () => {
  it("reads a media type's named example, and answers text in its own type", () => {
    const root = {
      responses: {
        '200': { content: { 'application/json': { examples: { d: { $ref: '#/components/examples/root' } } } } },
      },
    };
    expect(documentedJson(doc, root)).toEqual({ value: { current_user_url: 'https://api.github.com/user' } });
    expect(documentedText(doc, root)).toBeUndefined();
    const markdown = {
      responses: {
        '200': { content: { 'text/html': { schema: { type: 'string' }, examples: { d: { value: '<p>x</p>' } } } } },
      },
    };
    expect(documentedText(doc, markdown)).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: '<p>x</p>' });
    // A media type the document gives no example of answers as before (JSON made from its schema).
    const pdf = { responses: { '200': { content: { 'application/pdf': { schema: { type: 'string' } } } } } };
    expect(documentedText(doc, pdf)).toBeUndefined();
    expect(documentedJson(doc, pdf)).toBeUndefined();
  });
});
