// The app's API is registered on its first use (first-use.ts), in the same order as before:
// the API's middleware and routes, then what `extend` adds, then anything added later.
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';

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
});
