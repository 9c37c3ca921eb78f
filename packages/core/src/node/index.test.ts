import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CreateAppOptions, createApp, type MockpointApp } from '../index.js';
import { createNodeListener } from './index.js';

interface Running {
  app: MockpointApp;
  url: string;
  server: Server;
}

const running: Running[] = [];

async function start(options: CreateAppOptions = {}): Promise<Running> {
  const app = createApp(options);
  const server = createServer(createNodeListener(app, { overrideGlobalObjects: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const r = { app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  running.push(r);
  return r;
}

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
  vi.restoreAllMocks();
});

/** A raw HTTP/1.1 request, so the test controls every header (fetch adds its own). */
function raw(url: string, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { method, headers: { 'x-test': 'yes', ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

async function add(r: Running, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${r.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(body) });
  expect(res.status).toBe(201);
}

function withoutDate(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, ...rest } = headers;
  return rest;
}

describe('createNodeListener', () => {
  // `cacheMaxBytes: 0` keeps nothing cached, so every read takes the Hono route:
  // the reference the fast path must match byte for byte.
  it.each([
    ['a 201 JSON body', { data: { id: 1, text: 'héllo' }, statusCode: 201 }],
    ['a 204 with no body', { data: { ignored: true }, statusCode: 204 }],
    ['a 503', { data: ['down'], statusCode: 503 }],
  ])('answers %s exactly as the Hono route does, and journals it the same way', async (_label, definition) => {
    const fast = await start();
    const reference = await start({ cacheMaxBytes: 0 });
    for (const r of [fast, reference]) await add(r, { name: 'same', ...definition });
    const respond = vi.spyOn(reference.app.mockpoint.endpoints.store, 'get');

    const a = await raw(fast.url, '/endpoint/same?x=1&x=2', { 'X-Twice': 'a' });
    const b = await raw(reference.url, '/endpoint/same?x=1&x=2', { 'X-Twice': 'a' });
    expect(respond).toHaveBeenCalled(); // the reference really went through the route
    expect(a.status).toBe(definition.statusCode);
    expect(a.body).toBe(b.body);
    expect(withoutDate(a.headers)).toEqual(withoutDate(b.headers));

    const [ja] = fast.app.mockpoint.journal.list('same');
    const [jb] = reference.app.mockpoint.journal.list('same');
    const strip = ({ id: _id, receivedAt: _at, headers, ...rest }: NonNullable<typeof ja>) => ({
      ...rest,
      headers: { ...headers, host: 'same' },
    });
    expect(strip(ja!)).toEqual(strip(jb!));
    expect(ja).toMatchObject({ method: 'GET', path: '/endpoint/same', query: { x: ['1', '2'] } });
    expect(ja!.headers['x-test']).toBe('yes');
  });

  it('serves a cached GET without touching the store or the Hono route', async () => {
    const r = await start();
    await add(r, { name: 'hot', data: 1 });
    const get = vi.spyOn(r.app.mockpoint.endpoints.store, 'get');
    // The Hono read route asks the endpoint service for the response; the fast path does not.
    const route = vi.spyOn(r.app.mockpoint.endpoints, 'response');
    expect((await raw(r.url, '/endpoint/hot')).body).toBe('1');
    expect(get).not.toHaveBeenCalled();
    expect(route).not.toHaveBeenCalled();
    expect(r.app.mockpoint.journal.list('hot')).toHaveLength(1);
  });

  it('leaves to the Hono route: delays, bodies, other methods, uncached and encoded names', async () => {
    const r = await start();
    await add(r, { name: 'slow', data: 1, delay: 50 });
    await add(r, { name: 'ok', data: 2 });
    const route = vi.spyOn(r.app.mockpoint.endpoints, 'response');
    await raw(r.url, '/endpoint/slow');
    await raw(r.url, '/endpoint/ok', { 'content-length': '2' }, 'GET', '{}');
    await raw(r.url, '/endpoint/ok', {}, 'HEAD');
    await raw(r.url, '/endpoint/%6Fk');
    await raw(r.url, '/endpoint/missing');
    expect(route.mock.calls.map(([name]) => name)).toEqual(['slow', 'ok', 'ok', 'ok', 'missing']);
    // A GET body cannot cross the Fetch API (a Request forbids one), so it is not journaled.
    expect(r.app.mockpoint.journal.list('ok').map((e) => [e.method, e.body])).toEqual([
      ['GET', ''],
      ['HEAD', ''],
      ['GET', ''],
    ]);
  });
});
