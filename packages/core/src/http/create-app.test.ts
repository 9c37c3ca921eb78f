import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';

describe('createApp', () => {
  it('serves what PUT /api/endpoint/add stored', async () => {
    const app = createApp();
    const add = await app.request('/api/endpoint/add', {
      method: 'PUT',
      body: JSON.stringify({ name: 'hello', data: { ok: true }, statusCode: 202 }),
    });
    expect(add.status).toBe(201);
    expect(await add.json()).toEqual({ success: true, name: 'hello', data: { ok: true }, statusCode: 202, delay: 0 });
    const read = await app.request('/endpoint/hello');
    expect(read.status).toBe(202);
    expect(await read.json()).toEqual({ ok: true });
  });
});

describe('unmatched requests', () => {
  it('answers 405 METHOD_NOT_ALLOWED with an Allow header for a known path', async () => {
    const app = createApp();
    const res = await app.request('/api/endpoint/add', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PUT');
    expect(await res.json()).toEqual({
      success: false,
      error: { code: 'METHOD_NOT_ALLOWED', message: 'POST is not allowed on /api/endpoint/add; use PUT' },
    });
    const named = await app.request('/api/endpoints/some-name', { method: 'POST' });
    expect(named.status).toBe(405);
    expect(named.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
  });

  it('answers 404 ROUTE_NOT_FOUND for an unknown path', async () => {
    const res = await createApp().request('/nope');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('sends success bodies as application/json; charset=utf-8', async () => {
    const app = createApp();
    const add = await app.request('/api/endpoint/add', { method: 'PUT', body: '{"name":"a","data":1}' });
    expect(add.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const health = await app.request('/api/health');
    expect(health.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
