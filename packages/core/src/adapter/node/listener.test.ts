import {
  createServer,
  request as httpRequest,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CreateAppOptions, createApp, type MockpointApp } from '../../index.js';
import type { RequestJournal } from '../../store/memory/memory-journal.js';
import { createNodeListener } from './listener.js';

interface Running {
  app: MockpointApp;
  url: string;
  server: Server;
}

const running: Running[] = [];

async function listen(app: MockpointApp, listener: RequestListener): Promise<Running> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const r = { app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  running.push(r);
  return r;
}

/** The native Node adapter. */
function startNative(options: CreateAppOptions = {}, app = createApp(options)): Promise<Running> {
  return listen(app, createNodeListener(app, { overrideGlobalObjects: false }));
}

/** The Fetch adapter (the Hono route), served by @hono/node-server: the reference. */
function startFetch(options: CreateAppOptions = {}): Promise<Running> {
  const app = createApp(options);
  return listen(app, getRequestListener(app.fetch, { overrideGlobalObjects: false }));
}

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
  vi.restoreAllMocks();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP/1.1 request, so the test controls every header (fetch adds its own). */
function raw(url: string, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string | Buffer) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers: { 'x-test': 'yes', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function add(r: Running, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${r.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(body) });
  expect(res.status).toBe(201);
}

function withoutDate(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, ...rest } = headers;
  return rest;
}

type Case = [label: string, method: string, path: string, headers?: Record<string, string>, body?: string];

const CASES: Case[] = [
  ['a GET of a 201 JSON body', 'GET', '/endpoint/json?x=1&x=2', { 'X-Twice': 'a' }],
  ['a HEAD (no body, same Content-Length)', 'HEAD', '/endpoint/json'],
  ['a webhook POST with a JSON body', 'POST', '/endpoint/json', { 'content-type': 'application/json' }, '{"n":1}'],
  ['a PUT with a body that is not UTF-8 text', 'PUT', '/endpoint/json', {}, '\u00ff'],
  ['a GET of a 204 (no body)', 'GET', '/endpoint/empty'],
  ['a DELETE of a 503', 'DELETE', '/endpoint/down'],
  ['a delayed GET', 'GET', '/endpoint/slow'],
  ['an unknown name (404 NOT_FOUND)', 'PATCH', '/endpoint/missing'],
  ['a HEAD of an unknown name', 'HEAD', '/endpoint/missing'],
  ['a name that can never be valid', 'GET', '/endpoint/a.b'],
  ['a percent-encoded name', 'GET', '/endpoint/%6Ason'],
  ['a CORS preflight', 'OPTIONS', '/endpoint/json', { 'access-control-request-headers': 'x-sig' }],
  ['a method no endpoint answers (405)', 'PROPFIND', '/endpoint/json'],
  ['a path below a name (ROUTE_NOT_FOUND)', 'GET', '/endpoint/a/b'],
];

