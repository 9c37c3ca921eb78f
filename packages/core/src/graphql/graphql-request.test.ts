import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal-json.js';
import { firstMismatch, matchesRequest } from '../journal/graphql-filter.js';
import { graphqlMarkOf } from './graphql-mark.js';
import { graphqlRequestOf, MAX_DOCUMENT_TOKENS } from './graphql-request.js';

function post(json: unknown, parts: Partial<JournalEntry> = {}): JournalEntry {
  const body = JSON.stringify(json);
  return {
    id: 1,
    method: 'POST',
    path: '/endpoint/gql',
    subpath: '/',
    params: {},
    answeredBy: 'none',
    query: {},
    headers: { 'content-type': 'application/json' },
    body,
    json,
    bodyTruncated: false,
    receivedAt: new Date(0).toISOString(),
    statusCode: 200,
    ...parts,
  };
}

function get(query: Record<string, string>): JournalEntry {
  return { ...post(undefined), method: 'GET', body: '', json: undefined, headers: {}, query };
}

const GET_USER = 'query GetUser($id: ID!) { user(id: $id) { name } }';

describe('the graphql filter', () => {
  it('reads the operation name and type from the parsed document, not the request field', () => {
    const request = post({ query: GET_USER, variables: { id: '7' } });
    expect(matchesRequest(request, { graphql: { operationName: 'GetUser' } })).toBe(true);
    expect(matchesRequest(request, { graphql: { operationType: 'query' } })).toBe(true);
    expect(matchesRequest(request, { graphql: { operationType: 'mutation' } })).toBe(false);
    // A name only in a comment or a string is no operation name.
    const comment = post({ query: '# query GetUser\n{ user(id: "GetUser") { name } }' });
    expect(matchesRequest(comment, { graphql: { operationName: 'GetUser' } })).toBe(false);
    expect(matchesRequest(comment, { graphql: { operationType: 'query' } })).toBe(true);
  });

  it('selects the operation operationName asks for in a document with several', () => {
    const query = 'query A { a } mutation B { b }';
    expect(matchesRequest(post({ query, operationName: 'B' }), { graphql: { operationType: 'mutation' } })).toBe(true);
    expect(matchesRequest(post({ query, operationName: 'A' }), { graphql: { operationType: 'mutation' } })).toBe(false);
    // No name for several operations: none is selected, so no name or type matches.
    const ambiguous = post({ query });
    expect(matchesRequest(ambiguous, { graphql: { operationType: 'query' } })).toBe(false);
    expect(matchesRequest(ambiguous, { graphql: {} })).toBe(true);
  });

  it('matches a JSON subset of the variables, absent variables as {}', () => {
    const request = post({ query: GET_USER, variables: { id: '7', filter: { tags: ['a'] } } });
    expect(matchesRequest(request, { graphql: { variables: { id: '7' } } })).toBe(true);
    expect(matchesRequest(request, { graphql: { variables: { filter: { tags: ['a'] } } } })).toBe(true);
    expect(matchesRequest(request, { graphql: { variables: { id: 7 } } })).toBe(false);
    expect(matchesRequest(post({ query: GET_USER }), { graphql: { variables: {} } })).toBe(true);
    expect(firstMismatch(request, { graphql: { variables: { id: '8' } } }, { explain: true })).toBe(
      'graphql variables.id is "7", route wants "8"',
    );
  });

  it('reads GET ?query= with operationName and variables as JSON text', () => {
    const request = get({ query: GET_USER, operationName: 'GetUser', variables: '{"id":"3"}' });
    expect(matchesRequest(request, { graphql: { operationName: 'GetUser', variables: { id: '3' } } })).toBe(true);
    expect(matchesRequest(get({ search: 'x' }), { graphql: {} })).toBe(false);
  });

  it('matches a batch when one of its operations matches', () => {
    const batch = post([{ query: GET_USER, variables: { id: '1' } }, { query: 'mutation Save { save }' }]);
    expect(graphqlRequestOf(batch)?.batch).toBe(true);
    expect(matchesRequest(batch, { graphql: { operationName: 'Save', operationType: 'mutation' } })).toBe(true);
    expect(matchesRequest(batch, { graphql: { operationName: 'GetUser', variables: { id: '1' } } })).toBe(true);
    expect(matchesRequest(batch, { graphql: { operationName: 'Other' } })).toBe(false);
    // An array with a member that is no operation is no GraphQL request.
    expect(matchesRequest(post([{ query: GET_USER }, { id: 1 }]), { graphql: {} })).toBe(false);
  });

  it('never matches a request that is not GraphQL, and says so', () => {
    const rest = post({ id: 1 });
    expect(matchesRequest(rest, { graphql: {} })).toBe(false);
    expect(firstMismatch(rest, { graphql: { operationName: 'X' } }, { explain: true })).toBe('not a GraphQL request');
    expect(matchesRequest(post({ query: 42 }), { graphql: {} })).toBe(false);
  });

  it('reads an application/graphql body as the document', () => {
    const request = {
      ...post(undefined),
      body: 'mutation Ping { ping }',
      json: undefined,
      headers: { 'content-type': 'application/graphql' },
    };
    expect(matchesRequest(request, { graphql: { operationName: 'Ping', operationType: 'mutation' } })).toBe(true);
  });

  it('bounds the parser: past maxTokens the document is a syntax error, not work', () => {
    const huge = `{ ${'a '.repeat(MAX_DOCUMENT_TOKENS + 10)}}`;
    const request = graphqlRequestOf(post({ query: huge }));
    const [operation] = request?.operations ?? [];
    expect(operation?.problem).toMatch(/tokens/);
    expect(operation?.operationType).toBeUndefined();
  });
});

describe('the journal mark', () => {
  it('names the operation, its type and variables; every operation of a batch', () => {
    expect(graphqlMarkOf(post({ query: GET_USER, variables: { id: '7' } }))).toEqual({
      operationName: 'GetUser',
      operationType: 'query',
      variables: { id: '7' },
    });
    expect(graphqlMarkOf(post([{ query: '{ a }' }, { query: 'mutation M { m }' }]))).toEqual({
      operationName: null,
      operationType: 'query',
      batch: [
        { operationName: null, operationType: 'query' },
        { operationName: 'M', operationType: 'mutation' },
      ],
    });
  });

  it('marks no request whose document does not parse (a search box ?query=)', () => {
    expect(graphqlMarkOf(get({ query: 'red shoes' }))).toBeUndefined();
    expect(graphqlMarkOf(post({ name: 'x' }))).toBeUndefined();
  });
});
