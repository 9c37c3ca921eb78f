import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal-json.js';
import { firstMismatch, isJsonSubset, matchesRequest } from './request-filter.js';

function entry(parts: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: 1,
    method: 'POST',
    path: '/endpoint/hook',
    subpath: '/',
    params: {},
    answeredBy: 'record',
    query: {},
    headers: {},
    body: '',
    bodyTruncated: false,
    receivedAt: new Date(0).toISOString(),
    statusCode: 200,
    ...parts,
  };
}

describe('isJsonSubset', () => {
  it('accepts objects with more keys, recursively', () => {
    const actual = { event: 'order.paid', order: { id: 7, total: 12.5, lines: [1, 2] }, extra: true };
    expect(isJsonSubset({ event: 'order.paid' }, actual)).toBe(true);
    expect(isJsonSubset({ order: { id: 7 } }, actual)).toBe(true);
    expect(isJsonSubset({}, actual)).toBe(true);
    expect(isJsonSubset({ order: { id: 8 } }, actual)).toBe(false);
    expect(isJsonSubset({ missing: null }, actual)).toBe(false);
  });

  it('matches arrays element by element, with the same length', () => {
    expect(isJsonSubset([{ id: 1 }, { id: 2 }], [{ id: 1, a: 0 }, { id: 2 }])).toBe(true);
    expect(isJsonSubset([{ id: 1 }], [{ id: 1 }, { id: 2 }])).toBe(false);
    expect(isJsonSubset([2, 1], [1, 2])).toBe(false);
    expect(isJsonSubset({ lines: [] }, { lines: {} })).toBe(false);
  });

  it('compares scalars strictly: no coercion, null is a value', () => {
    expect(isJsonSubset(1, 1)).toBe(true);
    expect(isJsonSubset('1', 1)).toBe(false);
    expect(isJsonSubset(null, null)).toBe(true);
    expect(isJsonSubset({ a: null }, { a: 0 })).toBe(false);
    expect(isJsonSubset({ a: 1 }, null)).toBe(false);
    expect(isJsonSubset({ a: 1 }, [1])).toBe(false);
  });

  it('looks only at own keys: __proto__ and constructor are ordinary keys', () => {
    const expected = JSON.parse('{"__proto__":{"x":1}}') as unknown;
    expect(isJsonSubset(expected, JSON.parse('{"__proto__":{"x":1,"y":2}}'))).toBe(true);
    expect(isJsonSubset(expected, {})).toBe(false);
    expect(isJsonSubset({ constructor: 'a' }, {})).toBe(false);
  });
});

describe('matchesRequest', () => {
  const request = entry({
    method: 'POST',
    query: { event: 'push', tag: ['a', 'b'] },
    headers: { 'content-type': 'application/json', 'x-attempt': '2' },
    body: '{"type":"order.paid","order":{"id":7}}',
    json: { type: 'order.paid', order: { id: 7 } },
  });

  it('matches everything with an empty filter', () => {
    expect(matchesRequest(request, {})).toBe(true);
  });

  it('compares the method case-insensitively', () => {
    expect(matchesRequest(request, { method: 'post' })).toBe(true);
    expect(matchesRequest(request, { method: 'GET' })).toBe(false);
  });

  it('needs every query parameter given, with its exact value', () => {
    expect(matchesRequest(request, { query: { event: 'push' } })).toBe(true);
    expect(matchesRequest(request, { query: { tag: ['a', 'b'] } })).toBe(true);
    expect(matchesRequest(request, { query: { tag: 'a' } })).toBe(false);
    expect(matchesRequest(request, { query: { event: 'pull' } })).toBe(false);
    expect(matchesRequest(request, { query: { toString: 'x' } })).toBe(false);
  });

  it('needs every header given; names are case-insensitive, values exact', () => {
    expect(matchesRequest(request, { headers: { 'X-Attempt': '2' } })).toBe(true);
    expect(matchesRequest(request, { headers: { 'x-attempt': '3' } })).toBe(false);
    expect(matchesRequest(request, { headers: { constructor: 'x' } })).toBe(false);
  });

  it('matches a JSON subset of the body', () => {
    expect(matchesRequest(request, { body: { order: { id: 7 } } })).toBe(true);
    expect(matchesRequest(request, { body: { order: { id: 8 } } })).toBe(false);
    expect(matchesRequest(request, { method: 'POST', body: { type: 'order.paid' }, query: { event: 'push' } })).toBe(
      true,
    );
  });

  it('matches a string body by its raw text, and never a body that is not JSON by a JSON subset', () => {
    const text = entry({ body: 'hello' });
    expect(matchesRequest(text, { body: 'hello' })).toBe(true);
    expect(matchesRequest(text, { body: 'hell' })).toBe(false);
    expect(matchesRequest(text, { body: {} })).toBe(false);
    expect(matchesRequest(entry({ body: 'hello', bodyTruncated: true }), { body: 'hello' })).toBe(false);
  });

  it('tells an explicit null body apart from no body filter', () => {
    expect(matchesRequest(entry({ body: 'null', json: null }), { body: null })).toBe(true);
    expect(matchesRequest(entry({ body: '' }), { body: null })).toBe(false);
    expect(matchesRequest(entry({ body: '' }), {})).toBe(true);
  });
});

