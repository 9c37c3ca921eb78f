import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Route } from '../api/route.js';
import { isMockoonEnvironment, mockoonMockFile } from './mockoon-environment.js';
import { parseMockFile } from './parse-mock-file.js';

/**
 * A path as the importer writes it: Express ignores case and a trailing `/`, so a regex, each
 * `:param` (a whole segment here) a named group.
 */
const ci = (path: string) => ({
  matches: `(?i)${path.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+?)')}/?`,
});

/** The environment the server's peer test runs in the Mockoon CLI itself. */
const FIXTURES = fileURLToPath(new URL('../../../server/test/fixtures/mockoon/', import.meta.url));
const readFixture = (path: string) => {
  try {
    return new Uint8Array(readFileSync(FIXTURES + path));
  } catch {
    return undefined;
  }
};

/** A Mockoon response with the defaults Mockoon saves. */
function response(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    uuid: 'r',
    body: '',
    latency: 0,
    statusCode: 200,
    label: '',
    headers: [],
    bodyType: 'INLINE',
    filePath: '',
    databucketID: '',
    sendFileAsBody: false,
    rules: [],
    rulesOperator: 'OR',
    disableTemplating: false,
    fallbackTo404: false,
    default: false,
    crudKey: 'id',
    callbacks: [],
    ...fields,
  };
}

function environment(routes: Record<string, unknown>[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    uuid: 'e',
    lastMigration: 33,
    name: 'x',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    routes: routes.map((route, i) => ({
      uuid: `u${i}`,
      type: 'http',
      documentation: '',
      method: 'get',
      responseMode: null,
      ...route,
    })),
    headers: [],
    data: [],
    cors: false,
    ...extra,
  });
}

function routesOf(text: string): Route[] {
  const file = parseMockFile(text, { file: 'import.json', format: 'json', maxBodyBytes: Infinity });
  return (file.endpoints[0]?.routes ?? []) as Route[];
}

