import { EXPECTED_DEFAULT_LIMITS } from '@mockpoint/testkit/expected-health';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EndpointRecord } from '../../api/schemas.js';
import { type ErrorCode, MockpointError } from '../../registry/errors.js';
import { VERSION } from '../../registry/version.js';
import { MemoryStore } from '../../store/memory/memory-store.js';
import type { EndpointStore } from '../../store/store.js';
import { type CreateAppOptions, createApp, type MockpointApp } from '../create-app.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** An app with the given endpoints already added through the public route. */
async function appWith(
  endpoints: Array<Partial<EndpointRecord> & { name: string }>,
  options: CreateAppOptions = {},
): Promise<MockpointApp> {
  const app = createApp(options);
  for (const endpoint of endpoints) {
    const response = await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify(endpoint) });
    expect(response.status, endpoint.name).toBe(201);
  }
  return app;
}

/** Asserts the standard error response: status, exact body shape and content type. */
async function expectError(response: Response, status: number, code: ErrorCode): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await response.json()) as { error: { message: string } };
  expect(body).toStrictEqual({ success: false, error: { code, message: expect.any(String) } });
  expect(body.error.message).not.toBe('');
  return body.error.message;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('/endpoint/{name}: answers', () => {
  it('every method answers with the stored data and status', async () => {
    const data = { hello: 'world', list: [1, 2, 3] };
    const app = await appWith([{ name: 'any', data, statusCode: 202 }]);
    for (const method of METHODS) {
      const response = await app.request('/endpoint/any', { method });
      expect(response.status, method).toBe(202);
      expect(response.headers.get('content-type'), method).toBe('application/json; charset=utf-8');
      if (method === 'HEAD') expect(await response.text()).toBe('');
      else expect(await response.json(), method).toEqual(data);
    }
  });

  it('a webhook-style POST with a body gets the stored answer', async () => {
    const app = await appWith([{ name: 'hook', data: { received: true }, statusCode: 200 }]);
    const response = await app.request('/endpoint/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'payment.succeeded', id: 7 }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it('a request body larger than the journal keeps does not change the answer', async () => {
    const app = await appWith([{ name: 'bulk', data: 'ok', statusCode: 201 }]);
    const response = await app.request('/endpoint/bulk', { method: 'POST', body: 'x'.repeat(200 * 1024) });
    expect(response.status).toBe(201);
    expect(await response.json()).toBe('ok');
  });

  it('serves the stored bytes exactly, for every JSON kind', async () => {
    const values = [{ a: { b: [1, null, true] } }, [1, 'two'], 'text', 3.25, false, null, { u: '日本語 🎉 "q"' }];
    const app = await appWith(values.map((data, i) => ({ name: `kind${i}`, data })));
    for (const [i, data] of values.entries()) {
      const response = await app.request(`/endpoint/kind${i}`);
      expect(await response.text()).toBe(JSON.stringify(data));
    }
  });

  it('answers with stored error statuses too, with the data as body', async () => {
    const app = await appWith([
      { name: 'e404', data: { stored: 404 }, statusCode: 404 },
      { name: 'e500', data: { stored: 500 }, statusCode: 500 },
      { name: 'e599', data: 'edge', statusCode: 599 },
    ]);
    const notFound = await app.request('/endpoint/e404');
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ stored: 404 });
    const serverError = await app.request('/endpoint/e500', { method: 'POST' });
    expect(serverError.status).toBe(500);
    expect(await serverError.json()).toEqual({ stored: 500 });
    const edge = await app.request('/endpoint/e599');
    expect(edge.status).toBe(599);
    expect(await edge.json()).toBe('edge');
  });

  it('HEAD answers like GET without a body, with the body length in bytes', async () => {
    const data = { text: 'héllo 🎉' };
    const app = await appWith([{ name: 'head', data, statusCode: 203 }]);
    const response = await app.request('/endpoint/head', { method: 'HEAD' });
    expect(response.status).toBe(203);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(JSON.stringify(data)).length));
  });

  it('statuses 204, 205 and 304 have no body for any method', async () => {
    const statuses = [204, 205, 304];
    const app = await appWith(statuses.map((statusCode) => ({ name: `s${statusCode}`, data: { x: 1 }, statusCode })));
    for (const statusCode of statuses) {
      for (const method of METHODS) {
        const response = await app.request(`/endpoint/s${statusCode}`, { method });
        expect(response.status, `${method} ${statusCode}`).toBe(statusCode);
        expect(response.body, `${method} ${statusCode}`).toBeNull();
        expect(await response.text()).toBe('');
      }
    }
  });

  it('ignores the query string', async () => {
    const app = await appWith([
      { name: 'q', data: { from: 'q' }, statusCode: 201 },
      { name: 'other', data: { from: 'other' } },
    ]);
    for (const path of [
      '/endpoint/q?x=1',
      '/endpoint/q?name=other&statusCode=500',
      '/endpoint/q?',
      '/endpoint/q?a=1&a=2',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(201);
      expect(await response.json(), path).toEqual({ from: 'q' });
    }
  });

  it('__proto__, constructor and friends work end to end', async () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    const empty = createApp();
    for (const name of names) {
      // Before creation these are unknown names, not something inherited from Object.prototype.
      await expectError(await empty.request(`/endpoint/${name}`), 404, 'NOT_FOUND');
    }
    const app = await appWith(names.map((name, i) => ({ name, data: { name }, statusCode: 210 + i })));
    for (const [i, name] of names.entries()) {
      const response = await app.request(`/endpoint/${name}`, { method: 'POST' });
      expect(response.status, name).toBe(210 + i);
      expect(await response.json(), name).toEqual({ name });
    }
  });

  it('a replaced endpoint answers with its new data at once', async () => {
    const app = await appWith([{ name: 'swap', data: 'old' }]);
    expect(await (await app.request('/endpoint/swap')).json()).toBe('old');
    await app.mockpoint.endpoints.put({ name: 'swap', data: 'new', statusCode: 202, delay: 0 });
    const response = await app.request('/endpoint/swap');
    expect(response.status).toBe(202);
    expect(await response.json()).toBe('new');
  });
});