describe('the graphql field without a parser (the browser client)', () => {
  const query = 'query GetUser($id: ID!) { user(id: $id) { name } }';
  const body = JSON.stringify({ query, variables: { id: '7' } });

  it("reads a journal entry's graphql mark, its batch too", () => {
    const marked = entry({
      body,
      json: JSON.parse(body),
      graphql: { operationName: 'GetUser', operationType: 'query', variables: { id: '7' } },
    });
    expect(matchesRequest(marked, { graphql: { operationName: 'GetUser', variables: { id: '7' } } })).toBe(true);
    expect(firstMismatch(marked, { graphql: { operationType: 'mutation' } }, { explain: true })).toBe(
      'graphql operationType is query, route wants mutation',
    );
    const batch = entry({
      graphql: {
        operationName: 'A',
        operationType: 'query',
        batch: [
          { operationName: 'A', operationType: 'query' },
          { operationName: 'Save', operationType: 'mutation' },
        ],
      },
    });
    expect(matchesRequest(batch, { graphql: { operationName: 'Save', operationType: 'mutation' } })).toBe(true);
  });

  it('finds no GraphQL request in an entry without a mark: the body is not parsed', () => {
    const unmarked = entry({ body, json: JSON.parse(body) });
    expect(firstMismatch(unmarked, { graphql: {} }, { explain: true })).toBe('not a GraphQL request');
  });
});

describe('the grpc field', () => {
  const call = entry({
    method: 'POST',
    grpc: {
      service: 'shop.v1.Orders',
      method: 'GetOrder',
      protocol: 'grpc',
      message: { id: '7', items: ['a'] },
      code: 'ok',
    },
  });

  it("reads a journal entry's grpc mark: service, method, a JSON subset of the message", () => {
    expect(matchesRequest(call, { grpc: {} })).toBe(true);
    expect(
      matchesRequest(call, { grpc: { service: 'shop.v1.Orders', method: 'GetOrder', message: { id: '7' } } }),
    ).toBe(true);
    expect(firstMismatch(call, { grpc: { method: 'Watch' } }, { explain: true })).toBe(
      'grpc method is "GetOrder", route wants "Watch"',
    );
    expect(firstMismatch(call, { grpc: { service: 'shop.v2.Orders' } }, { explain: true })).toBe(
      'grpc service is "shop.v1.Orders", route wants "shop.v2.Orders"',
    );
    expect(firstMismatch(call, { grpc: { message: { id: '8' } } }, { explain: true })).toBe(
      'grpc message.id is "7", route wants "8"',
    );
    expect(matchesRequest(call, { grpc: { message: { items: ['a', 'b'] } } })).toBe(false);
  });

  it('never matches a request that is no call, nor a message that was not read', () => {
    expect(firstMismatch(entry({}), { grpc: {} }, { explain: true })).toBe('not a gRPC call');
    const unread = entry({ grpc: { service: 's.S', method: 'M', protocol: 'connect', code: 'invalid_argument' } });
    expect(matchesRequest(unread, { grpc: { method: 'M' } })).toBe(true);
    expect(firstMismatch(unread, { grpc: { message: {} } }, { explain: true })).toBe('grpc message was not read');
  });
});

