// The matcher shared by the namespaces' apps: made once for a route list, each app answering with
// its own handlers, and matching as Hono's own router does.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';
import { memoryBackend } from '../store/memory/backend.js';
import { SharedRouter, sharedMatcherCount } from './shared-router.js';

function app(label: string): Hono {
  const made = new Hono({ router: new SharedRouter() });
  made.use('*', async (c, next) => {
    await next();
    c.header('x-app', label);
  });
  made.get('/api/endpoints/:name', (c) => c.text(`${label} get ${c.req.param('name')}`));
  made.put('/api/endpoints/:name/routes', (c) => c.text(`${label} routes ${c.req.param('name')}`));
  made.get('/endpoint/:name/*', (c) => c.text(`${label} read ${c.req.param('name')}`));
  return made;
}

describe('SharedRouter', () => {
  it('two apps with the same routes share one matcher, and each answers with its own handlers', async () => {
    const before = sharedMatcherCount();
    const a = app('a');
    const b = app('b');
    const answerA = await a.request('/api/endpoints/users');
    const answerB = await b.request('/api/endpoints/users');
    expect(await answerA.text()).toBe('a get users');
    expect(answerA.headers.get('x-app')).toBe('a');
    expect(await answerB.text()).toBe('b get users');
    expect(answerB.headers.get('x-app')).toBe('b');
    expect(await (await b.request('/endpoint/github/repos/x', { method: 'GET' })).text()).toBe('b read github');
    expect(await (await a.request('/api/endpoints/x/routes', { method: 'PUT' })).text()).toBe('a routes x');
    expect((await a.request('/nowhere')).status).toBe(404);
    expect(sharedMatcherCount() - before).toBeLessThanOrEqual(1);
  });

  it("a namespace's app answers every path of the API as the default namespace's app does", async () => {
    const backend = memoryBackend();
    const root = createApp({ backend });
    const made = await root.request('/api/namespaces', { method: 'POST', body: '{"name":"n1"}' });
    expect(made.status).toBe(201);
    const paths: [string, string][] = [
      ['PUT', '/api/endpoints/user'],
      ['GET', '/api/endpoints/user'],
      ['GET', '/endpoint/user'],
      ['GET', '/endpoint/user/deeper/path?x=1'],
      ['GET', '/api/endpoints/user/requests'],
      ['GET', '/api/clock'],
      ['GET', '/api/chaos'],
      ['DELETE', '/api/endpoints/user'],
      ['PATCH', '/api/health'],
      ['GET', '/api/no-such-route'],
    ];
    const other = createApp({ backend: memoryBackend() });
    for (const [method, path] of paths) {
      const body = method === 'PUT' ? '{"data":{"ok":true}}' : undefined;
      const inNamespace = await root.request(`/ns/n1${path}`, { method, body });
      const plain = await other.request(path, { method, body });
      expect(`${method} ${path} ${inNamespace.status}`).toBe(`${method} ${path} ${plain.status}`);
      const error = (response: Response) =>
        response
          .clone()
          .json()
          .then((json) => (json as { error?: { code: string } }).error?.code)
          .catch(() => undefined);
      expect(await error(inNamespace)).toBe(await error(plain));
    }
    await root.mockpoint.namespaces?.close();
  });

  it('the namespaces of a daemon share one matcher, however many are made', async () => {
    const root = createApp({ backend: memoryBackend() });
    const first = await root.request('/api/namespaces', { method: 'POST', body: '{}' });
    const { name } = (await first.json()) as { name: string };
    expect((await root.request(`/ns/${name}/api/endpoints`)).status).toBe(200);
    const shared = sharedMatcherCount();
    for (let i = 0; i < 20; i++) {
      const response = await root.request('/api/namespaces', { method: 'POST', body: '{}' });
      const made = (await response.json()) as { name: string };
      expect((await root.request(`/ns/${made.name}/api/endpoints`)).status).toBe(200);
    }
    expect(sharedMatcherCount()).toBe(shared);
    await root.mockpoint.namespaces?.close();
  });
});
