// A test session that only adds endpoints and reads them never registers its namespace's API
// (namespace-early.ts): `PUT /ns/{ns}/api/endpoints/{name}` is answered by the early app, with
// the full API's guards, token check and answers; any other API request registers it as before.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import type { Backend } from '../store/backend.js';
import { memoryBackend } from '../store/memory/backend.js';

const open: { app: MockpointApp; backend: Backend }[] = [];
afterEach(async () => {
  for (const { app, backend } of open.splice(0)) {
    await app.mockpoint.namespaces?.close();
    await backend.close();
  }
});

function daemonApp(options: Parameters<typeof createApp>[0] = {}): MockpointApp {
  const backend = memoryBackend();
  const app = createApp({ ...options, backend });
  open.push({ app, backend });
  return app;
}

async function made(app: MockpointApp, name: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await app.request('/api/namespaces', { method: 'POST', body: JSON.stringify({ name }), headers });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** Whether the namespace's app has registered its API (its routes' docs are read then, shared-docs.ts). */
async function registered(app: MockpointApp, name: string): Promise<boolean> {
  const table = app.mockpoint.namespaces;
  if (table === undefined) throw new Error('the memory backend keeps namespaces');
  return (await table.app(name)).mockpoint.docs.length > 0;
}

function put(app: MockpointApp, path: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(path, { method: 'PUT', body: JSON.stringify(body), headers });
}

describe('a namespace’s app before its API is registered', () => {
  it('adds and replaces an endpoint, answers it and journals it, without registering its API', async () => {
    const app = daemonApp();
    await made(app, 'early');
    const first = await put(app, '/ns/early/api/endpoints/user', { data: { id: 1 } });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ name: 'user', data: { id: 1 } });
    const again = await put(app, '/ns/early/api/endpoints/user', { name: 'user', data: { id: 2 } });
    expect(again.status).toBe(200);
    expect(await (await app.request('/ns/early/endpoint/user')).json()).toEqual({ id: 2 });
    expect(await registered(app, 'early')).toBe(false);
    // The first other API request registers it; what was added and requested is there.
    const journal = (await (await app.request('/ns/early/api/endpoints/user/requests')).json()) as {
      requests: unknown[];
    };
    expect(journal.requests).toHaveLength(1);
    expect(await registered(app, 'early')).toBe(true);
    expect((await app.request('/api/endpoints/user')).status).toBe(404); // not the default namespace's
  });

  it('refuses what the full API refuses, with the same codes', async () => {
    const app = daemonApp({ allowedOrigins: [] });
    await made(app, 'early');
    await made(app, 'full');
    expect((await app.request('/ns/full/api/endpoints')).status).toBe(200);
    expect(await registered(app, 'full')).toBe(true);
    const cases: { path: string; body: unknown; headers?: Record<string, string> }[] = [
      { path: 'endpoints/bad%20name', body: { data: 1 } },
      { path: 'endpoints/user', body: { name: 'other', data: 1 } },
      { path: 'endpoints/user', body: { data: 1, delayMs: -1 } },
      { path: 'endpoints/user', body: { data: 1 }, headers: { host: 'evil.example' } },
      { path: 'endpoints/user', body: { data: 1 }, headers: { origin: 'http://evil.example' } },
    ];
    for (const { path, body, headers } of cases) {
      const early = await put(app, `/ns/early/api/${path}`, body, headers);
      const full = await put(app, `/ns/full/api/${path}`, body, headers);
      expect([early.status, ((await early.json()) as { error: { code: string } }).error.code]).toEqual([
        full.status,
        ((await full.json()) as { error: { code: string } }).error.code,
      ]);
      expect(early.status).toBeGreaterThanOrEqual(400);
    }
    const notJson = await app.request('/ns/early/api/endpoints/user', { method: 'PUT', body: '{' });
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe('INVALID_JSON');
    expect(await registered(app, 'early')).toBe(false);
  });

  it('checks the namespace’s token where an admin token is set', async () => {
    const admin = { authorization: 'Bearer admin-secret' };
    const app = daemonApp({ adminToken: 'admin-secret' });
    const token = await made(app, 'early', admin);
    const other = await made(app, 'other', admin);
    const without = await put(app, '/ns/early/api/endpoints/user', { data: 1 });
    expect([without.status, without.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="mockpoint"']);
    const wrong = await put(app, '/ns/early/api/endpoints/user', { data: 1 }, { authorization: `Bearer ${other}` });
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN_NAMESPACE');
    const own = await put(app, '/ns/early/api/endpoints/user', { data: 1 }, { authorization: `Bearer ${token}` });
    expect(own.status).toBe(201);
    expect((await put(app, '/ns/early/api/endpoints/user', { data: 2 }, admin)).status).toBe(200);
    expect(await registered(app, 'early')).toBe(false);
  });
});
