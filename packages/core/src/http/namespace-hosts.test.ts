// A host mapped to an endpoint keeps every path, `/ns/…` too: the API it mocks may have such paths.
// Its namespace comes by the header alone (Fetch path and Node server, WebSocket handshakes too).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve } from '../adapter/node/index.js';
import { createApp, type MockpointApp } from '../index.js';
import { fetchFront } from './endpoint-fetch.js';

const HOST = 'api.example.test';
const WS_HOST = 'ws.example.test';
const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.namespaces?.close();
});

async function appWithHost(): Promise<MockpointApp> {
  const app = createApp({ hosts: { [HOST]: 'ex', [WS_HOST]: 'ws' } });
  apps.push(app);
  const put = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, { method: 'PUT', body: JSON.stringify(body), headers });
  const routes = (data: string) => ({
    routes: [
      { match: { path: '/ns/:a' }, answer: { data } },
      { match: { path: '/ns/:a/:b' }, answer: { data } },
    ],
  });
  expect((await put('/api/endpoints/ex/routes', routes('default'))).status).toBe(200);
  expect((await app.request('/api/namespaces', { method: 'POST', body: '{"name":"team"}' })).status).toBe(201);
  const inTeam = { 'mockpoint-session': 'team' };
  expect((await put('/api/endpoints/ex/routes', routes('team'), inTeam)).status).toBe(200);
  expect((await put('/api/endpoints/ex/hosts', { hosts: [HOST] }, inTeam)).status).toBe(200);
  const route = { id: 'ws', match: { path: '/ns/team/socket' }, answer: { websocket: { onOpen: [{ json: 'hi' }] } } };
  expect((await put('/api/endpoints/ws/routes', { routes: [route] })).status).toBe(200);
  return app;
}

function get(url: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers: { host: HOST, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a mapped host and /ns/ paths', () => {
  it('on the Fetch path: the endpoint answers /ns/{ns}/… of its host; the header picks the namespace', async () => {
    const app = await appWithHost();
    for (const path of ['/ns/team/list', '/ns/team', '/ns/nope/x']) {
      const response = await app.request(`http://${HOST}${path}`, { headers: { host: HOST } });
      expect([path, response.status, await response.json()]).toEqual([path, 200, 'default']);
    }
    const journal = await (await app.request('/api/endpoints/ex/requests')).json();
    expect((journal as { requests: { subpath: string }[] }).requests.map((r) => r.subpath)).toContain('/ns/team/list');
    const byHeader = await app.request(`http://${HOST}/ns/x`, { headers: { host: HOST, 'mockpoint-session': 'team' } });
    expect(await byHeader.json()).toBe('team');
    // The daemon's own host still picks by the path.
    expect(await (await app.request('/ns/team/endpoint/ex/ns/y')).json()).toBe('team');
  });

  it('on a Node server: the same, WebSocket handshakes too', async () => {
    const app = await appWithHost();
    const served = await serve(app, { overrideGlobalObjects: false });
    try {
      for (const path of ['/ns/team/list', '/ns/team', '/ns/nope/x']) {
        const answer = await get(served.url, path);
        expect([path, answer.status, JSON.parse(answer.body)]).toEqual([path, 200, 'default']);
      }
      expect(JSON.parse((await get(served.url, '/ns/x', { 'mockpoint-session': 'team' })).body)).toBe('team');
      expect(JSON.parse((await get(served.url, '/ns/team/endpoint/ex/ns/y', { host: 'localhost' })).body)).toBe('team');
      const socket = new WebSocket(`${served.url.replace('http', 'ws')}/ns/team/socket`, {
        headers: { host: WS_HOST },
      });
      const first = await new Promise<string>((resolve, reject) => {
        socket.once('message', (data) => resolve(String(data)));
        socket.once('error', reject);
      });
      socket.close();
      expect(JSON.parse(first)).toBe('hi');
    } finally {
      await served.close();
    }
  });

  it('a request whose header names a namespace is routed by that namespace’s hosts on every entry, Bun’s fast path too', async () => {
    // Only the namespace maps a host: Bun's fast path took `/endpoint/{name}` by name when the
    // default namespace mapped none, and left the namespace's hosts out (404 NOT_FOUND for `plain`).
    const app = createApp();
    apps.push(app);
    const inTeam = { 'mockpoint-session': 'team' };
    const put = (path: string, body: unknown) =>
      app.request(path, { method: 'PUT', body: JSON.stringify(body), headers: inTeam });
    expect((await app.request('/api/namespaces', { method: 'POST', body: '{"name":"team"}' })).status).toBe(201);
    const routes = { routes: [{ match: { path: '/endpoint/:a' }, answer: { data: 'team' } }] };
    expect((await put('/api/endpoints/ex/routes', routes)).status).toBe(200);
    expect((await put('/api/endpoints/ex/hosts', { hosts: [HOST] })).status).toBe(200);
    const served = await serve(app, { overrideGlobalObjects: false });
    const headers = { host: HOST, ...inTeam };
    try {
      // `/endpoint/plain` on a host the namespace maps to `ex` is `ex`'s (its whole path the subpath).
      const onNode = await get(served.url, '/endpoint/plain', inTeam);
      const onFetch = await app.request(`http://${HOST}/endpoint/plain`, { headers });
      const fast = await fetchFront(app)(new Request(`http://${HOST}/endpoint/plain`, { headers }), undefined);
      expect([onNode.status, JSON.parse(onNode.body)]).toEqual([200, 'team']);
      expect([onFetch.status, await onFetch.json()]).toEqual([200, 'team']);
      expect([fast.status, await fast.json()]).toEqual([200, 'team']);
    } finally {
      await served.close();
    }
  });

  it('a WebSocket handshake by way of a mapped host is journaled with that host, as a request is', async () => {
    const app = await appWithHost();
    const served = await serve(app, { overrideGlobalObjects: false });
    try {
      const socket = new WebSocket(`${served.url.replace('http', 'ws')}/ns/team/socket`, {
        headers: { host: WS_HOST },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('message', () => resolve());
        socket.once('error', reject);
      });
      socket.close();
      const journal = (await (await app.request('/api/endpoints/ws/requests')).json()) as {
        requests: { method: string; subpath: string; host?: string }[];
      };
      // The handshake (its messages are entries too): the upgrade listener journaled it without its
      // host; the request listener always gave it.
      const handshakes = journal.requests.filter((r) => r.method === 'GET');
      expect(handshakes.map((r) => [r.subpath, r.host])).toEqual([['/ns/team/socket', WS_HOST]]);
    } finally {
      await served.close();
    }
  });
});
