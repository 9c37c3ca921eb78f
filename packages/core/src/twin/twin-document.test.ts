import { describe, expect, it } from 'vitest';
import { documentError, documentItem, documentList, documentUpdate, GENERIC_ERROR } from './twin-document.js';
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
      // A plain string takes no null: left out of the last page (the nullable next_cursor is not).
      omitLast: ['nextPageLink'],
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

  it("reads a plain `next` as the cursor, one in a URL's format as the next link, and a string page size", () => {
    const page = (next: unknown) =>
      json({ type: 'object', properties: { next, previous: { type: 'string' }, results: { type: 'array' } } });
    const params = [query('pageSize', { type: 'string' }), query('cursor', { type: 'string', nullable: true })];
    expect(documentList({}, { parameters: params, responses: { '200': page({ type: 'string' }) } })).toEqual({
      items: 'results',
      cursor: 'next',
      after: 'cursor',
      limit: 'pageSize',
      omitLast: ['next'],
    });
    const drf = {
      parameters: [query('page', { type: 'integer' })],
      responses: { '200': page({ type: 'string', format: 'uri' }) },
    };
    expect(documentList({}, drf)).toEqual({ items: 'results', nextLink: 'next', page: 'page', omitLast: ['next'] });
    // A string parameter named only `count` or `size` is no page size.
    expect(documentList({}, { parameters: [query('count', { type: 'string' })], responses: {} })).toEqual({});
  });

  it('finds the member an envelope holds its item in: the one with an id, else an open `result` or `data`', () => {
    const doc = {
      components: {
        schemas: {
          Shared: { type: 'object', properties: { id: { type: 'string' } } },
          Event: { type: 'object', properties: {}, allOf: [{ $ref: '#/components/schemas/Shared' }] },
        },
      },
    };
    const answer = (schema: unknown) => ({ responses: { '200': json(schema) } });
    const status = { type: 'string', enum: ['ok', 'error'] };
    const event = { $ref: '#/components/schemas/Event' };
    expect(documentItem(doc, answer({ type: 'object', properties: { status, result: event } }))).toEqual({
      member: 'result',
      schema: doc.components.schemas.Event,
    });
    expect(
      documentItem(doc, answer({ type: 'object', properties: { status, message: { type: 'string' }, result: {} } })),
    ).toEqual({
      member: 'result',
    });
    expect(documentItem(doc, answer({ properties: { data: { type: 'object', properties: { name: {} } } } }))).toEqual({
      member: 'data',
      schema: { type: 'object', properties: { name: {} } },
    });
    // The answer is the item: it has an id (Coda's `{ requestId, id }`), or is no object, or no member holds one.
    expect(documentItem(doc, answer(event))).toBeUndefined();
    expect(documentItem(doc, answer({ properties: { requestId: { type: 'string' }, id: {} } }))).toBeUndefined();
    expect(documentItem(doc, answer({ type: 'array', items: event }))).toBeUndefined();
    expect(documentItem(doc, answer({ properties: { status, metadata: {} } }))).toBeUndefined();
    expect(documentItem(doc, answer({ properties: { a: event, b: event } }))).toBeUndefined();
    expect(documentItem(doc, {})).toBeUndefined();
  });

  it("reads a lone string `error` as the message (Revert's commonBaseError), beside a message as the reason", () => {
    const lone = json({ type: 'object', properties: { error: { type: 'string' } }, required: ['error'] });
    expect(documentError({ paths: { '/a': { get: { responses: { '404': lone, '401': lone } } } } })).toBe(
      '{"error":"{message}"}',
    );
    const both = json({
      type: 'object',
      properties: { statusCode: { type: 'number' }, message: { type: 'string' }, error: { type: 'string' } },
    });
    expect(documentError({ paths: { '/a': { get: { responses: { '400': both } } } } })).toBe(
      '{"statusCode":"{status}","message":"{message}","error":"{reason}"}',
    );
  });
});
