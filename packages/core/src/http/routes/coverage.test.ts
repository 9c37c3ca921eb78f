// GET /api/coverage through createApp: hits per route, dead routes, requests that hit no route (record, 404),
// the names and time window, a namespace's own coverage, and the refused parameters.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

function makeApp(): MockpointApp {
  const app = createApp();
  apps.push(app);
  return app;
}

function send(app: MockpointApp, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are checked by the assertions
async function json(response: Response): Promise<any> {
  return response.json();
}

const ROUTES = [
  { id: 'list', match: { method: 'GET', path: '/users' }, answer: { data: [] } },
  { id: 'one', match: { method: 'GET', path: '/users/:id' }, answer: { data: { id: 1 } } },
  { id: 'create', match: { method: 'POST', path: '/users', body: { name: 'a' } }, answer: { statusCode: 201 } },
];

describe('GET /api/coverage', () => {
  it('counts hits per route, lists the dead ones and the requests that hit no route', async () => {
    const app = makeApp();
    expect((await send(app, 'PUT', '/api/endpoints/users/routes', { routes: ROUTES })).status).toBe(200);
    await send(app, 'PUT', '/api/endpoints/plain', { data: { ok: true } });
    await send(app, 'GET', '/endpoint/users/users/1');
    await send(app, 'GET', '/endpoint/users/users/2');
    await send(app, 'GET', '/endpoint/users/users');
    expect((await send(app, 'DELETE', '/endpoint/users/users/1')).status).toBe(404);
    await send(app, 'GET', '/endpoint/plain');
    await send(app, 'GET', '/endpoint/nobody/x');

    const response = await send(app, 'GET', '/api/coverage');
    expect(response.status).toBe(200);
    const report = await json(response);
    expect(report.requests).toBe(6);
    expect(report.totals).toEqual({ routes: 3, dead: 1, unmatched: 3 });
    expect(report.endpoints.map((e: { name: string }) => e.name)).toEqual(['nobody', 'plain', 'users']);
    const users = report.endpoints[2];
    expect(users.routes).toEqual([
      { id: 'list', index: 0, match: 'GET /users', hits: 1 },
      { id: 'one', index: 1, match: 'GET /users/:id', hits: 2 },
      { id: 'create', index: 2, match: 'POST /users [body]', hits: 0 },
    ]);
    expect(users.dead).toEqual([{ id: 'create', index: 2, match: 'POST /users [body]' }]);
    expect(users.unmatched).toMatchObject({
      count: 1,
      byRecord: 0,
      unhandled: 1,
      sample: [{ method: 'DELETE', subpath: '/users/1', statusCode: 404, answeredBy: 'none' }],
    });
    expect(report.endpoints[1].unmatched).toMatchObject({ count: 1, byRecord: 1, unhandled: 0 });
    expect(report.endpoints[0]).toMatchObject({ routes: [], dead: [], unmatched: { count: 1, unhandled: 1 } });

    // Only the names asked for (one that has nothing: listed empty).
    const some = await json(await send(app, 'GET', '/api/coverage?names=users,ghost'));
    expect(some.endpoints.map((e: { name: string }) => e.name)).toEqual(['ghost', 'users']);
    expect(some.requests).toBe(4);
    expect(some.window).toEqual({});
  });

  it('counts only the requests of the window, and a hit to a replaced route as gone', async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/endpoints/users/routes', { routes: ROUTES });
    await send(app, 'GET', '/endpoint/users/users');
    const between = new Date(Date.now() + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await send(app, 'GET', '/endpoint/users/users/1');
    const before = await json(await send(app, 'GET', `/api/coverage?until=${between}`));
    expect(before.endpoints[0].routes.map((r: { hits: number }) => r.hits)).toEqual([1, 0, 0]);
    const after = await json(await send(app, 'GET', `/api/coverage?since=${between}`));
    expect(after.endpoints[0].routes.map((r: { hits: number }) => r.hits)).toEqual([0, 1, 0]);
    expect(after.window).toEqual({ since: between });

    await send(app, 'PUT', '/api/endpoints/users/routes', { routes: [{ id: 'new', answer: { data: 1 } }] });
    const replaced = await json(await send(app, 'GET', '/api/coverage'));
    expect(replaced.endpoints[0]).toMatchObject({ goneRouteHits: 2, dead: [{ id: 'new', match: '* (any path)' }] });
  });

  it("answers a namespace's own coverage under /ns/{ns}", async () => {
    const app = makeApp();
    await send(app, 'PUT', '/api/endpoints/users/routes', { routes: ROUTES });
    const created = await json(await send(app, 'POST', '/api/namespaces', { name: 'session1' }));
    expect(created.name).toBe('session1');
    await send(app, 'PUT', '/ns/session1/api/endpoints/users/routes', { routes: ROUTES.slice(0, 1) });
    await send(app, 'GET', '/ns/session1/endpoint/users/users');
    const inside = await json(await send(app, 'GET', '/ns/session1/api/coverage'));
    expect(inside.endpoints).toMatchObject([{ name: 'users', routes: [{ id: 'list', hits: 1 }], dead: [] }]);
    const outside = await json(await send(app, 'GET', '/api/coverage'));
    expect(outside.requests).toBe(0);
    expect(outside.totals.dead).toBe(3);
  });

  it('refuses bad parameters with INVALID_COVERAGE_QUERY', async () => {
    const app = makeApp();
    for (const query of [
      'since=yesterday',
      'until=2030-01-01',
      'since=2030-02-30T00:00:00Z',
      'until=2030-06-31T00:00:00Z',
      'since=2030-01-02T00:00:00Z&until=2030-01-01T00:00:00Z',
      'names=no%20good',
      'limit=3',
    ]) {
      const response = await send(app, 'GET', `/api/coverage?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error.code, query).toBe('INVALID_COVERAGE_QUERY');
    }
  });
});
