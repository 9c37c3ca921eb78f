import { EXPECTED_DEFAULT_LIMITS } from '@mockpoint/testkit/expected-health';
import { validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { mockFileJsonSchemaText } from '../../files/mock-file-schema.js';
import { parseMockFile } from '../../files/parse-mock-file.js';
import { createApp, type MockpointApp } from '../../index.js';
import { NAME_PATTERN } from '../../registry/rules.js';
import { VERSION } from '../../registry/version.js';
import { MemoryStore } from '../../store/memory/memory-store.js';

type Operation = {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { content?: { 'application/json': { schema: JsonSchema } } }>;
  security?: unknown[];
};
type JsonSchema = {
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: unknown;
};
type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

async function openapi(app: MockpointApp): Promise<Document> {
  const response = await app.request('/api/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Document;
}

/** `method path` of every route the app serves, in OpenAPI path syntax. */
function servedRoutes(app: MockpointApp): string[] {
  const routes = app.routes
    .filter((route) => route.method !== 'ALL') // app.use() middleware
    .map(
      (route) =>
        `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{subpath}')}`,
    );
  return [...new Set(routes)].sort();
}

function documentedRoutes(doc: Document): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
    .sort();
}

function operation(doc: Document, method: string, path: string): Operation {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} is not documented`);
  return op;
}

describe('GET /api/health', () => {
  it('answers status, version and store kind', async () => {
    const response = await createApp().request('/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      version: VERSION,
      store: 'memory',
      longPolls: 0,
      limits: EXPECTED_DEFAULT_LIMITS,
    });
    const custom = createApp({
      version: '9.9.9',
      store: new MemoryStore(),
      maxDelayMs: 5000,
      journalSize: 7,
      maxRoutes: 3,
      maxConnections: 4,
    });
    expect(await (await custom.request('/api/health')).json()).toMatchObject({
      version: '9.9.9',
      limits: { maxDelayMs: 5000, journalSize: 7, maxRoutes: 3, maxConnections: 4 },
    });
  });

  it('counts the journal long-polls held now', async () => {
    const app = createApp();
    const longPolls = async () =>
      ((await (await app.request('/api/health')).json()) as { longPolls: number }).longPolls;
    const held = [
      app.request('/api/endpoints/a/requests?wait=30000'),
      app.request('/api/endpoints/b/requests?wait=30000'),
    ];
    await vi.waitFor(async () => expect(await longPolls()).toBe(2), { timeout: 10_000 });
    await app.request('/endpoint/a', { method: 'POST' });
    await held[0];
    expect(await longPolls()).toBe(1);
    await app.request('/endpoint/b', { method: 'POST' });
    await held[1];
    expect(await longPolls()).toBe(0);
  });
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document that a validator accepts', async () => {
    for (const app of [createApp(), createApp({ adminToken: 't' })]) {
      const doc = await openapi(app);
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(doc.info.version).toBe(VERSION);
      const result = await validate(structuredClone(doc) as never);
      if (!result.valid) throw new Error(JSON.stringify(result.errors, null, 2));
      expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
      expect(result.warnings).toEqual([]);
    }
  });

  it('passes a second, independent checker: Redocly lint with its recommended rules, zero errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    for (const app of [createApp(), createApp({ adminToken: 't' })]) {
      const source = JSON.stringify(await openapi(app));
      const problems = await lintFromString({ source, absoluteRef: '/openapi.json', config });
      const errors = problems
        .filter((problem) => problem.severity === 'error')
        .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
      expect(errors).toEqual([]);
    }
  });

  it('describes what the server does: any stored status, bodiless HEAD, the bound of count, servers', async () => {
    const doc = (await openapi(createApp({ journalSize: 7 }))) as Document & {
      servers?: { url: string }[];
    };
    expect(doc.servers?.[0]?.url).toBe('/');
    for (const method of ['get', 'post', 'put', 'patch', 'delete', 'head']) {
      const responses = operation(doc, method, '/endpoint/{name}').responses;
      expect(Object.keys(responses).sort(), method).toEqual(['2XX', '3XX', '401', '404', '4XX', '5XX']);
      for (const response of Object.values(responses)) {
        if (method === 'head') expect(response.content, 'HEAD has no body').toBeUndefined();
        else expect(response.content?.['application/json']).toBeDefined();
      }
    }
    const count = operation(doc, 'get', '/api/endpoints/{name}/requests').parameters.find((p) => p.name === 'count');
    expect(count?.schema).toMatchObject({ minimum: 1, maximum: 7 });
  });

  it('documents exactly the routes the app serves', async () => {
    for (const app of [createApp(), createApp({ adminToken: 't' })]) {
      const served = servedRoutes(app);
      expect(served).toContain('put /api/endpoints/{name}');
      expect(served).toContain('post /endpoint/{name}');
      expect(documentedRoutes(await openapi(app))).toEqual(served);
    }
  });

  it('gives every operation a unique operationId', async () => {
    const doc = await openapi(createApp());
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes the request bodies with the validation rules', async () => {
    const doc = await openapi(createApp({ maxDelayMs: 1234 }));
    const add = operation(doc, 'put', '/api/endpoint/add').requestBody?.content['application/json'].schema;
    const replace = operation(doc, 'put', '/api/endpoints/{name}').requestBody?.content['application/json'].schema;
    for (const schema of [add, replace]) {
      expect(schema?.properties.statusCode).toMatchObject({
        type: 'integer',
        minimum: 200,
        maximum: 599,
        default: 200,
      });
      expect(schema?.properties.delay).toMatchObject({ type: 'integer', minimum: 0, maximum: 1234, default: 0 });
      expect(schema?.required).toContain('data');
      // Unknown fields are refused (UNKNOWN_FIELD).
      expect(schema?.additionalProperties).toBe(false);
    }
    expect(add?.properties.name).toMatchObject({ type: 'string', pattern: NAME_PATTERN.source });
    expect(add?.required).toEqual(expect.arrayContaining(['name', 'data']));
    expect(replace?.properties).not.toHaveProperty('name');
  });

  it('describes path and query parameters with the validation rules', async () => {
    const doc = await openapi(createApp());
    for (const method of ['get', 'put', 'delete']) {
      const [name] = operation(doc, method, '/api/endpoints/{name}').parameters;
      expect(name).toMatchObject({ name: 'name', in: 'path', required: true });
      expect(name?.schema).toMatchObject({ type: 'string', pattern: NAME_PATTERN.source });
    }
    const journalName = operation(doc, 'get', '/api/endpoints/{name}/requests').parameters.find((p) => p.in === 'path');
    expect(journalName?.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });

    const list = Object.fromEntries(
      operation(doc, 'get', '/api/endpoints').parameters.map((p) => [p.name, p] as const),
    );
    expect(list.limit).toMatchObject({ in: 'query', required: false });
    expect(list.limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    expect(list.after?.schema).toMatchObject({ type: 'string' });

    const journal = Object.fromEntries(
      operation(doc, 'get', '/api/endpoints/{name}/requests')
        .parameters.filter((p) => p.in === 'query')
        .map((p) => [p.name, p] as const),
    );
    expect(journal.wait?.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(journal.count?.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
  });

  it('describes the responses: record, error body and list page', async () => {
    const doc = await openapi(createApp());
    const record = operation(doc, 'get', '/api/endpoints/{name}').responses['200']?.content?.['application/json']
      .schema;
    expect(Object.keys(record?.properties ?? {}).sort()).toEqual(['data', 'delay', 'name', 'statusCode']);
    const notFound = operation(doc, 'get', '/api/endpoints/{name}').responses['404']?.content?.['application/json']
      .schema;
    expect(notFound?.required).toEqual(['success', 'error']);
    expect(operation(doc, 'delete', '/api/endpoints/{name}').responses).toHaveProperty('204');
    expect(operation(doc, 'put', '/api/endpoint/add').responses).toHaveProperty('409');
  });

  it('declares the token as the security of every write and of /api/namespaces (optional while none is configured), none for other reads', async () => {
    const open = await openapi(createApp());
    const guarded = await openapi(createApp({ adminToken: 't' }));
    expect(guarded.components.securitySchemes).toHaveProperty('adminToken');
    for (const doc of [open, guarded]) {
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          const isApiWrite =
            path.startsWith('/api/') &&
            (!['get', 'head', 'options'].includes(method) || path.startsWith('/api/namespaces'));
          const expected = isApiWrite ? (doc === guarded ? [{ adminToken: [] }] : [{ adminToken: [] }, {}]) : [];
          expect(op.security, `${method} ${path}`).toEqual(expected);
        }
      }
    }
  });
});

describe('GET /api/config.schema.json', () => {
  const good = {
    version: 1,
    endpoints: [
      { name: 'user', data: { id: 1 }, statusCode: 201, delay: 50 },
      { name: 'api', routes: [{ match: { method: 'GET', path: '/users/:id' }, answer: { statusCode: 404 } }] },
    ],
  };

  it("serves the mock file's JSON Schema: a validator compiles it, accepts a good file and refuses a bad one", async () => {
    const response = await createApp().request('/api/config.schema.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    // With the default limits it is the published file, byte for byte (apart from the final newline).
    expect(`${JSON.stringify(JSON.parse(text), null, 2)}\n`).toBe(mockFileJsonSchemaText());
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(text));
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    expect(parseMockFile(JSON.stringify(good), { file: 'good.json' }).endpoints).toHaveLength(2);
    expect(validate({ version: 1, endpoints: [{ name: 'a', statusCode: 700 }] })).toBe(false);
  });

  it("carries the server's own limits", async () => {
    const doc = await (await createApp({ maxDelayMs: 10 }).request('/api/config.schema.json')).json();
    const validate = new Ajv2020({ strict: false }).compile(doc as Record<string, unknown>);
    expect(validate(good)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain('delay');
  });
});