describe('WireMock-equal conditions: bodyEquals, bodyJsonPaths, absent', () => {
  const json = (body: string) => entry({ body, json: JSON.parse(body) });

  it('bodyEquals: the same members in any order and no others, arrays in order, numbers by value', () => {
    const filter = { bodyEquals: { a: 1, b: [1, 2], c: { d: null } } };
    expect(matchesRequest(json('{"c":{"d":null},"b":[1,2],"a":1}'), filter)).toBe(true);
    expect(matchesRequest(json('{"a":1.0,"b":[1,2],"c":{"d":null}}'), filter)).toBe(true);
    expect(matchesRequest(json('{"a":1,"b":[2,1],"c":{"d":null}}'), filter)).toBe(false);
    expect(matchesRequest(json('{"a":"1","b":[1,2],"c":{"d":null}}'), filter)).toBe(false);
    expect(firstMismatch(json('{"a":1,"b":[1,2],"c":{}}'), filter, { explain: true })).toBe('body.c.d missing');
    expect(firstMismatch(json('{"a":1,"b":[1,2],"c":{"d":null},"e":1}'), filter, { explain: true })).toBe(
      "body.e is not in the route's JSON (it wants it exactly)",
    );
    expect(firstMismatch(entry({ body: 'x' }), filter, { explain: true })).toBe('body is not JSON');
    expect(matchesRequest(json('null'), { bodyEquals: null })).toBe(true);
    expect(matchesRequest(entry({ body: '' }), { bodyEquals: null })).toBe(false);
  });

  it('explains an array and extra members by each rule: body a subset, bodyEquals exact', () => {
    const sent = json('{"b":[1],"c":"x","e":1}');
    expect(firstMismatch(sent, { body: { b: [1, 2] } }, { explain: true })).toBe('body.b is [1], route wants [1,2]');
    expect(firstMismatch(sent, { body: { c: [1] } }, { explain: true })).toBe('body.c is "x", route wants [1]');
    expect(firstMismatch(sent, { body: { b: [1], c: 'x' } }, { explain: true })).toBeUndefined();
    expect(firstMismatch(sent, { bodyEquals: { b: [1, 2] } }, { explain: true })).toBe(
      'body.b has 1 element(s), route wants 2',
    );
    expect(firstMismatch(sent, { bodyEquals: { c: [1] } }, { explain: true })).toBe(
      'body.c is "x", route wants an array',
    );
    expect(firstMismatch(sent, { bodyEquals: { b: [1], c: 'x' } }, { explain: true })).toBe(
      "body.e is not in the route's JSON (it wants it exactly)",
    );
  });

  it('bodyJsonPaths: each must select something', () => {
    const filter = { bodyJsonPaths: ['$.items[0].id', '$[?(@.total > 10)]'] };
    expect(matchesRequest(json('{"items":[{"id":7}],"total":11}'), filter)).toBe(true);
    expect(firstMismatch(json('{"items":[{"id":7}],"total":10}'), filter, { explain: true })).toBe(
      'body has nothing at "$[?(@.total > 10)]"',
    );
    expect(matchesRequest(json('{"items":[],"total":11}'), filter)).toBe(false);
  });

  it('absent: a header or query parameter that is not sent; an empty value is sent', () => {
    const filter = { headers: { 'X-Debug': { absent: true as const } }, query: { d: { absent: true as const } } };
    expect(matchesRequest(entry(), filter)).toBe(true);
    expect(firstMismatch(entry({ headers: { 'x-debug': '' } }), filter, { explain: true })).toBe(
      'header x-debug is "", route wants it absent',
    );
    expect(firstMismatch(entry({ query: { d: '' } }), filter, { explain: true })).toBe(
      'query d is "", route wants it absent',
    );
  });
});
