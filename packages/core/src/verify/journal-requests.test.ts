// verify --journal through the API: recorded requests checked against the request schemas; each planted fault found, a fitting request not.
import { describe, expect, it } from 'vitest';
import { createApp, createClient } from '../index.js';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      post: {
        parameters: [{ $ref: '#/components/parameters/Tenant' }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
        },
        responses: { 201: { description: 'made' } },
      },
      get: {
        parameters: [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer', maximum: 50 } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: {} } } } },
      },
    },
    '/pets/{petId}': {
      get: {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: {} } } } },
      },
    },
    '/pets/mine': { get: { responses: { 200: { description: 'ok' } } } },
  },
  components: {
    parameters: { Tenant: { name: 'x-tenant', in: 'header', required: true, schema: { type: 'string' } } },
    schemas: {
      NewPet: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string' },
          tag: { $ref: '#/components/schemas/Tag' },
        },
      },
      Tag: { type: 'string', nullable: true, maxLength: 5 },
    },
  },
};

async function setup() {
  const app = createApp();
  const client = createClient({ baseUrl: 'http://mockpoint.test', app });
  await client.setRoutes('pets', [
    { id: 'list', match: { method: 'GET', path: '/pets' }, answer: { data: [] } },
    { id: 'make', match: { method: 'POST', path: '/pets' }, answer: { statusCode: 201 } },
    { id: 'one', match: { method: 'GET', path: '/pets/:id' }, answer: { data: {} } },
  ]);
  const send = (path: string, init?: RequestInit) => app.request(`/endpoint/pets${path}`, init);
  return { app, client, send };
}

describe('verify --journal', () => {
  it('finds each planted fault of the recorded requests, by code, entry and path', async () => {
    const { client, send } = await setup();
    const json = { 'content-type': 'application/json', 'x-tenant': 'a' };
    await send('/pets?limit=10'); // fits
    await send('/pets'); // MISSING_PARAMETER query/limit
    await send('/pets?limit=99'); // REQUEST_SCHEMA_MISMATCH query/limit
    await send('/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Rex', tag: null }) }); // fits (id readOnly, tag nullable)
    await send('/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 7, tag: 'toolong' }) }); // 2 mismatches
    await send('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"a"}' }); // MISSING_PARAMETER headers/x-tenant
    await send('/pets', { method: 'POST', headers: json }); // MISSING_PARAMETER body
    await send('/pets/seven'); // REQUEST_SCHEMA_MISMATCH params/petId
    await send('/pets/mine'); // fits: the literal path first
    await send('/owners/1'); // UNKNOWN_OPERATION path
    await send('/pets/7', { method: 'DELETE' }); // UNKNOWN_OPERATION method
    const report = await client.verify({ openapi: DOC, journal: true });
    expect(report.checked.requests).toBe(11);
    const found = report.findings.map((f) => [f.entry?.id, f.code, f.path, f.route?.id]);
    expect(found).toEqual([
      [2, 'MISSING_PARAMETER', 'query/limit', 'list'],
      [3, 'REQUEST_SCHEMA_MISMATCH', 'query/limit', 'list'],
      [5, 'REQUEST_SCHEMA_MISMATCH', 'body/name', 'make'],
      [5, 'REQUEST_SCHEMA_MISMATCH', 'body/tag', 'make'],
      [6, 'MISSING_PARAMETER', 'headers/x-tenant', 'make'],
      [7, 'MISSING_PARAMETER', 'body', 'make'],
      [8, 'REQUEST_SCHEMA_MISMATCH', 'params/petId', 'one'],
      [10, 'UNKNOWN_OPERATION', 'path', undefined],
      [11, 'UNKNOWN_OPERATION', 'method', undefined],
    ]);
    const first = report.findings[0];
    expect(first?.entry).toMatchObject({ id: 2, method: 'GET', path: '/pets' });
    expect(first?.operation).toBe('GET /pets');
    expect(report.findings[2]?.found).toBe('7');
    expect(report.findings[6]?.found).toBe('"seven"');
    expect(report.ok).toBe(false);
  });

  it('passes a journal that fits; needs openapi', async () => {
    const { client, send } = await setup();
    await send('/pets?limit=1');
    await send('/pets/3');
    const report = await client.verify({ openapi: DOC, journal: true });
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    const refused = await client.verify({ journal: true }).catch((error: { code?: string }) => error);
    expect((refused as { code?: string }).code).toBe('INVALID_BODY');
  });
});

/** A document of `n` paths `/items{i}/{id}`, each a POST with a query parameter and a JSON body schema. */
function documentOf(n: number) {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    paths[`/items${i}/{id}`] = {
      post: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'dry', in: 'query', schema: { type: 'boolean' } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
        },
        responses: { 201: { description: 'made' } },
      },
    };
  }
  const item = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' } } },
  };
  return { openapi: '3.0.3', info: { title: 'Items', version: '1' }, paths, components: { schemas: { Item: item } } };
}

describe('verify --journal, bounded', () => {
  it('checks 5,000 recorded requests against 5,000 operations while /api/health answers within 1 s', async () => {
    const app = createApp({ journalSize: 5000, maxBodyBytes: 20 * 1024 * 1024 });
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    await client.setRoutes('big', [{ id: 'any', answer: { statusCode: 201 } }]);
    const tags = Array.from({ length: 20 }, (_, j) => `t${j}`);
    for (let i = 0; i < 5000; i++) {
      // Every 10th request drifts: its name is a number (one finding each).
      const body = JSON.stringify({ name: i % 10 === 0 ? i : `n${i}`, tags });
      await app.request(`/endpoint/big/items${i}/${i}?dry=true`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
    }
    const started = performance.now();
    let done = false;
    const verifying = client.verify({ openapi: documentOf(5000), journal: true }).then((report) => {
      done = true;
      return report;
    });
    let slowest = 0;
    let answered = 0;
    let last = performance.now();
    // Asked again at each turn of the event loop: the longest time between answers is the longest it was held.
    while (!done) {
      expect((await app.request('/api/health')).status).toBe(200);
      const now = performance.now();
      slowest = Math.max(slowest, now - last);
      last = now;
      answered++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = await verifying;
    const took = performance.now() - started;
    console.log(
      `verify --journal: 5000 requests in ${took.toFixed(0)} ms; /api/health at most ${slowest.toFixed(0)} ms apart`,
    );
    expect(report.checked.requests).toBe(5000);
    expect(report.findings).toHaveLength(500);
    expect(report.findings.every((f) => f.code === 'REQUEST_SCHEMA_MISMATCH' && f.path === 'body/name')).toBe(true);
    expect(answered).toBeGreaterThan(1);
    expect(slowest).toBeLessThan(1000);
  }, 120_000);
});
