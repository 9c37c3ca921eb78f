import { describe, expect, it } from 'vitest';
import type { Route } from '../api/route.js';
import { parseMockFile } from './parse-mock-file.js';
import { isPostmanCollection, postmanMockFile } from './postman-collection.js';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** A URL as the SDK's toJSON() writes it: host and path as lists, no raw. */
const url = (host: string, path: string[], query: [string, string][] = []) => ({
  host: [host],
  path,
  query: query.map(([key, value]) => ({ key, value })),
  variable: [],
});

function routesOf(text: string): Route[] {
  const file = parseMockFile(text, { file: 'import.json', format: 'json', maxBodyBytes: Infinity });
  return (file.endpoints[0]?.routes ?? []) as Route[];
}

describe('Postman collections', () => {
  it('tells a collection from other JSON, and refuses what is not one with the way out', () => {
    expect(isPostmanCollection(JSON.stringify({ info: { name: 'x', schema: SCHEMA }, item: [] }))).toBe(true);
    expect(isPostmanCollection('{"item":[]}')).toBe(false);
    expect(isPostmanCollection('{"log":{"entries":[]}}')).toBe(false);
    expect(() => postmanMockFile('{"info":{}}', { name: 'x', file: 'c.json' })).toThrow(
      /c.json: a Postman collection v2.1/,
    );
    expect(() =>
      postmanMockFile(
        JSON.stringify({ info: { schema: 'https://schema.getpostman.com/json/collection/v1.0.0/' }, item: [] }),
        {
          name: 'x',
        },
      ),
    ).toThrow(/export it from Postman as Collection v2.1/);
  });

  it('each example answers its request: folders as ids, variables put in, examples told apart by query and body', () => {
    const collection = {
      info: { name: 'Shop', schema: SCHEMA },
      variable: [
        { key: 'baseUrl', value: 'https://api.example.com/{{version}}' },
        { key: 'version', value: 'v1' },
      ],
      item: [
        {
          name: 'Users',
          item: [
            {
              name: 'Get user',
              request: { method: 'GET', url: url('{{baseUrl}}', ['users', ':id']) },
              response: [
                {
                  name: 'ok',
                  originalRequest: { method: 'GET', url: url('{{baseUrl}}', ['users', '1']) },
                  code: 200,
                  header: [
                    { key: 'Content-Type', value: 'application/json' },
                    { key: 'Content-Length', value: '99' },
                    { key: 'Content-Encoding', value: 'gzip' },
                  ],
                  body: '{ "id": 1 }',
                },
                {
                  name: 'verbose',
                  originalRequest: { method: 'GET', url: url('{{baseUrl}}', ['users', '1'], [['verbose', 'true']]) },
                  code: 200,
                  header: [{ key: 'Content-Type', value: 'application/json' }],
                  body: '{ "id": 1, "more": true }',
                },
                {
                  name: 'again',
                  originalRequest: { method: 'GET', url: url('{{baseUrl}}', ['users', '2']) },
                  code: 200,
                  body: 'same request as ok',
                },
              ],
            },
          ],
        },
        {
          name: 'Create order',
          request: { method: 'POST', url: 'https://{{host}}/orders', body: { mode: 'raw', raw: '{"a":1}' } },
          response: [
            {
              name: 'created',
              originalRequest: {
                method: 'POST',
                url: 'https://{{host}}/orders',
                body: { mode: 'raw', raw: '{"a":1}' },
              },
              code: 201,
              body: 'created',
            },
            {
              name: 'refused',
              originalRequest: { method: 'POST', url: 'https://{{host}}/orders', body: { mode: 'raw', raw: 'nope' } },
              code: 422,
              body: 'refused',
            },
          ],
        },
        { name: 'No example', request: { method: 'DELETE', url: 'https://x/y' }, response: [] },
        {
          name: 'Scripted',
          event: [{ listen: 'test', script: { exec: ['pm.test()'] } }],
          request: 'https://x/z',
          response: [{ name: 'r', code: 0, body: '' }],
        },
      ],
    };
    const made = postmanMockFile(JSON.stringify(collection), { name: 'shop' });
    const routes = routesOf(made.text);
    // Literal paths before patterns; each request's examples the most specific first.
    expect(routes.map((route) => [route.id, route.match])).toEqual([
      ['Create-order', { method: 'POST', path: '/orders', body: { a: 1 } }],
      ['Create-order-2', { method: 'POST', path: '/orders', body: 'nope' }],
      ['Users-Get-user', { method: 'GET', path: '/v1/users/:id', query: { verbose: 'true' } }],
      ['Users-Get-user-2', { method: 'GET', path: '/v1/users/:id' }],
    ]);
    expect(routes[3]?.answer).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{ "id": 1 }',
    });
    expect(made).toMatchObject({ requests: 4, imported: 2, routes: 4 });
    expect(made.leftOut).toEqual([
      {
        what: 'Users / Get user example "again"',
        why: 'saved with the same request (query and body) as example "ok", which answers it',
      },
      { what: 'Create order: {{host}}', why: expect.stringMatching(/does not define this variable/) },
      { what: 'No example', why: expect.stringMatching(/no saved example response/) },
      { what: 'Scripted', why: 'its scripts (pre-request, test) are not run' },
      { what: 'Scripted example "r"', why: 'its status 0 is not an answer of 200-599' },
    ]);
  });

  it('a {{variable}} the collection does not define as a whole segment is a route parameter', () => {
    const made = postmanMockFile(
      JSON.stringify({
        info: { name: 'x', schema: SCHEMA },
        item: [{ name: 'a', request: { url: 'https://h/items/{{itemId}}/x' }, response: [{ code: 204 }] }],
      }),
      { name: 'x' },
    );
    expect(routesOf(made.text)[0]).toMatchObject({
      match: { method: 'GET', path: '/items/:itemId/x' },
      answer: { statusCode: 204 },
    });
    expect(made.leftOut.map((one) => one.what)).toEqual(['a: {{itemId}}']);
  });
});