describe('/endpoint/{name}: unknown names and routes', () => {
  it('an unknown name answers 404 NOT_FOUND with the standard error body', async () => {
    const app = await appWith([{ name: 'exists', data: 1 }]);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await app.request('/endpoint/nope', { method });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const message = await expectError(response, 404, 'NOT_FOUND');
      expect(message).toContain('nope');
    }
    // Case matters: `Exists` is not `exists`.
    await expectError(await app.request('/endpoint/Exists'), 404, 'NOT_FOUND');
  });

  it('HEAD of an unknown name is 404 without a body', async () => {
    const app = createApp();
    const response = await app.request('/endpoint/nope', { method: 'HEAD' });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it('names that can never be valid answer 404 NOT_FOUND with a well-formed JSON body', async () => {
    const app = createApp();
    for (const path of ['/endpoint/a.b', `/endpoint/${'a'.repeat(65)}`, '/endpoint/a%22b%5C', '/endpoint/h%C3%A9']) {
      await expectError(await app.request(path), 404, 'NOT_FOUND');
    }
  });

  it('unknown routes answer 404 ROUTE_NOT_FOUND with the standard error body', async () => {
    const app = createApp();
    const cases: Array<[string, string]> = [
      ['GET', '/'],
      ['GET', '/nope'],
      ['GET', '/endpoint'],
      ['GET', '/endpoint/'],
      ['GET', '/api/nope'],
    ];
    for (const [method, path] of cases) {
      const message = await expectError(await app.request(path, { method }), 404, 'ROUTE_NOT_FOUND');
      expect(message, `${method} ${path}`).toContain(path);
    }
  });
});

describe('/endpoint/{name}: CORS', () => {
  it('reads carry access-control-allow-origin: *', async () => {
    const app = await appWith([{ name: 'cors', data: 1 }]);
    for (const method of METHODS) {
      const response = await app.request('/endpoint/cors', { method, headers: { origin: 'https://example.test' } });
      expect(response.headers.get('access-control-allow-origin'), method).toBe('*');
    }
  });

  it('an OPTIONS preflight answers 204 allowing every read method', async () => {
    const app = await appWith([{ name: 'cors', data: 1 }]);
    const response = await app.request('/endpoint/cors', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.test',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'content-type, x-signature',
      },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    for (const method of METHODS) expect(allowed).toContain(method);
    expect(response.headers.get('access-control-allow-headers')).toContain('x-signature');
  });

  it('a preflight works for a name that does not exist yet', async () => {
    const app = createApp();
    const response = await app.request('/endpoint/later', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.test', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('/endpoint/{name}: delay', () => {
  it('does not answer before the stored delay', async () => {
    const app = await appWith([{ name: 'slow', data: 'late', delay: 300 }]);
    const started = performance.now();
    const response = await app.request('/endpoint/slow');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(response.status).toBe(200);
    expect(await response.json()).toBe('late');
  });

  it('a delayed read whose client aborts stops waiting and clears its timer', async () => {
    const app = await appWith([{ name: 'slow', data: 'late', delay: 60_000 }]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const pending = app.fetch(new Request('http://localhost/endpoint/slow', { signal: controller.signal }));
    // Let the handler reach its timer (bounded: it only awaits in-memory work).
    for (let i = 0; i < 100 && vi.getTimerCount() === 0; i++) await new Promise((r) => setImmediate(r));
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    const response = await pending;
    // Settled without any fake time passing, and the 60 s timer is gone.
    expect(vi.getTimerCount()).toBe(0);
    expect(response.status).not.toBe(200);
  });

  it('a delayed read whose client aborts settles promptly in real time', async () => {
    const app = await appWith([{ name: 'slow', data: 'late', delay: 10_000 }]);
    const controller = new AbortController();
    const started = performance.now();
    const pending = app.fetch(new Request('http://localhost/endpoint/slow', { signal: controller.signal }));
    // Journaled as its answer was chosen, before the delay: the client gives up while the 10 s run.
    const journal = await app.request('/api/endpoints/slow/requests?wait=5000&count=1');
    expect(((await journal.json()) as { requests: unknown[] }).requests).toHaveLength(1);
    controller.abort();
    const response = await pending;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(response.status).not.toBe(200);
  });

  it('a read that arrives already aborted does not wait at all', async () => {
    const app = await appWith([{ name: 'slow', data: 'late', delay: 60_000 }]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const response = await app.fetch(new Request('http://localhost/endpoint/slow', { signal: AbortSignal.abort() }));
    expect(response.status).not.toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('GET /api/health', () => {
  it('answers status ok, the version and the store kind', async () => {
    const response = await createApp().request('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toStrictEqual({
      status: 'ok',
      version: VERSION,
      store: 'memory',
      longPolls: 0,
      limits: EXPECTED_DEFAULT_LIMITS,
    });
  });

  it('reports a custom version and the kind of the store passed in', async () => {
    const store = Object.assign(new MemoryStore(), { kind: 'custom' }) as EndpointStore;
    const response = await createApp({ store, version: '9.9.9-test', maxDelayMs: 5 }).request('/api/health');
    expect(await response.json()).toMatchObject({ status: 'ok', version: '9.9.9-test', store: 'custom' });
  });
});

describe('unexpected failures', () => {
  /** A MemoryStore whose reads and creates fail with `error`. */
  function failingStore(error: unknown): EndpointStore {
    const store = new MemoryStore();
    store.get = () => Promise.reject(error);
    store.create = () => Promise.reject(error);
    return store;
  }

  it('an unexpected store failure answers 500 INTERNAL and calls onUnexpectedError', async () => {
    const failure = new Error('secret disk details');
    const onUnexpectedError = vi.fn();
    const app = createApp({ store: failingStore(failure), onUnexpectedError });
    const read = await app.request('/endpoint/boom');
    const message = await expectError(read, 500, 'INTERNAL');
    expect(message).not.toContain('secret');
    expect(onUnexpectedError).toHaveBeenCalledTimes(1);
    const [reported, request] = onUnexpectedError.mock.calls[0] as [unknown, { method: string; url: string }];
    expect(reported).toBe(failure);
    // The method and the request target, as a Request would give them.
    expect(request.method).toBe('GET');
    expect(new URL(request.url, 'http://localhost').pathname).toBe('/endpoint/boom');

    const write = await app.request('/api/endpoint/add', { method: 'PUT', body: '{"name":"boom","data":1}' });
    await expectError(write, 500, 'INTERNAL');
    expect(onUnexpectedError).toHaveBeenCalledTimes(2);
  });

  it('an unexpected failure without onUnexpectedError still answers 500 INTERNAL', async () => {
    const app = createApp({ store: failingStore(new TypeError('nope')) });
    await expectError(await app.request('/endpoint/boom'), 500, 'INTERNAL');
  });

  it('a store error with a code keeps its code and status and is not reported as unexpected', async () => {
    const onUnexpectedError = vi.fn();
    const app = createApp({
      store: failingStore(new MockpointError('STORE_UNAVAILABLE', 'the store is closed')),
      onUnexpectedError,
    });
    await expectError(await app.request('/endpoint/x'), 503, 'STORE_UNAVAILABLE');
    expect(onUnexpectedError).not.toHaveBeenCalled();
  });
});
