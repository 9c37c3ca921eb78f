// The client's route methods and endpointUrl(name, subpath).
import { describe, expect, it } from 'vitest';
import { createApp, createClient, JsonText, type MockpointApp, MockpointError } from '../index.js';

/** A request to a URL of the app (no socket). */
async function fetchVia(app: MockpointApp, url: string): Promise<Response> {
  return app.fetch(new Request(url));
}

function setup() {
  const app = createApp();
  return { app, client: createClient({ baseUrl: 'http://mockpoint.test', app }) };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('client route methods', () => {
  it('setRoutes replaces the list and the routes answer below the name; routes lists them', async () => {
    const { app, client } = setup();
    expect(await client.routes('api')).toEqual([]);
    const saved = await client.setRoutes('api', [
      { id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: { id: 7 } } },
      { match: { path: '/health' }, answer: { body: 'ok', headers: { 'x-a': ['1', '2'] } } },
    ]);
    expect(saved[0]).toEqual({ id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: { id: 7 } } });
    expect(saved[1]?.id).toMatch(/^[0-9a-f]{12}$/);
    expect(await client.routes('api')).toEqual(saved);

    const user = await (await fetchVia(app, client.endpointUrl('api', '/users/7'))).json();
    expect(user).toEqual({ id: 7 });
    const health = await fetchVia(app, client.endpointUrl('api', 'health'));
    expect(await health.text()).toBe('ok');

    await client.setRoutes('api', [{ id: 'only', answer: { statusCode: 204 } }]);
    expect((await client.routes('api')).map((route) => route.id)).toEqual(['only']);
  });

  it('addRoutes appends after the routes there are, all or none', async () => {
    const { client } = setup();
    await client.setRoutes('api', [{ id: 'a', answer: { body: 'a' } }]);
    const all = await client.addRoutes('api', [{ id: 'b', answer: { body: 'b' } }]);
    expect(all.map((route) => route.id)).toEqual(['a', 'b']);
    const error = await rejection(
      client.addRoutes('api', [
        { id: 'c', answer: { body: 'c' } },
        { id: 'a', answer: { body: 'again' } },
      ]),
    );
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'DUPLICATE_ROUTE_ID', status: 400 });
    expect((await client.routes('api')).map((route) => route.id)).toEqual(['a', 'b']);
  });

  it('removeRoute removes one (NOT_FOUND for an unknown id); clearRoutes removes all and keeps the record', async () => {
    const { app, client } = setup();
    await client.add({ name: 'api', data: { bare: true } });
    await client.setRoutes('api', [
      { id: 'a', match: { path: '/a' }, answer: { body: 'a' } },
      { id: 'b', match: { path: '/b' }, answer: { body: 'b' } },
    ]);
    await client.removeRoute('api', 'a');
    expect((await client.routes('api')).map((route) => route.id)).toEqual(['b']);
    expect(await rejection(client.removeRoute('api', 'a'))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await client.clearRoutes('api');
    expect(await client.routes('api')).toEqual([]);
    expect(await client.get('api')).toMatchObject({ data: { bare: true } });
    const gone = await fetchVia(app, client.endpointUrl('api', '/b'));
    expect(gone.status).toBe(404);
  });

  it('sends a JsonText data as its exact text, and the route answers those bytes', async () => {
    const { app, client } = setup();
    const text = '{"id":12345678901234567890,"x":1.0}';
    await client.setRoutes('api', [{ answer: { data: new JsonText(text) } }]);
    expect(await (await fetchVia(app, client.endpointUrl('api', '/any'))).text()).toBe(text);
  });

  it('endpointUrl takes a subpath with or without its leading slash; the bare URL without one', () => {
    const { client } = setup();
    expect(client.endpointUrl('api')).toBe('http://mockpoint.test/endpoint/api');
    expect(client.endpointUrl('api', '/')).toBe('http://mockpoint.test/endpoint/api');
    expect(client.endpointUrl('api', '/repos/a/b?page=2')).toBe('http://mockpoint.test/endpoint/api/repos/a/b?page=2');
    expect(client.endpointUrl('api', 'repos/a')).toBe('http://mockpoint.test/endpoint/api/repos/a');
  });

  it('route methods work when destructured', async () => {
    const { setRoutes, routes, clearRoutes } = setup().client;
    await setRoutes('loose', [{ id: 'x', answer: {} }]);
    expect(await routes('loose')).toHaveLength(1);
    await clearRoutes('loose');
    expect(await routes('loose')).toEqual([]);
  });
});
