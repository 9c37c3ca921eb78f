// Routes checked against a local OpenAPI document: each kind of drift planted is found, exactly; a fitting set passes.
import { describe, expect, it } from 'vitest';
import type { Route } from '../api/route.js';
import { JsonText } from '../codec/json-text.js';
import { readOpenApi } from './openapi-document.js';
import { verifyRoutes, YIELD_EVERY } from './verify-routes.js';

const PET = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    tag: { type: 'string', nullable: true },
    secret: { type: 'string', writeOnly: true },
  },
};

/** A small pet store, 3.0 (nullable, a default response, a required header, a server base path). */
const DOC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.2.0' },
  servers: [{ url: 'https://pets.example/v1' }],
  paths: {
    '/pets': {
      get: {
        responses: {
          200: {
            description: 'ok',
            headers: {
              'x-total': { required: true, schema: { type: 'integer', minimum: 0 } },
            },
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          },
          default: { $ref: '#/components/responses/Error' },
        },
      },
      post: {
        responses: {
          201: {
            description: 'made',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        responses: {
          200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          404: { description: 'none' },
        },
      },
      delete: { responses: { 204: { description: 'gone' } } },
    },
    '/pets/{petId}/photo': {
      get: { responses: { '2XX': { description: 'ok', content: { 'image/*': { schema: { type: 'string' } } } } } },
    },
    '/health': {
      get: {
        responses: {
          200: { description: 'ok', content: { 'text/plain': { schema: { type: 'string', enum: ['up'] } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: PET,
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
    responses: {
      Error: {
        description: 'error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  },
};

/** Routes that fit DOC in every way checked. */
const FITTING: Route[] = [
  {
    id: 'list',
    match: { method: 'GET', path: '/pets' },
    answer: { headers: { 'x-total': '1' }, data: [{ id: 1, name: 'Rex', tag: null }] },
  },
  { id: 'list-error', match: { method: 'GET', path: '/pets' }, answer: { statusCode: 500, data: { message: 'down' } } },
  {
    id: 'make',
    match: { method: 'post', path: '/pets' },
    answer: { statusCode: 201, data: new JsonText('{"id":2,"name":"Tom"}') },
  },
  { id: 'one', match: { method: 'GET', path: '/pets/:id' }, answer: { data: { id: 7, name: 'Ada' } } },
  { id: 'missing', match: { method: 'GET', path: '/pets/:id' }, answer: { statusCode: 404 } },
  { id: 'gone', match: { method: 'DELETE', path: '/pets/:id' }, answer: { statusCode: 204 } },
  { id: 'base', match: { method: 'GET', path: '/v1/pets/:id' }, answer: { data: { id: 8, name: 'Bo' } } },
  {
    id: 'photo',
    match: { method: 'GET', path: '/pets/:id/photo' },
    answer: { headers: { 'content-type': 'image/png' }, bodyBase64: 'iVBORw0KGgo=' },
  },
  { id: 'health', match: { method: 'GET', path: '/health' }, answer: { body: 'up' } },
  {
    id: 'templated',
    match: { method: 'GET', path: '/pets/:id' },
    answer: { template: true, data: { id: '{{params.id}}', name: 'x' } },
  },
  { id: 'proxied', match: { method: 'GET', path: '/pets' }, answer: { proxy: { url: 'http://127.0.0.1:1' } } },
  { id: 'any', match: { path: '/pets/*' }, answer: { data: {} } },
];

const pause = () => Promise.resolve();

describe('verifyRoutes', () => {
  it('passes routes that fit the document, with a note for each route or part it could not check', async () => {
    const report = await verifyRoutes(readOpenApi(DOC), [{ name: 'pets', routes: FITTING }], { pause });
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked).toEqual({ endpoints: 1, routes: FITTING.length });
    expect(report.document).toEqual({ title: 'Pets', version: '1.2.0', openapi: '3.0.3' });
    expect(report.notes.map((note) => note.route?.id)).toEqual(['templated', 'proxied', 'any']);
    expect(report.endpoints[0]?.routes.map((route) => route.id)).toEqual(FITTING.map((route) => route.id));
  });

  it('finds each kind of drift planted, and nothing else', async () => {
    const drifted: Route[] = [
      { id: 'no-path', match: { method: 'GET', path: '/cats' }, answer: { data: [] } },
      { id: 'no-method', match: { method: 'PATCH', path: '/pets/:id' }, answer: { data: {} } },
      { id: 'status', match: { method: 'GET', path: '/pets/:id' }, answer: { statusCode: 418, data: {} } },
      {
        id: 'type',
        match: { method: 'GET', path: '/pets/:id' },
        answer: { data: { id: 'seven', name: 'Ada', tag: 3 } },
      },
      {
        id: 'required',
        match: { method: 'GET', path: '/pets' },
        answer: { headers: { 'x-total': '1' }, data: [{ id: 1 }] },
      },
      { id: 'header', match: { method: 'GET', path: '/pets' }, answer: { data: [] } },
      {
        id: 'header-type',
        match: { method: 'GET', path: '/pets' },
        answer: { headers: { 'x-total': '-2' }, data: [] },
      },
      {
        id: 'ctype',
        match: { method: 'GET', path: '/pets/:id' },
        answer: { body: '<pet/>', headers: { 'content-type': 'application/xml' } },
      },
      { id: 'no-body', match: { method: 'POST', path: '/pets' }, answer: { statusCode: 201 } },
      {
        id: 'body-where-none',
        match: { method: 'GET', path: '/pets/:id' },
        answer: { statusCode: 404, data: { x: 1 } },
      },
      {
        id: 'not-json',
        match: { method: 'GET', path: '/pets/:id' },
        answer: { body: 'oops', headers: { 'content-type': 'application/json' } },
      },
      { id: 'text', match: { method: 'GET', path: '/health' }, answer: { body: 'down' } },
      { id: 'default', match: { method: 'GET', path: '/pets' }, answer: { statusCode: 503, data: { msg: 'x' } } },
    ];
    const report = await verifyRoutes(readOpenApi(DOC), [{ name: 'pets', routes: drifted }], { pause });
    expect(report.ok).toBe(false);
    expect(report.notes).toEqual([]);
    const found = report.findings.map(({ route, code, path, expected, found }) => [
      route?.id,
      code,
      path,
      expected,
      found,
    ]);
    expect(found).toEqual([
      ['no-path', 'MISSING_OPERATION', 'path', 'a path of the document', '/cats'],
      ['no-method', 'MISSING_OPERATION', 'method', 'one of GET, DELETE', 'PATCH'],
      ['status', 'UNDECLARED_STATUS', 'status', 'one of 200, 404', '418'],
      ['type', 'SCHEMA_MISMATCH', 'body/id', expect.stringContaining('integer'), '"seven"'],
      ['type', 'SCHEMA_MISMATCH', 'body/tag', expect.stringContaining('string'), '3'],
      ['required', 'SCHEMA_MISMATCH', 'body/0/name', expect.stringContaining('name'), 'nothing'],
      ['header', 'MISSING_HEADER', 'headers/x-total', 'the header', 'none'],
      ['header-type', 'SCHEMA_MISMATCH', 'headers/x-total', expect.stringContaining('0'), '-2'],
      ['ctype', 'WRONG_CONTENT_TYPE', 'body', 'one of application/json', 'application/xml'],
      ['no-body', 'MISSING_BODY', 'body', 'a body of application/json', 'no body'],
      [
        'body-where-none',
        'WRONG_CONTENT_TYPE',
        'body',
        'no body (the response declares no content)',
        'application/json',
      ],
      ['not-json', 'SCHEMA_MISMATCH', 'body', 'JSON (application/json)', '"oops"'],
      ['text', 'SCHEMA_MISMATCH', 'body', expect.stringContaining('up'), '"down"'],
      ['default', 'SCHEMA_MISMATCH', 'body/message', expect.stringContaining('message'), 'nothing'],
    ]);
    for (const finding of report.findings) {
      expect(finding.endpoint).toBe('pets');
      expect(finding.route?.index).toBe(drifted.findIndex((route) => route.id === finding.route?.id));
      expect(finding.message).toContain(finding.code);
    }
  });

  it("reads a route's literal segment where the document has a parameter as one case of that operation", async () => {
    const routes: Route[] = [
      { id: 'missing', match: { method: 'GET', path: '/pets/404' }, answer: { statusCode: 404 } },
      { id: 'seven', match: { method: 'GET', path: '/v1/pets/7' }, answer: { data: { id: 'seven', name: 'Ada' } } },
      {
        id: 'photo',
        match: { method: 'GET', path: '/pets/:id/photo' },
        answer: { body: 'x', headers: { 'content-type': 'image/png' } },
      },
      { id: 'deeper', match: { method: 'GET', path: '/pets/7/collar' }, answer: { data: {} } },
      { id: 'param-for-literal', match: { method: 'GET', path: '/:any' }, answer: { body: 'up' } },
    ];
    const report = await verifyRoutes(readOpenApi(DOC), [{ name: 'pets', routes }], { pause });
    expect(report.findings.map(({ route, code, path }) => [route?.id, code, path])).toEqual([
      ['seven', 'SCHEMA_MISMATCH', 'body/id'],
      ['deeper', 'MISSING_OPERATION', 'path'],
      ['param-for-literal', 'MISSING_OPERATION', 'path'],
    ]);
  });

  it('reads a 3.1 document from YAML text, its null types as 3.1 writes them', async () => {
    const yaml = [
      'openapi: 3.1.0',
      'info: { title: T, version: "1" }',
      'paths:',
      '  /a:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: ok',
      '          content:',
      '            application/json:',
      '              schema: { type: object, properties: { n: { type: [integer, "null"] } } }',
    ].join('\n');
    const doc = readOpenApi(yaml);
    const ok = await verifyRoutes(
      doc,
      [{ name: 'a', routes: [{ id: 'r', match: { method: 'GET', path: '/a' }, answer: { data: { n: null } } }] }],
      { pause },
    );
    expect(ok.findings).toEqual([]);
    const bad = await verifyRoutes(
      doc,
      [{ name: 'a', routes: [{ id: 'r', match: { method: 'GET', path: '/a' }, answer: { data: { n: 'x' } } }] }],
      { pause },
    );
    expect(bad.findings.map((f) => f.path)).toEqual(['body/n']);
  });

  it('lets the event loop run every YIELD_EVERY routes and after each endpoint', async () => {
    let pauses = 0;
    const routes: Route[] = Array.from({ length: 5 * YIELD_EVERY }, (_, i) => ({
      id: `r${i}`,
      match: { method: 'GET', path: '/pets/:id' },
      answer: { data: { id: i, name: 'n' } },
    }));
    const counted = () => {
      pauses++;
      return Promise.resolve();
    };
    const report = await verifyRoutes(
      readOpenApi(DOC),
      [
        { name: 'a', routes },
        { name: 'b', routes: [] },
      ],
      { pause: counted },
    );
    expect(report.ok).toBe(true);
    expect(pauses).toBe(5 + 2);
  });

  it('caps the findings and counts the rest', async () => {
    const routes: Route[] = Array.from({ length: 30 }, (_, i) => ({
      id: `r${i}`,
      match: { method: 'GET', path: `/x${i}` },
      answer: {},
    }));
    const report = await verifyRoutes(readOpenApi(DOC), [{ name: 'pets', routes }], { pause, maxFindings: 10 });
    expect(report.findings).toHaveLength(10);
    expect(report.moreFindings).toBe(20);
    expect(report.ok).toBe(false);
  });

  it('refuses what is not an OpenAPI 3 document with INVALID_OPENAPI', () => {
    for (const input of [
      42,
      'a: [',
      { swagger: '2.0', paths: {} },
      { openapi: '3.0.0' },
      '{"openapi":"4.0.0","paths":{}}',
      // The API reads no file: a $ref naming one is refused.
      { openapi: '3.1.0', paths: { '/a': { get: { responses: { 200: { $ref: 'other.yaml#/R' } } } } } },
    ]) {
      expect(() => readOpenApi(input)).toThrow(expect.objectContaining({ code: 'INVALID_OPENAPI' }));
    }
  });
});