describe('Mockoon environments', () => {
  it('tells an environment from other JSON', () => {
    expect(isMockoonEnvironment(environment([]))).toBe(true);
    expect(isMockoonEnvironment('{"routes":[]}')).toBe(false);
    expect(isMockoonEnvironment('{"version":1,"endpoints":[]}')).toBe(false);
    expect(isMockoonEnvironment('not json')).toBe(false);
    expect(() => mockoonMockFile('[]', { name: 'x', file: 'e.json' })).toThrow(/e.json: a Mockoon environment/);
    expect(() => mockoonMockFile('{', { name: 'x' })).toThrow(/not JSON/);
  });

  it('the peer test environment: every route, in the folders order, and what is left out by name', () => {
    const made = mockoonMockFile(readFileSync(`${FIXTURES}environment.json`, 'utf8'), {
      name: 'shop',
      readFile: readFixture,
    });
    const routes = routesOf(made.text);
    const byPath = (path: string | { matches: string }) =>
      routes.filter(
        (route) =>
          JSON.stringify(route.match?.path) === JSON.stringify(path) ||
          (typeof path === 'string' && JSON.stringify(route.match?.path) === JSON.stringify(ci(path))),
      );
    // The folder "Users" comes first: GET and DELETE /users/:id, then the rest in rootChildren's order.
    expect(routes[0]?.match).toEqual({ path: { matches: '(?i)/api/users/(?<id>(?-i:1))/?' }, method: 'GET' });
    expect(routes.slice(1, 3).map((route) => route.match)).toEqual([
      { path: ci('/api/users/:id'), method: 'GET', query: { verbose: 'true' } },
      { path: ci('/api/users/:id'), method: 'GET', headers: { 'x-mode': 'full' } },
    ]);
    expect(routes[1]?.answer).toMatchObject({
      template: true,
      headers: { 'x-echo': '{{params.id}}', 'content-type': 'application/json; charset=utf-8', 'x-env': 'shop' },
      body: '{"id":"{{params.id}}","verbose":"{{query.verbose}}","agent":"{{headers.x-agent}}"}',
    });
    expect(routes[3]).toMatchObject({
      match: { path: ci('/api/users/:id'), method: 'GET' },
      answer: { statusCode: 404, delay: 20 },
    });
    expect(routes[4]).toMatchObject({
      match: { path: ci('/api/users/:id'), method: 'DELETE' },
      answer: { statusCode: 204, headers: { 'x-env': 'shop' } },
    });
    expect(routes[4]?.answer.headers).not.toHaveProperty('content-type');
    // A body value that may be a number or a string: both.
    // A regex rule over the whole body: the regex form, found anywhere as RegExp.test finds it.
    expect(byPath('/api/orders').map((route) => route.match?.body ?? route.match?.bodyPatterns)).toEqual([
      { order: { type: 'express' } },
      { order: { count: '3' } },
      { order: { count: 3 } },
      [{ matches: '(?s).*(?:^ab+c$).*' }],
      undefined,
    ]);
    // SEQUENTIAL: a scenario of its own, back to started after the last.
    expect(
      byPath('/api/sequence').map((route) => [route.match?.state, route.answer.setState, route.answer.body]),
    ).toEqual([
      [{ 'mockoon-get-api-sequence': 'started' }, { 'mockoon-get-api-sequence': '2' }, 'one'],
      [{ 'mockoon-get-api-sequence': '2' }, { 'mockoon-get-api-sequence': '3' }, 'two'],
      [{ 'mockoon-get-api-sequence': '3' }, { 'mockoon-get-api-sequence': 'started' }, 'three'],
    ]);
    expect(byPath('/api/files/logo')[0]?.answer).toMatchObject({
      headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="logo.png"' },
      bodyBase64: Buffer.from(readFixture('logo.png') as Uint8Array).toString('base64'),
    });
    expect(byPath('/api/files/data/:id')[0]?.answer).toMatchObject({
      template: true,
      body: '{\n  "id": "{{params.id}}",\n  "kind": "file"\n}\n',
    });
    expect(byPath('/api/people')[0]?.answer).toEqual({ resource: 'People', headers: { 'x-env': 'shop' } });
    expect(made.collections).toEqual(['People']);
    expect(made.text).toContain('"People": [{"id":1,"name":"Ada","balance":1.50},{"id":2,"name":"Grace"}]');
    expect(byPath('/api/people-snapshot')[0]?.answer.body).toBe(
      '[{"id":1,"name":"Ada","balance":1.5},{"id":2,"name":"Grace"}]',
    );
    // DISABLE_RULES: the default only, for every method.
    expect(byPath('/api/health').map((route) => route.match)).toEqual([{ path: ci('/api/health') }]);
    // FALLBACK: no default, so the next route answers.
    expect(byPath('/api/fallback/:x').map((route) => route.answer.body)).toEqual(['second']);
    expect(byPath({ matches: '(?i)/api/fallback/(?<x>(?-i:a))/?' }).map((route) => route.answer.body)).toEqual([
      'first',
    ]);
    expect(byPath('/api/xml')[0]?.answer.headers).toMatchObject({ 'content-type': 'Application/XML; Charset=latin1' });
    // mockpoint answers every preflight itself (cors: true): no route for it.
    expect(routes.filter((route) => route.match?.method === 'OPTIONS')).toEqual([]);
    expect(made.leftOut).toEqual([
      { what: 'GET /people-snapshot response 1 data bucket', why: expect.stringMatching(/as the bucket is at start/) },
      { what: 'GET /helpers response 1 template helper faker', why: expect.stringMatching(/served as written/) },
      { what: 'GET /helpers response 1 template helper repeat', why: expect.stringMatching(/served as written/) },
      { what: 'GET /inverted response 1 rule 1 (cookie "role")', why: expect.stringMatching(/inverted rule/) },
    ]);
    expect(byPath('/api/helpers')[0]?.answer).not.toHaveProperty('template');
  });

  it('templates: the helpers with a placeholder are carried over, any other keeps the body as written', () => {
    const body = (text: string) =>
      mockoonMockFile(environment([{ endpoint: 't', responses: [response({ body: text })] }]), { name: 'x' });
    expect(
      routesOf(body('{{{body \'a.b\'}}} {{ guid }} {{uuid}} {{now}} {{queryParam "q"}}').text)[0]?.answer,
    ).toMatchObject({
      body: '{{body.a.b}} {{uuid}} {{uuid}} {{now}} {{query.q}}',
      template: true,
    });
    for (const [text, helper] of [
      ["{{now 'yyyy'}}", 'now'],
      ['{{body}}', 'body'],
      ["{{body '$.a'}}", 'body'],
      ["{{queryParam 'a' 'default'}}", 'queryParam'],
      ['{{#if x}}y{{/if}}', 'if'],
      ['{{! note }}', 'a comment ({{! … }})'],
      ['\\{{uuid}}', 'an escaped \\{{'],
      ['{{uuid', 'a "{{" that does not close'],
    ] as [string, string][]) {
      const made = body(text);
      expect(routesOf(made.text)[0]?.answer, text).toMatchObject({ body: text });
      expect(
        made.leftOut.map((one) => one.what),
        text,
      ).toContain(`GET /t response 1 template helper ${helper}`);
    }
    const plain = mockoonMockFile(
      environment([{ endpoint: 't', responses: [response({ body: '{{uuid}}', disableTemplating: true })] }]),
      { name: 'x' },
    );
    expect(routesOf(plain.text)[0]?.answer).not.toHaveProperty('template');
  });

  it('rules: AND merges, OR splits, what has no equivalent is listed, impossible ones say so', () => {
    const made = mockoonMockFile(
      environment([
        {
          endpoint: 'items/:id',
          responses: [
            response({
              rulesOperator: 'AND',
              rules: [
                { target: 'params', modifier: 'id', value: 'a b', operator: 'equals', invert: false },
                { target: 'method', modifier: '', value: 'get', operator: 'equals', invert: false },
                { target: 'query', modifier: 'x', value: '^exact\\.$', operator: 'regex', invert: false },
              ],
              body: 'and',
            }),
            response({
              rulesOperator: 'OR',
              rules: [
                { target: 'cookie', modifier: 's', value: '1', operator: 'equals', invert: false },
                { target: 'header', modifier: 'X-A', value: '1', operator: 'equals', invert: false },
                { target: 'query', modifier: 'y', value: '', operator: 'null', invert: false },
              ],
              body: 'or',
            }),
            response({
              rulesOperator: 'AND',
              rules: [
                { target: 'query', modifier: 'x', value: '1', operator: 'equals', invert: false },
                { target: 'query', modifier: 'x', value: '2', operator: 'equals', invert: false },
              ],
              body: 'never',
            }),
            response({ default: true, body: 'default', latency: 70_000 }),
          ],
        },
        { type: 'ws', endpoint: 'socket', responses: [response({})] },
        { endpoint: 'opt/:id?', responses: [response({})] },
        { endpoint: 'nomethod', method: '', responses: [response({})] },
        { endpoint: 'random', responseMode: 'RANDOM', responses: [response({ body: 'a' }), response({ body: 'b' })] },
      ]),
      { name: 'x' },
    );
    const routes = routesOf(made.text);
    expect(routes.map((route) => [route.match, route.answer.body])).toEqual([
      [{ path: { matches: '(?i)/items/(?<id>(?-i:a%20b))/?' }, method: 'GET', query: { x: 'exact.' } }, 'and'],
      [{ path: ci('/items/:id'), method: 'GET', headers: { 'x-a': '1' } }, 'or'],
      [{ path: ci('/items/:id'), method: 'GET' }, 'default'],
      // Express's optional parameter: a route with it, and one without.
      [{ path: ci('/opt/:id'), method: 'GET' }, undefined],
      [{ path: ci('/opt'), method: 'GET' }, undefined],
      [{ path: ci('/random'), method: 'GET', state: { 'mockoon-get-random': 'started' } }, 'a'],
      [{ path: ci('/random'), method: 'GET', state: { 'mockoon-get-random': '2' } }, 'b'],
    ]);
    expect(routes[2]?.answer.delay).toBe(60_000);
    expect(made.leftOut.map((one) => one.what)).toEqual([
      'GET /items/:id response 2 rule 1 (cookie "s")',
      'GET /items/:id response 2 rule 3 (query "y")',
      'GET /items/:id response 3',
      'latency 70000 ms',
      'GET /socket',
      'ALL /nomethod',
      'GET /random: responseMode RANDOM',
    ]);
  });

  it('folders are walked once each (a folder inside itself too); more routes than a name holds is refused', () => {
    const folders = [
      {
        uuid: 'f1',
        name: 'a',
        children: [
          { type: 'folder', uuid: 'f1' },
          { type: 'route', uuid: 'u0' },
        ],
      },
    ];
    const looped = environment([{ endpoint: 'x', responses: [response({ body: 'x' })] }], {
      folders,
      rootChildren: [
        { type: 'folder', uuid: 'f1' },
        { type: 'folder', uuid: 'f1' },
      ],
    });
    expect(routesOf(mockoonMockFile(looped, { name: 'x' }).text).map((route) => route.answer.body)).toEqual(['x']);
    const many = environment(
      Array.from({ length: 10_001 }, (_, i) => ({ endpoint: `r${i}`, responses: [response({})] })),
    );
    expect(() => mockoonMockFile(many, { name: 'x', file: 'big.json' })).toThrow(
      /big.json: 10001 routes, more than a name holds/,
    );
  });

  it('a callback left out is named, where it is defined and on each response that calls it', () => {
    const env = environment(
      [
        {
          endpoint: 'orders',
          method: 'post',
          responses: [response({ statusCode: 201, callbacks: [{ uuid: 'cb1', latency: 0 }] })],
        },
      ],
      {
        callbacks: [
          { uuid: 'cb1', id: 'x1', name: 'notify-crm', method: 'post', uri: 'https://crm.example/hook', body: '{}' },
          { uuid: 'cb2', id: 'x2', name: 'audit log\u2028', method: 'put', uri: 'http://audit/' },
        ],
      },
    );
    expect(mockoonMockFile(env, { name: 'x' }).leftOut).toEqual([
      {
        what: 'callback notify-crm',
        why: 'POST "https://crm.example/hook" is not sent: a route here sends no request when it answers (a webhook delivery is docs/webhooks.md)',
      },
      {
        what: 'callback "audit log\\u2028"',
        why: 'PUT "http://audit/" is not sent: a route here sends no request when it answers (a webhook delivery is docs/webhooks.md)',
      },
      {
        what: 'POST /orders response 1 callback notify-crm',
        why: 'not sent when it answers (a webhook delivery is docs/webhooks.md)',
      },
    ]);
  });

  it('a file response without a reader, or an unreadable one, is left out and named', () => {
    const env = environment([{ endpoint: 'f', responses: [response({ bodyType: 'FILE', filePath: 'missing.json' })] }]);
    expect(mockoonMockFile(env, { name: 'x' }).leftOut).toEqual([
      {
        what: 'GET /f response 1',
        why: 'its file "missing.json" could not be read',
      },
    ]);
  });
});