describe('createNodeListener', () => {
  // The Fetch adapter is the reference the native adapter must match byte for byte.
  it.each(CASES)(
    'answers %s exactly as the Fetch adapter does, and journals it the same way',
    async (_label, method, path, headers = {}, body = undefined) => {
      const native = await startNative();
      const reference = await startFetch();
      for (const r of [native, reference]) {
        await add(r, { name: 'json', data: { id: 1, text: 'héllo' }, statusCode: 201 });
        await add(r, { name: 'empty', data: { ignored: true }, statusCode: 204 });
        await add(r, { name: 'down', data: ['down'], statusCode: 503 });
        await add(r, { name: 'slow', data: 'late', delay: 20 });
      }
      // Sent as Latin-1 bytes, so '\u00ff' is the byte 0xFF (not UTF-8).
      const send = (r: Running) =>
        raw(r.url, path, headers, method, body === undefined ? undefined : Buffer.from(body, 'latin1'));
      const a = await send(native);
      const b = await send(reference);
      expect(a.status).toBe(b.status);
      expect(a.body).toBe(b.body);
      expect(withoutDate(a.headers)).toEqual(withoutDate(b.headers));

      const name = decodeURIComponent(path.slice('/endpoint/'.length).split('?')[0] as string);
      // The times are measured (each adapter its own): present on both, not equal.
      const strip = ({
        id: _id,
        receivedAt: _at,
        timings,
        headers: h,
        ...rest
      }: {
        id: number;
        receivedAt: string;
        timings?: { wait: number };
        headers: Record<string, string>;
      }) => ({
        ...rest,
        measured: timings !== undefined && timings.wait >= 0,
        headers: { ...h, host: 'same' },
      });
      const ja = (native.app.mockpoint.journal as RequestJournal).list(name).map(strip);
      const jb = (reference.app.mockpoint.journal as RequestJournal).list(name).map(strip);
      expect(ja).toEqual(jb);
    },
  );

  it('answers every /endpoint/ request natively: no Fetch-API objects, the Hono app is never called', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', { method: 'PUT', body: '{"name":"hot","data":1}' });
    await app.request('/api/endpoint/add', { method: 'PUT', body: '{"name":"slow","data":2,"delay":10}' });
    const viaHono = vi.spyOn(app, 'fetch');
    const handle = vi.spyOn(app.mockpoint.handler, 'handle');
    const r = await startNative({}, app);
    app.mockpoint.endpoints.cache.clear(); // the first read of each is a cache miss
    expect((await raw(r.url, '/endpoint/hot')).body).toBe('1');
    expect((await raw(r.url, '/endpoint/hot', { 'content-type': 'text/plain' }, 'POST', 'hello')).body).toBe('1');
    expect((await raw(r.url, '/endpoint/slow', {}, 'PUT', 'x')).body).toBe('2');
    expect((await raw(r.url, '/endpoint/nope', {}, 'HEAD')).status).toBe(404);
    expect(handle).toHaveBeenCalledTimes(4);
    expect(viaHono).not.toHaveBeenCalled();
    expect((app.mockpoint.journal as RequestJournal).list('hot').map((e) => [e.method, e.body])).toEqual([
      ['GET', ''],
      ['POST', 'hello'],
    ]);
  });

  it('keeps each body exactly, also of pipelined requests, holding no large buffer for it', async () => {
    const r = await startNative();
    await add(r, { name: 'kept', data: 1 });
    const handle = vi.spyOn(r.app.mockpoint.handler, 'handle');
    const post = (body: string) =>
      `POST /endpoint/kept HTTP/1.1\r\nhost: x\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const socket = connect(Number(new URL(r.url).port), '127.0.0.1');
    let answers = '';
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk) => {
        answers += chunk;
        if (answers.split('HTTP/1.1 200').length === 3) resolve();
      });
      socket.on('error', reject);
      // Two requests in one write: one socket read.
      socket.write(post('{"first":1}') + post('{"second":22}'));
    });
    socket.destroy();
    const bodies = handle.mock.calls.map(([request]) => request.body);
    expect(bodies.map((b) => Buffer.from(b).toString())).toEqual(['{"first":1}', '{"second":22}']);
    for (const body of bodies) {
      expect(Object.getPrototypeOf(body)).toBe(Uint8Array.prototype);
      expect(body.buffer.byteLength).toBeLessThanOrEqual(2 * body.byteLength + 1024);
    }
  });

  it('journals a GET body too (the Fetch API cannot carry one, the Node adapter can)', async () => {
    const r = await startNative();
    await add(r, { name: 'ok', data: 2 });
    await raw(r.url, '/endpoint/ok', { 'content-length': '2' }, 'GET', '{}');
    expect((r.app.mockpoint.journal as RequestJournal).list('ok')).toMatchObject([
      { method: 'GET', body: '{}', json: {} },
    ]);
  });

  it('stops a delayed answer when the client goes away: its timer is gone once the server sees close', async () => {
    const r = await startNative();
    await add(r, { name: 'slow', data: 1, delay: 60_000 });
    const set = vi.spyOn(globalThis, 'setTimeout');
    const answerTimer = () => set.mock.results[set.mock.calls.findIndex((call) => call[1] === 60_000)]?.value;
    const closed = new Promise<void>((resolve) => {
      r.server.once('request', (_req, res: ServerResponse) => res.once('close', () => resolve()));
    });
    const req = httpRequest(`${r.url}/endpoint/slow`);
    req.on('error', () => undefined);
    req.end();
    // Wait until the answer timer is set, then hang up.
    for (let i = 0; i < 2000 && answerTimer() === undefined; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const timer = answerTimer() as NodeJS.Timeout;
    // `_destroyed` is Node's own mark of a timer that was cleared (or has fired): it will never run.
    expect((timer as unknown as { _destroyed: boolean })._destroyed).toBe(false);
    req.destroy();
    await closed;
    expect((timer as unknown as { _destroyed: boolean })._destroyed).toBe(true);
  });
});
