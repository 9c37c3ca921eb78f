// The app's API is registered on its first use (first-use.ts), in the same order as before:
// the API's middleware and routes, then what `extend` adds, then anything added later.
import { setFlagsFromString } from 'node:v8';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';

/** V8's own answer: whether `object` keeps fast properties (not a dictionary). */
function hasFastProperties(object: object): boolean {
  setFlagsFromString('--allow-natives-syntax');
  return new Function('object', 'return %HasFastProperties(object)')(object) as boolean;
}

describe('the API registered on first use', () => {
  it('is not made by createApp: extend runs on the first request, once', async () => {
    let extended = 0;
    const app = createApp({ extend: () => void extended++ });
    expect(extended).toBe(0);
    expect((await app.request('/api/health')).status).toBe(200);
    expect((await app.request('/api/health')).status).toBe(200);
    expect(extended).toBe(1);
  });

  it('a stored endpoint is answered through fetchEndpoint without making it', async () => {
    let extended = 0;
    const app = createApp({ extend: () => void extended++ });
    await app.mockpoint.endpoints.put({ name: 'stub', data: { hello: 'world' }, statusCode: 200, delay: 0 });
    const answer = await app.mockpoint.fetchEndpoint(new Request('http://localhost/endpoint/stub'), 'stub', undefined);
    expect(await answer.json()).toEqual({ hello: 'world' });
    expect(extended).toBe(0);
  });

  it('keeps the order: the API first, then extend, then a route added after createApp', async () => {
    const app = createApp({
      extend: (made) => {
        made.get('/api/health', (c) => c.text('extend'));
        made.get('/extended', (c) => c.text('extend'));
      },
    });
    app.get('/extended', (c) => c.text('later'));
    app.get('/later', (c) => c.text('later'));
    expect(((await (await app.request('/api/health')).json()) as { status: string }).status).toBe('ok');
    expect(await (await app.request('/extended')).text()).toBe('extend');
    expect(await (await app.request('/later')).text()).toBe('later');
  });

  it('lists the API routes when its routes are read before any request', () => {
    const paths = createApp().routes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toContain('GET /api/health');
    expect(paths).toContain('PUT /api/endpoint/add');
  });

  it('lists them to a parent app that routes to it, and keeps the routes an array', async () => {
    const app = createApp();
    expect(Array.isArray(app.routes)).toBe(true);
    const parent = new Hono().route('/mocks', app);
    const paths = parent.routes.map((route) => `${route.method} ${route.path}`);
    expect(paths).toContain('GET /mocks/api/health');
    expect((await parent.request('/mocks/api/health')).status).toBe(200);
    // A route added after the first use is listed after the API's.
    app.get('/late', (c) => c.text('late'));
    expect(app.routes.at(-1)?.path).toBe('/late');
  });

  it('leaves the app and its services with fast properties (an app is made per namespace)', () => {
    const app = createApp();
    expect(hasFastProperties(app)).toBe(true);
    expect(hasFastProperties(app.mockpoint)).toBe(true);
    expect(app.routes.length).toBeGreaterThan(0);
    expect(hasFastProperties(app)).toBe(true);
  });
});
