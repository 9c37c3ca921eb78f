// A request under /ns/{ns}/ reaches its namespace with its path as sent (percent-encoding kept),
// the same on the Fetch path and a Node server, and as the default namespace records it.
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../adapter/node/index.js';
import { createApp, type MockpointApp } from '../index.js';
import { fetchFront } from './endpoint-fetch.js';

const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

async function appWithX(): Promise<MockpointApp> {
  const app = createApp();
  apps.push(app);
  expect((await app.request('/api/namespaces', { method: 'POST', body: '{"name":"a"}' })).status).toBe(201);
  for (const prefix of ['', '/ns/a']) {
    const put = await app.request(`${prefix}/api/endpoint/add`, { method: 'PUT', body: '{"name":"x","data":1}' });
    expect(put.status).toBe(201);
  }
  return app;
}

async function subpaths(app: MockpointApp, prefix: string): Promise<string[]> {
  const journal = (await (await app.request(`${prefix}/api/endpoints/x/requests`)).json()) as {
    requests: { subpath: string }[];
  };
  return journal.requests.map((request) => request.subpath);
}

describe('a namespace by path', () => {
  it('is given the path as sent, as the default namespace is (Fetch path and Node server)', async () => {
    const app = await appWithX();
    const served = await serve(app, { overrideGlobalObjects: false });
    const statuses: number[] = [];
    try {
      for (const prefix of ['', '/ns/a']) {
        statuses.push((await app.request(`${prefix}/endpoint/x/%41%2F%25?q=%41`)).status);
        statuses.push((await fetch(`${served.url}${prefix}/endpoint/x/%41%2F%25?q=%41`)).status);
      }
      // No route matches the subpath: each is answered alike (404 NO_ROUTE_MATCHED) and journaled.
      expect(statuses).toEqual([404, 404, 404, 404]);
      const sent = ['/%41%2F%25', '/%41%2F%25'];
      expect(await subpaths(app, '')).toEqual(sent);
      expect(await subpaths(app, '/ns/a')).toEqual(sent);
    } finally {
      await served.close();
    }
  });

  it('an encoded name is no name: 404 NAMESPACE_NOT_FOUND on the Fetch path as on a Node server', async () => {
    const app = await appWithX();
    const served = await serve(app, { overrideGlobalObjects: false });
    try {
      for (const response of [
        await app.request('/ns/%61/endpoint/x'),
        await fetch(`${served.url}/ns/%61/endpoint/x`),
      ]) {
        expect(response.status).toBe(404);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NAMESPACE_NOT_FOUND');
      }
    } finally {
      await served.close();
    }
  });

  it('/ns/{ns} alone is sent to /ns/{ns}/ when the namespace exists, else 404, on both paths', async () => {
    const app = await appWithX();
    const served = await serve(app, { overrideGlobalObjects: false });
    try {
      for (const send of [
        (path: string) => app.request(path),
        (path: string) => fetch(`${served.url}${path}`, { redirect: 'manual' }),
      ]) {
        const page = await send('/ns/a?x=1');
        expect([page.status, page.headers.get('location')]).toEqual([308, '/ns/a/?x=1']);
        for (const path of ['/ns/nope', '/ns/bad!']) {
          const missing = await send(path);
          expect([path, missing.status]).toEqual([path, 404]);
          expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NAMESPACE_NOT_FOUND');
        }
      }
    } finally {
      await served.close();
    }
  });
});

describe("a namespace's delete on the Fetch path (Bun, Deno, workers)", () => {
  it('answers a request held by a delay or a chaos timeout 404 NAMESPACE_NOT_FOUND within a second', async () => {
    const app = createApp();
    apps.push(app);
    expect((await app.request('/api/namespaces', { method: 'POST', body: '{"name":"gone"}' })).status).toBe(201);
    const slow = await app.request('/ns/gone/api/endpoints/slow', { method: 'PUT', body: '{"data":1,"delay":20000}' });
    expect(slow.status).toBe(201);
    const chaos = { rate: 1, faults: ['timeout'] };
    const stuck = await app.request('/ns/gone/api/endpoints/stuck/chaos', {
      method: 'PUT',
      body: JSON.stringify(chaos),
    });
    expect(stuck.status).toBe(200);
    const held = [app.request('/ns/gone/endpoint/slow'), app.request('/ns/gone/endpoint/stuck')];
    const info = async () => ((await (await app.request('/api/namespaces/gone')).json()) as { held?: number }).held;
    await expect.poll(info).toBe(2);

    expect((await app.request('/api/namespaces/gone', { method: 'DELETE' })).status).toBe(204);
    const deletedAt = performance.now();
    const answers = await Promise.all(held);
    expect(performance.now() - deletedAt).toBeLessThan(1000);
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ error: { code: 'NAMESPACE_NOT_FOUND' } });
    }
  });

  it("answers a request that named its namespace by header on Bun's fast path (fetchFront) the same", async () => {
    const app = createApp();
    apps.push(app);
    expect((await app.request('/api/namespaces', { method: 'POST', body: '{"name":"gone"}' })).status).toBe(201);
    const slow = await app.request('/ns/gone/api/endpoints/slow', { method: 'PUT', body: '{"data":1,"delay":20000}' });
    expect(slow.status).toBe(201);
    const request = new Request('http://127.0.0.1/endpoint/slow', { headers: { 'mockpoint-session': 'gone' } });
    const held = Promise.resolve(fetchFront(app)(request, undefined));
    const info = async () => ((await (await app.request('/api/namespaces/gone')).json()) as { held?: number }).held;
    await expect.poll(info).toBe(1);

    expect((await app.request('/api/namespaces/gone', { method: 'DELETE' })).status).toBe(204);
    const deletedAt = performance.now();
    const answer = await held;
    // Generous: the delay it was held by is 20 s; the delete ends it at once.
    expect(performance.now() - deletedAt).toBeLessThan(1000);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: 'NAMESPACE_NOT_FOUND' } });
  });
});
