// Requests that reach the server's 'upgrade' event (every request with `Connection: upgrade` once it has a
// listener) over real sockets: an h2c offer is answered as plain HTTP/1.1 with its body, and a WebSocket
// handshake is routed as the request listener routes (a mapped Host, the listener's one endpoint).
import { connect as connectTcp } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp, createClient } from '../../index.js';
import { type ServedApp, serve } from './index.js';

const running: ServedApp[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const served of running.splice(0)) await served.close();
});

async function start(app = createApp(), options: Parameters<typeof serve>[1] = {}): Promise<ServedApp> {
  const served = await serve(app, { port: 0, overrideGlobalObjects: false, ...options });
  running.push(served);
  return served;
}

/** Writes `parts` on a raw connection (each once the previous is out) and resolves with all it got until closed. */
function exchange(port: number, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1');
    let got = '';
    socket.on('data', (data) => {
      got += data.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
    const next = (i: number): void => {
      if (i < parts.length) socket.write(parts[i] as string, () => setImmediate(next, i + 1));
    };
    socket.on('connect', () => next(0));
  });
}

const H2C = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n';

/** A WebSocket client's outcome: 'open' or the refusing status. */
function outcome(url: string, headers?: Record<string, string>): Promise<{ socket: WebSocket; result: string }> {
  const socket = new WebSocket(url, { headers });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_req, res) => resolve({ socket, result: `status ${res.statusCode}` }));
    socket.on('error', (error) => resolve({ socket, result: `error ${error.message}` }));
    socket.on('open', () => resolve({ socket, result: 'open' }));
  });
}

describe('requests offering an upgrade other than WebSocket (curl --http2)', () => {
  it('answers GET /api/health over HTTP/1.1, ignoring the h2c offer', async () => {
    const served = await start();
    const got = await exchange(served.port, [`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${H2C}\r\n`]);
    expect(got).toMatch(/^HTTP\/1\.1 200 /);
    expect(got.toLowerCase()).toContain('connection: close');
    expect(got).toContain('"status"');
  });

  it('reads a body of declared length, also when it arrives after the head', async () => {
    const served = await start();
    const client = createClient({ baseUrl: served.url });
    const body = JSON.stringify({ hello: 'world', pad: 'x'.repeat(200) });
    const got = await exchange(served.port, [
      `POST /endpoint/up/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: foo\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      body.slice(10),
    ]);
    expect(got).toMatch(/^HTTP\/1\.1 /);
    const entries = await client.requests('up');
    expect(entries.map((e) => [e.method, e.subpath, e.body])).toEqual([['POST', '/x', body]]);
  });

  it('a management write with curl --http2 -d (h2c offered with a body) is taken', async () => {
    const served = await start();
    const body = JSON.stringify({ data: { ok: true } });
    const got = await exchange(served.port, [
      `PUT /api/endpoints/viacurl HTTP/1.1\r\nHost: 127.0.0.1\r\n${H2C}Content-Length: ${body.length}\r\n\r\n${body}`,
    ]);
    expect(got).toMatch(/^HTTP\/1\.1 20[01] /);
    const read = await fetch(`${served.url}/endpoint/viacurl`);
    expect(await read.json()).toEqual({ ok: true });
  });

  it('refuses a chunked body offered with an upgrade with UPGRADE_BODY_UNSUPPORTED, never losing it', async () => {
    const served = await start();
    const client = createClient({ baseUrl: served.url });
    const got = await exchange(served.port, [
      `POST /endpoint/chunk HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: foo\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
    ]);
    expect(got).toMatch(/^HTTP\/1\.1 400 /);
    expect(got).toContain('"UPGRADE_BODY_UNSUPPORTED"');
    expect(await client.requests('chunk')).toEqual([]);
  });
});

describe('WebSocket handshakes are routed as plain requests', () => {
  it('a mapped Host reaches its endpoint, its path the subpath', async () => {
    const app = createApp({ hosts: { 'api.github.com': 'github' } });
    const served = await start(app);
    const client = createClient({ baseUrl: served.url });
    await client.setRoutes('github', [{ match: { path: '/x' }, answer: { websocket: {} } }]);
    const ws = served.url.replace('http', 'ws');
    expect((await outcome(`${ws}/x`, { host: 'api.github.com' })).result).toBe('open');
    const entries = await client.requests('github');
    expect(entries.map((e) => [e.method, e.subpath, e.statusCode])).toEqual([['GET', '/x', 101]]);
  });

  it('on a listener serving one endpoint, every path is that endpoint’s subpath', async () => {
    const app = createApp();
    const admin = await start(app);
    const client = createClient({ baseUrl: admin.url });
    await client.setRoutes('github', [{ answer: { websocket: {} } }]);
    await client.setRoutes('other', [{ answer: { websocket: {} } }]);
    const one = await start(app, { endpoint: 'github' });
    const ws = one.url.replace('http', 'ws');
    expect((await outcome(`${ws}/endpoint/other/x`)).result).toBe('open');
    expect((await client.requests('github')).map((e) => e.subpath)).toEqual(['/endpoint/other/x']);
    expect(await client.requests('other')).toEqual([]);
  });
});
