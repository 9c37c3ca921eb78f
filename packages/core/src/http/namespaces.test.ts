// Namespaces through the Fetch path (app.request) and a real Node server: made, kept apart, confined by tokens, deleted.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve } from '../adapter/node/index.js';
import { createApp, createClient, type MockpointApp } from '../index.js';

const ADMIN = 'admin-s3cret';
const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

function makeApp(options: Parameters<typeof createApp>[0] = {}): MockpointApp {
  const app = createApp(options);
  apps.push(app);
  return app;
}

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are checked by the assertions
async function json(response: Response): Promise<any> {
  return response.json();
}

function send(
  app: MockpointApp,
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return app.request(path, {
    method,
    headers: init.headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

describe('namespaces (Fetch path)', () => {
  it('are made with a token, listed, shown and deleted', async () => {
    const app = makeApp();
    const made = await send(app, 'POST', '/api/namespaces', { body: { name: 't1', ttlMs: 60_000 } });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe('/api/namespaces/t1');
    const body = await json(made);
    expect(body).toMatchObject({ name: 't1', ttlMs: 60_000 });
    expect(body.token).toMatch(/^mpns\.t1\.[A-Za-z0-9_-]{32}$/);
    const random = await json(await send(app, 'POST', '/api/namespaces'));
    expect(random.name).toMatch(/^s-[A-Za-z0-9_-]{12}$/);
    expect(random.ttlMs).toBeUndefined();
    const listed = await json(await send(app, 'GET', '/api/namespaces'));
    expect(listed.namespaces.map((n: { name: string }) => n.name)).toEqual([random.name, 't1'].sort());
    expect(listed.namespaces[0].token).toBeUndefined();
    expect((await send(app, 'GET', '/api/namespaces/t1')).status).toBe(200);
    expect((await send(app, 'DELETE', '/api/namespaces/t1')).status).toBe(204);
    const gone = await send(app, 'GET', '/api/namespaces/t1');
    expect(gone.status).toBe(404);
    expect((await json(gone)).error.code).toBe('NAMESPACE_NOT_FOUND');
    expect((await send(app, 'DELETE', '/api/namespaces/t1')).status).toBe(404);
  });

  it('refuses a taken name, a bad name, a bad ttlMs, an unknown field and one past the limit', async () => {
    const app = makeApp({ maxNamespaces: 2 });
    expect((await send(app, 'POST', '/api/namespaces', { body: { name: 'a' } })).status).toBe(201);
    const taken = await send(app, 'POST', '/api/namespaces', { body: { name: 'a' } });
    expect([taken.status, (await json(taken)).error.code]).toEqual([409, 'NAMESPACE_EXISTS']);
    const bad = await send(app, 'POST', '/api/namespaces', { body: { name: 'a b' } });
    expect([bad.status, (await json(bad)).error.code]).toEqual([400, 'INVALID_NAME']);
    const ttl = await send(app, 'POST', '/api/namespaces', { body: { ttlMs: 5 } });
    expect([ttl.status, (await json(ttl)).error.code]).toEqual([400, 'INVALID_BODY']);
    const field = await send(app, 'POST', '/api/namespaces', { body: { nmae: 'x' } });
    expect([field.status, (await json(field)).error.code]).toEqual([400, 'UNKNOWN_FIELD']);
    expect((await send(app, 'POST', '/api/namespaces', { body: { name: 'b' } })).status).toBe(201);
    const full = await send(app, 'POST', '/api/namespaces', { body: { name: 'c' } });
    expect([full.status, (await json(full)).error.code]).toEqual([429, 'TOO_MANY_NAMESPACES']);
  });

  it('keeps endpoints and journals apart, picked by /ns/{ns}, the header or baggage', async () => {
    const app = makeApp();
    await send(app, 'POST', '/api/namespaces', { body: { name: 'one' } });
    await send(app, 'POST', '/api/namespaces', { body: { name: 'two' } });
    expect((await send(app, 'PUT', '/api/endpoint/add', { body: { name: 'x', data: 0 } })).status).toBe(201);
    expect((await send(app, 'PUT', '/ns/one/api/endpoint/add', { body: { name: 'x', data: 1 } })).status).toBe(201);
    const byHeader = await send(app, 'PUT', '/api/endpoint/add', {
      body: { name: 'x', data: 2, statusCode: 202 },
      headers: { 'mockpoint-session': 'two' },
    });
    expect(byHeader.status).toBe(201);
    expect(await (await app.request('/endpoint/x')).json()).toBe(0);
    expect(await (await app.request('/ns/one/endpoint/x')).json()).toBe(1);
    const two = await app.request('/endpoint/x', { headers: { 'mockpoint-session': 'two' } });
    expect([two.status, await two.json()]).toEqual([202, 2]);
    const baggage = await app.request('/endpoint/x', { headers: { baggage: 'a=b, mockpoint-session=one;p=1' } });
    expect(await baggage.json()).toBe(1);
    // The path wins over the header.
    const both = await app.request('/ns/one/endpoint/x', { headers: { 'mockpoint-session': 'two' } });
    expect(await both.json()).toBe(1);
    const journal = async (prefix: string) =>
      (await json(await app.request(`${prefix}/api/endpoints/x/requests`))).requests.length;
    expect([await journal(''), await journal('/ns/one'), await journal('/ns/two')]).toEqual([1, 3, 1]);
    expect((await json(await app.request('/api/endpoints'))).endpoints).toHaveLength(1);
  });

  it('answers 404 NAMESPACE_NOT_FOUND for a namespace that does not exist or cannot', async () => {
    const app = makeApp();
    for (const [path, headers] of [
      ['/ns/nope/endpoint/x', {}],
      ['/endpoint/x', { 'mockpoint-session': 'nope' }],
      ['/api/endpoints', { 'mockpoint-session': 'bad name!' }],
      ['/ns/%41/api/health', {}],
    ] as const) {
      const response = await app.request(path, { headers });
      expect(response.status).toBe(404);
      expect((await json(response)).error.code).toBe('NAMESPACE_NOT_FOUND');
    }
  });

  it('a deleted namespace takes everything with it; one made again with its name starts empty', async () => {
    const app = makeApp();
    await send(app, 'POST', '/api/namespaces', { body: { name: 'one' } });
    await send(app, 'PUT', '/ns/one/api/endpoint/add', { body: { name: 'x', data: 1 } });
    await app.request('/ns/one/endpoint/x');
    await send(app, 'DELETE', '/api/namespaces/one');
    expect((await app.request('/ns/one/endpoint/x')).status).toBe(404);
    await send(app, 'POST', '/api/namespaces', { body: { name: 'one' } });
    expect((await app.request('/ns/one/endpoint/x')).status).toBe(404);
    expect((await json(await app.request('/ns/one/api/endpoints'))).endpoints).toEqual([]);
    expect((await json(await app.request('/ns/one/api/endpoints/x/requests'))).requests).toHaveLength(1);
  });

  it('bounds the endpoints of a namespace, not of the default one', async () => {
    const app = makeApp({ maxEndpointsPerNamespace: 2 });
    await send(app, 'POST', '/api/namespaces', { body: { name: 'one' } });
    for (const name of ['a', 'b']) {
      expect((await send(app, 'PUT', '/ns/one/api/endpoint/add', { body: { name, data: 1 } })).status).toBe(201);
    }
    const third = await send(app, 'PUT', '/ns/one/api/endpoint/add', { body: { name: 'c', data: 1 } });
    expect([third.status, (await json(third)).error.code]).toEqual([429, 'TOO_MANY_ENDPOINTS']);
    expect((await send(app, 'PUT', '/ns/one/api/endpoints/a', { body: { data: 2 } })).status).toBe(200);
    for (const name of ['a', 'b', 'c']) {
      expect((await send(app, 'PUT', '/api/endpoint/add', { body: { name, data: 1 } })).status).toBe(201);
    }
  });

  it('lists the requests nothing answered, with the nearest route', async () => {
    const app = makeApp();
    await send(app, 'POST', '/api/namespaces', { body: { name: 'one' } });
    await send(app, 'PUT', '/ns/one/api/endpoints/api/routes', {
      body: { routes: [{ id: 'users', match: { method: 'GET', path: '/users' }, answer: { data: [] } }] },
    });
    await app.request('/ns/one/endpoint/api/users');
    await app.request('/ns/one/endpoint/api/user');
    await app.request('/ns/one/endpoint/missing', { method: 'POST' });
    const { requests } = await json(await app.request('/ns/one/api/requests/unhandled'));
    expect(requests.map((r: Record<string, unknown>) => [r.name, r.method, r.subpath, r.statusCode])).toEqual([
      ['api', 'GET', '/user', 404],
      ['missing', 'POST', '/', 404],
    ]);
    expect(requests[0].message).toMatch(/nearest: users/);
    expect((await json(await app.request('/api/requests/unhandled'))).requests).toEqual([]);
  });
});

describe('the client and namespaces', () => {
  it('makes, lists and deletes namespaces; a client on /ns/{ns} with its token acts in it alone', async () => {
    const app = makeApp({ adminToken: ADMIN });
    const admin = createClient({ baseUrl: 'http://mockpoint.test', app, token: ADMIN });
    const made = await admin.createNamespace({ name: 'one', ttlMs: 60_000 });
    expect(made).toMatchObject({ name: 'one', ttlMs: 60_000 });
    expect((await admin.namespaces()).map((n) => n.name)).toEqual(['one']);
    expect((await admin.namespace('one')).ttlMs).toBe(60_000);
    const session = createClient({ baseUrl: 'http://mockpoint.test/ns/one', app, token: made.token });
    await session.add({ name: 'x', data: 1 });
    await session.read('x');
    await session.read('nothing');
    expect((await session.unhandledRequests()).map((r) => r.name)).toEqual(['nothing']);
    expect(await admin.list()).toMatchObject({ endpoints: [] });
    await expect(session.createNamespace({ name: 'two' })).rejects.toMatchObject({ code: 'FORBIDDEN_NAMESPACE' });
    await admin.deleteNamespace('one');
    await expect(admin.namespace('one')).rejects.toMatchObject({ code: 'NAMESPACE_NOT_FOUND' });
  });
});

describe('namespace tokens', () => {
  async function setup() {
    const app = makeApp({ adminToken: ADMIN });
    const admin = { authorization: `Bearer ${ADMIN}` };
    const one = await json(await send(app, 'POST', '/api/namespaces', { body: { name: 'one' }, headers: admin }));
    const two = await json(await send(app, 'POST', '/api/namespaces', { body: { name: 'two' }, headers: admin }));
    return { app, admin, one: { authorization: `Bearer ${one.token}` }, two: { authorization: `Bearer ${two.token}` } };
  }

  it('a namespace token manages its namespace, reads included; the admin token manages all', async () => {
    const { app, admin, one } = await setup();
    expect(
      (await send(app, 'PUT', '/ns/one/api/endpoint/add', { body: { name: 'x', data: 1 }, headers: one })).status,
    ).toBe(201);
    expect((await send(app, 'GET', '/ns/one/api/endpoints', { headers: one })).status).toBe(200);
    expect((await send(app, 'GET', '/api/endpoints', { headers: { ...one, 'mockpoint-session': 'one' } })).status).toBe(
      200,
    );
    expect((await send(app, 'GET', '/ns/one/api/endpoints', { headers: admin })).status).toBe(200);
    // The endpoints stay open: a webhook sender has no token.
    expect(await (await app.request('/ns/one/endpoint/x')).json()).toBe(1);
  });

  it('a namespace needs a token, reads too', async () => {
    const { app } = await setup();
    for (const [method, path] of [
      ['GET', '/ns/one/api/endpoints'],
      ['PUT', '/ns/one/api/endpoint/add'],
    ] as const) {
      const response = await send(app, method, path, { body: method === 'PUT' ? { name: 'x', data: 1 } : undefined });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mockpoint"');
    }
    const wrong = await send(app, 'GET', '/ns/one/api/endpoints', {
      headers: { authorization: 'Bearer mpns.one.forged' },
    });
    expect(wrong.status).toBe(401);
  });

  it('a namespace token elsewhere is 403 FORBIDDEN_NAMESPACE, also on the default namespace and /api/namespaces', async () => {
    const { app, one } = await setup();
    for (const [method, path] of [
      ['GET', '/ns/two/api/endpoints'],
      ['PUT', '/ns/two/api/endpoint/add'],
      ['GET', '/api/endpoints'],
      ['PUT', '/api/endpoint/add'],
      ['POST', '/api/namespaces'],
      ['GET', '/api/namespaces'],
      ['DELETE', '/api/namespaces/two'],
    ] as const) {
      const response = await send(app, method, path, {
        headers: one,
        body: method === 'PUT' ? { name: 'x', data: 1 } : undefined,
      });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      const { error } = await json(response);
      expect(error.code).toBe('FORBIDDEN_NAMESPACE');
      expect(error.message).toContain('namespace "one" only');
    }
    expect(
      (await send(app, 'GET', '/api/namespaces/two', { headers: { authorization: `Bearer ${ADMIN}` } })).status,
    ).toBe(200);
  });

  it('/api/namespaces needs the admin token, reads too', async () => {
    const { app } = await setup();
    expect((await send(app, 'GET', '/api/namespaces')).status).toBe(401);
    expect((await send(app, 'POST', '/api/namespaces')).status).toBe(401);
    // The default namespace's reads stay open.
    expect((await send(app, 'GET', '/api/endpoints')).status).toBe(200);
  });
});

describe('namespaces on a Node server', () => {
  it('picks the namespace by path, header and baggage, WebSockets too, and drops a namespace idle past its ttlMs', async () => {
    const app = createApp();
    const served = await serve(app, { overrideGlobalObjects: false });
    try {
      const base = served.url;
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body), headers });
      expect((await post('/api/namespaces', { name: 'one' })).status).toBe(201);
      expect((await post('/api/namespaces', { name: 'two', ttlMs: 1000 })).status).toBe(201);
      await fetch(`${base}/ns/one/api/endpoint/add`, { method: 'PUT', body: JSON.stringify({ name: 'x', data: 1 }) });
      await fetch(`${base}/api/endpoint/add`, {
        method: 'PUT',
        body: JSON.stringify({ name: 'x', data: 2 }),
        headers: { 'mockpoint-session': 'two' },
      });
      expect(await (await fetch(`${base}/ns/one/endpoint/x`)).json()).toBe(1);
      expect(await (await fetch(`${base}/endpoint/x`, { headers: { 'mockpoint-session': 'two' } })).json()).toBe(2);
      expect(await (await fetch(`${base}/endpoint/x`, { headers: { baggage: 'mockpoint-session=one' } })).json()).toBe(
        1,
      );
      expect((await fetch(`${base}/endpoint/x`)).status).toBe(404);
      const posted = await fetch(`${base}/ns/one/endpoint/x`, { method: 'POST', body: 'hello' });
      expect(posted.status).toBe(200);
      const missing = await fetch(`${base}/ns/zzz/endpoint/x`);
      expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([
        404,
        'NAMESPACE_NOT_FOUND',
      ]);

      // A WebSocket route in namespace one, reached with the header.
      await fetch(`${base}/ns/one/api/endpoints/ws/routes`, {
        method: 'PUT',
        body: JSON.stringify({
          routes: [
            { id: 'hello', match: { path: '/' }, answer: { websocket: { onOpen: [{ json: { from: 'one' } }] } } },
          ],
        }),
      });
      const socket = new WebSocket(`${base.replace('http', 'ws')}/endpoint/ws`, {
        headers: { 'mockpoint-session': 'one' },
      });
      const first = await new Promise<string>((resolve, reject) => {
        socket.once('message', (data) => resolve(String(data)));
        socket.once('error', reject);
      });
      socket.close();
      expect(JSON.parse(first)).toEqual({ from: 'one' });

      // Namespace two idles past its ttlMs (1 s; the sweep runs once a second).
      await expect
        .poll(async () => (await fetch(`${base}/api/namespaces/two`)).status, { timeout: 10_000, interval: 250 })
        .toBe(404);
      expect((await fetch(`${base}/api/namespaces/one`)).status).toBe(200);
    } finally {
      await served.close();
    }
  });
});
