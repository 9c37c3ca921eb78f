import { describe, expect, it } from 'vitest';
import { documentError, documentList, documentUpdate, GENERIC_ERROR } from './twin-document.js';
import { pageOf } from './twin-lists.js';
import { checkProfile } from './twin-profile.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const query = (name: string, schema: unknown) => ({ name, in: 'query', schema });

describe('what a document says of itself', () => {
  it('reads a list envelope and its page parameters from the list operation', () => {
    const doc = {
      paths: {},
      components: {
        schemas: {
          Page: {
            type: 'object',
            properties: {
              next_cursor: { type: 'string', nullable: true },
              items: { type: 'array', items: {} },
              nextPageLink: { allOf: [{ $ref: '#/components/schemas/Link' }, { type: 'string' }] },
              total_count: { type: 'integer' },
            },
          },
          Link: { description: 'a link' },
        },
      },
    };
    const operation = {
      parameters: [query('cursor', { type: 'string' }), query('limit', { type: 'integer', default: 25, maximum: 50 })],
      responses: { '200': json({ $ref: '#/components/schemas/Page' }) },
    };
    expect(documentList(doc, operation)).toEqual({
      items: 'items',
      cursor: 'next_cursor',
      nextLink: 'nextPageLink',
      total: 'total_count',
      after: 'cursor',
      limit: 'limit',
      defaultLimit: 25,
      maxLimit: 50,
    });
    // A bare array says nothing of an envelope.
    expect(documentList(doc, { responses: { '200': json({ type: 'array', items: {} }) } })).toEqual({});
  });

  it('pages by the cursor parameter: the next cursor, null on the last page', () => {
    const items = ['a', 'b', 'c'].map((id) => ({ id }));
    const profile = checkProfile({ name: 'n' });
    const said = { items: 'items', after: 'pageToken', limit: 'limit' };
    const first = pageOf(profile, items, { limit: 2 }, '/x', '', said);
    expect(first).toMatchObject({ items: [{ id: 'a' }, { id: 'b' }], next: 'b', hasMore: true });
    expect(pageOf(profile, items, { limit: 2, pageToken: 'b' }, '/x', '', said)).toMatchObject({
      items: [{ id: 'c' }],
      next: null,
    });
  });

  it('takes PATCH, else PUT, as the update verb of an item path', () => {
    expect(documentUpdate({ get: {}, put: {}, delete: {} })).toBe('PUT');
    expect(documentUpdate({ put: {}, patch: {} })).toBe('PATCH');
    expect(documentUpdate({ get: {} })).toBeUndefined();
  });

  it('makes the error template of the error answers most operations give, else a generic one', () => {
    const error = {
      type: 'object',
      properties: { statusCode: { type: 'number' }, statusMessage: { type: 'string' }, message: { type: 'string' } },
    };
    const op = { responses: { '404': json(error), '400': json(error) } };
    expect(JSON.parse(documentError({ paths: { '/a': { get: op, post: op } } }))).toEqual({
      statusCode: '{status}',
      statusMessage: '{reason}',
      message: '{message}',
    });
    const nested = json({ type: 'object', properties: { error: error } });
    expect(documentError({ paths: { '/a': { get: { responses: { '400': nested } } } } })).toBe(
      '{"error":{"statusCode":"{status}","statusMessage":"{reason}","message":"{message}"}}',
    );
    expect(documentError({ paths: { '/a': { get: { responses: { '400': { description: 'Bad' } } } } } })).toBe(
      GENERIC_ERROR,
    );
  });
});
