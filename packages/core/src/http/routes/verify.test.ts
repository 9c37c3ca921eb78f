// POST /api/verify through createApp: the report, the names, the document as object or text, what is refused; and a
// daemon verifying 5,000 routes still answers /api/health.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

function makeApp(options: Parameters<typeof createApp>[0] = {}): MockpointApp {
  const app = createApp(options);
  apps.push(app);
  return app;
}

function send(app: MockpointApp, method: string, path: string, body?: unknown) {
  return app.request(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are checked by the assertions
async function json(response: Response): Promise<any> {
  return response.json();
}

const ITEM = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', minLength: 1 },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

/** A document of `n` paths `/items{i}/{id}`, each a GET answering 200 with an item. */
function documentOf(n: number) {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    paths[`/items${i}/{id}`] = {
      get: {
        operationId: `getItem${i}`,
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
            },
          },
          404: { description: 'none' },
        },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Items', version: '1' }, paths, components: { schemas: { Item: ITEM } } };
}

describe('POST /api/verify', () => {
  it('reports every endpoint with routes, or only the names given; the document as an object or as text', async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/endpoints/good/routes', {
      routes: [{ id: 'one', match: { method: 'GET', path: '/items0/:id' }, answer: { data: [{ id: 1, name: 'a' }] } }],
    });
    await send(app, 'PUT', '/api/endpoints/bad/routes', {
      routes: [
        { id: 'fine', match: { method: 'GET', path: '/items1/:id' }, answer: { statusCode: 404 } },
        { id: 'drift', match: { method: 'GET', path: '/items1/:id' }, answer: { data: [{ id: 'x', name: 'b' }] } },
      ],
    });
    const doc = documentOf(2);
    const all = await send(app, 'POST', '/api/verify', { openapi: doc });
    expect(all.status).toBe(200);
    const report = await json(all);
    expect(report.ok).toBe(false);
    expect(report.checked).toEqual({ endpoints: 2, routes: 3 });
    expect(report.endpoints.map((e: { name: string }) => e.name)).toEqual(['bad', 'good']);
    expect(report.findings).toEqual([
      {
        code: 'SCHEMA_MISMATCH',
        endpoint: 'bad',
        route: { id: 'drift', index: 1 },
        operation: 'GET /items1/:id',
        path: 'body/0/id',
        expected: 'an integer',
        found: '"x"',
        message:
          'GET /items1/:id (route drift): SCHEMA_MISMATCH at body/0/id: body[0].id is a string; the schema wants an integer',
      },
    ]);
    const good = await json(await send(app, 'POST', '/api/verify', { openapi: JSON.stringify(doc), names: ['good'] }));
    expect(good).toMatchObject({ ok: true, findings: [], moreFindings: 0, checked: { endpoints: 1, routes: 1 } });
  });

  it('refuses a body that is no document, unknown fields and bad names, and a document over the body limit', async () => {
    const app = makeApp({ maxBodyBytes: 2000 });
    const refused = async (body: unknown, code: string, status = 400) => {
      const response = await send(app, 'POST', '/api/verify', body);
      expect(response.status).toBe(status);
      expect((await json(response)).error.code).toBe(code);
    };
    await refused({ openapi: { swagger: '2.0', paths: {} } }, 'INVALID_OPENAPI');
    await refused({ openapi: 'openapi: [' }, 'INVALID_OPENAPI');
    await refused({}, 'INVALID_BODY');
    await refused({ openapi: documentOf(1), extra: 1 }, 'UNKNOWN_FIELD');
    await refused({ openapi: documentOf(1), names: ['no good'] }, 'INVALID_NAME');
    await refused({ openapi: documentOf(40) }, 'BODY_TOO_LARGE', 413);
  });

  it('answers /api/health within 1 s while it verifies 5,000 routes against 5,000 operations', async () => {
    const app = makeApp({ maxBodyBytes: 20 * 1024 * 1024 });
    const routes = Array.from({ length: 5000 }, (_, i) => ({
      id: `r${i}`,
      match: { method: 'GET', path: `/items${i}/:id` },
      // 40 items each, so the check is real work; every 10th route drifts (one finding each).
      answer: {
        data: Array.from({ length: 40 }, (_, j) => ({
          id: i % 10 === 0 && j === 0 ? 'x' : j,
          name: `n${j}`,
          tags: ['a', 'b'],
        })),
      },
    }));
    expect((await send(app, 'PUT', '/api/endpoints/big/routes', { routes })).status).toBe(200);
    const body = JSON.stringify({ openapi: documentOf(5000) });
    const started = performance.now();
    let done = false;
    const verifying = Promise.resolve(app.request('/api/verify', { method: 'POST', body })).then(async (response) => {
      const report = await json(response);
      done = true;
      return report;
    });
    // Asked again at each turn of the event loop (verify yields one every 10 ms of work): the longest time
    // between two answers is the longest the event loop was held (a request's own latency would miss a
    // block that began while the next one was still waiting to be sent).
    let slowest = 0;
    let answered = 0;
    let last = performance.now();
    while (!done) {
      const health = await app.request('/api/health');
      expect(health.status).toBe(200);
      const now = performance.now();
      slowest = Math.max(slowest, now - last);
      last = now;
      answered++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = await verifying;
    const took = performance.now() - started;
    console.log(
      `verify: 5000 routes in ${took.toFixed(0)} ms; /api/health answered ${answered} times, at most ${slowest.toFixed(0)} ms apart`,
    );
    expect(report.checked).toEqual({ endpoints: 1, routes: 5000 });
    expect(report.findings).toHaveLength(500);
    expect(report.findings.every((f: { code: string }) => f.code === 'SCHEMA_MISMATCH')).toBe(true);
    expect(answered).toBeGreaterThan(1);
    expect(slowest).toBeLessThan(1000);
  }, 60_000);
});
