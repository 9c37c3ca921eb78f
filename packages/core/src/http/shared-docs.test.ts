// Every namespace's app has the same routes, so the same docs: the first namespace's app to
// register its routes builds them and every later one reads those (shared-docs.ts), while each
// still answers its own 405s and OpenAPI document.
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

async function namespaceApp(app: MockpointApp, name: string): Promise<MockpointApp> {
  expect((await app.request('/api/namespaces', { method: 'POST', body: JSON.stringify({ name }) })).status).toBe(201);
  expect((await app.request(`/ns/${name}/api/endpoints`)).status).toBe(200);
  const table = app.mockpoint.namespaces;
  if (table === undefined) throw new Error('the memory backend keeps namespaces');
  return table.app(name);
}

describe('the docs of namespaces’ apps', () => {
  it('are built by the first namespace and shared by the next ones, which still answer 405 and their OpenAPI', async () => {
    const backend = memoryBackend();
    const app = createApp({ backend });
    open.push({ app, backend });
    const first = await namespaceApp(app, 'first');
    const second = await namespaceApp(app, 'second');
    expect(first.mockpoint.docs.length).toBeGreaterThan(50);
    expect(second.mockpoint.docs).toBe(first.mockpoint.docs);
    // The default namespace's app documents its own (it has the namespace routes).
    expect(app.mockpoint.docs).not.toBe(first.mockpoint.docs);
    expect(app.mockpoint.docs.some((doc) => doc.path === '/api/namespaces')).toBe(true);
    expect(first.mockpoint.docs.some((doc) => doc.path === '/api/namespaces')).toBe(false);

    const refused = await app.request('/ns/second/api/endpoint/add', { method: 'DELETE' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('PUT');
    const own = (await (await app.request('/ns/second/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    const firsts = (await (await app.request('/ns/first/api/openapi.json')).json()) as { paths: unknown };
    expect(own.paths).toEqual(firsts.paths);
    expect(Object.keys(own.paths)).toContain('/api/endpoints/{name}');
  });
});
