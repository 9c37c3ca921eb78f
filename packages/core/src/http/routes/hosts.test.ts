// Hosts that pick an endpoint, on the Fetch path (what Bun, Deno and workerd serve):
// a mapped Host reaches its endpoint with the whole path as the subpath, never /api;
// the admin API reads and sets the mappings.
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory/memory-store.js';
import { createApp } from '../create-app.js';

const json = (body: unknown) => ({ method: 'PUT', body: JSON.stringify(body) });

async function appWithGithub() {
  const app = createApp({ hosts: { 'api.github.com': 'github' } });
  await app.request(
    '/api/endpoints/github/routes',
    json({
      routes: [
        {
          match: { path: '/repos/:owner/:repo' },
          answer: { data: { full: '{{params.owner}}/{{params.repo}}' }, template: true },
        },
      ],
    }),
  );
  return app;
}

describe('a mapped Host', () => {
  it('reaches its endpoint with the whole path as the subpath, and is journaled with its Host', async () => {
    const app = await appWithGithub();
    const res = await app.request('http://api.github.com/repos/a/b?x=1', { headers: { host: 'api.github.com' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ full: 'a/b' });
    const journal = (await (await app.request('/api/endpoints/github/requests')).json()) as {
      requests: { subpath: string; headers: Record<string, string>; query: Record<string, string> }[];
    };
    expect(journal.requests[0]).toMatchObject({
      subpath: '/repos/a/b',
      query: { x: '1' },
      headers: { host: 'api.github.com' },
    });
  });

  it('never reaches /api or the page: those paths are the endpoint’s subpaths', async () => {
    const app = await appWithGithub();
    const res = await app.request('http://api.github.com/api/endpoints', {
      method: 'DELETE',
      headers: { host: 'api.github.com' },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NO_ROUTE_MATCHED');
    expect((await app.request('/api/endpoints/github/routes')).status).toBe(200);
  });

  it('leaves other hosts as they were: /endpoint/ answers any Host, /api only its own', async () => {
    const app = await appWithGithub();
    const own = await app.request('http://127.0.0.1/endpoint/github/repos/c/d', {
      headers: { host: '127.0.0.1:16540' },
    });
    expect(await own.json()).toEqual({ full: 'c/d' });
    const foreign = await app.request('http://evil.test/api/endpoints', { headers: { host: 'evil.test' } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('HOST_NOT_ALLOWED');
  });
});

describe('/api/hosts', () => {
  it('lists, sets, refuses and clears mappings', async () => {
    const app = await appWithGithub();
    const put = await app.request('/api/endpoints/stripe/hosts', json({ hosts: ['*.stripe.com'] }));
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ hosts: [{ host: '*.stripe.com', name: 'stripe', source: 'api' }] });
    const listed = await (await app.request('/api/hosts')).json();
    expect(listed).toEqual({
      hosts: [
        { host: '*.stripe.com', name: 'stripe', source: 'api' },
        { host: 'api.github.com', name: 'github', source: 'settings' },
      ],
    });
    const taken = await app.request('/api/endpoints/other/hosts', json({ hosts: ['api.github.com'] }));
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: { code: string } }).error.code).toBe('HOST_TAKEN');
    for (const body of [{ hosts: ['127.0.0.1'] }, { hosts: 'a.test' }, { hosts: [1] }]) {
      const bad = await app.request('/api/endpoints/other/hosts', json(body));
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_HOSTS');
    }
    const extra = await app.request('/api/endpoints/other/hosts', json({ hosts: [], more: 1 }));
    expect(((await extra.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_FIELD');
    expect((await app.request('/api/endpoints/stripe/hosts', { method: 'DELETE' })).status).toBe(204);
    expect(await (await app.request('/api/endpoints/stripe/hosts')).json()).toEqual({ hosts: [] });
    await app.request('/api/endpoints/stripe/hosts', json({ hosts: ['*.stripe.com'] }));
    expect((await app.request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
    expect(await (await app.request('/api/hosts')).json()).toEqual({
      hosts: [{ host: 'api.github.com', name: 'github', source: 'settings' }],
    });
  });

  it('moves a host another endpoint holds only with move=true; the setting’s never', async () => {
    const store = new MemoryStore();
    // Kept for stripe but left out of the table: the setting maps it elsewhere.
    await store.setSetting('hosts', 'stripe', ['*.stripe.com', 'b.test', 'api.github.com']);
    const app = createApp({ store, hosts: { 'api.github.com': 'github' } });
    await app.mockpoint.hostsLoaded;
    const code = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

    expect(await code(await app.request('/api/endpoints/pay/hosts', json({ hosts: ['*.stripe.com'] })))).toEqual([
      409,
      'HOST_TAKEN',
    ]);
    const moved = await app.request('/api/endpoints/pay/hosts?move=true', json({ hosts: ['*.Stripe.com', 'c.test'] }));
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({
      hosts: [
        { host: '*.stripe.com', name: 'pay', source: 'api' },
        { host: 'c.test', name: 'pay', source: 'api' },
      ],
      moved: [{ host: '*.stripe.com', from: 'stripe', to: 'pay' }],
    });
    // Written to the store for both names; what stripe kept (the setting's host too) stays kept.
    expect(await store.getSetting('hosts', 'pay')).toEqual(['*.stripe.com', 'c.test']);
    expect(await store.getSetting('hosts', 'stripe')).toEqual(['b.test', 'api.github.com']);
    expect(await (await app.request('/api/endpoints/stripe/hosts')).json()).toEqual({
      hosts: [{ host: 'b.test', name: 'stripe', source: 'api' }],
    });
    // Nothing held elsewhere: nothing moved, and the answer says so.
    expect(await (await app.request('/api/endpoints/pay/hosts?move=true', json({ hosts: ['c.test'] }))).json()).toEqual(
      { hosts: [{ host: 'c.test', name: 'pay', source: 'api' }], moved: [] },
    );

    const setting = await app.request('/api/endpoints/pay/hosts?move=true', json({ hosts: ['api.github.com'] }));
    expect(await code(setting)).toEqual([409, 'HOST_TAKEN']);
    expect(await code(await app.request('/api/endpoints/pay/hosts?move=yes', json({ hosts: [] })))).toEqual([
      400,
      'INVALID_QUERY',
    ]);
    expect(await store.getSetting('hosts', 'pay')).toEqual(['c.test']);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await createApp().request('/api/openapi.json')).json()) as { paths: Record<string, object> };
    expect(Object.keys(doc.paths['/api/endpoints/{name}/hosts'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(doc.paths['/api/hosts'] ?? {})).toEqual(['get']);
  });
});
