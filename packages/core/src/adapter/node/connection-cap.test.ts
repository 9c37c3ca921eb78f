// serve(): connection floods and slow clients, over real sockets on 127.0.0.1 (bounded: at most 200 sockets).
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { DEFAULT_CONNECTION_LIMITS, type ServedApp, serve } from './index.js';

const opened: Socket[] = [];
let served: ServedApp | undefined;

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await served?.close();
  served = undefined;
});

/** A connected socket, kept for cleanup; `closed` resolves when the server closes it. */
async function open(port: number): Promise<{ socket: Socket; closed: Promise<void>; data: () => string }> {
  const socket = connect(port, '127.0.0.1');
  opened.push(socket);
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed, data: () => text };
}

/** Sends one keep-alive request on `socket` and waits for a complete answer (with a Content-Length). */
async function ask(socket: Socket, path: string): Promise<string> {
  let text = '';
  const answer = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (end !== -1 && length && text.length >= end + 4 + Number(length[1])) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before an answer to ${path}; got ${JSON.stringify(text)}`)));
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  return answer;
}

/** A new connection asks for `/api/health` and gets 200. */
async function healthOnNewConnection(port: number): Promise<string> {
  const { socket } = await open(port);
  return ask(socket, '/api/health');
}

describe('an idle-socket flood above the connection cap', () => {
  it('cap 50, 200 idle sockets: the server holds at most 50, a client kept alive and new clients still get health', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false, maxConnections: 50 });
    const port = served.port;
    // A client connected before the flood, kept alive between its requests.
    const early = await open(port);
    expect(await ask(early.socket, '/api/health')).toMatch(/^HTTP\/1\.1 200/);

    const flood: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < 200; i++) flood.push(await open(port));
    // The server closed the oldest idle sockets that never sent a byte to make room.
    await expect.poll(() => flood.filter((s) => s.socket.closed).length).toBeGreaterThanOrEqual(150);
    expect(served.connections.sockets.size).toBeLessThanOrEqual(50);
    expect(served.connections.evicted()).toBeGreaterThanOrEqual(150);

    // The kept-alive client is not evicted (it has spoken); a new client gets in too.
    expect(await ask(early.socket, '/api/health')).toMatch(/^HTTP\/1\.1 200/);
    for (let i = 0; i < 5; i++) expect(await healthOnNewConnection(port)).toMatch(/^HTTP\/1\.1 200/);
    expect(served.connections.sockets.size).toBeLessThanOrEqual(50);
  });

  it('when every held connection is busy, a new connection is closed at once and nothing of it is read', async () => {
    const app = createApp();
    served = await serve(app, { overrideGlobalObjects: false, maxConnections: 3 });
    const port = served.port;
    // Three long-polls hold every slot with a request in flight.
    const busy: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < 3; i++) {
      const client = await open(port);
      client.socket.write(`GET /api/endpoints/held/requests?wait=20000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      busy.push(client);
    }
    // Node marks a socket with the response in flight on it.
    const inFlight = () =>
      [...(served as ServedApp).connections.sockets].filter((s) => (s as { _httpMessage?: unknown })._httpMessage)
        .length;
    await expect.poll(inFlight).toBe(3);
    const refused = await open(port);
    refused.socket.write(
      'PUT /api/endpoints/sneaked HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{"data":1}',
    );
    await refused.closed;
    expect(refused.data()).toBe('');
    expect(served.connections.refused()).toBe(1);
    expect(await app.mockpoint.endpoints.get('sneaked')).toBeUndefined();
    expect(busy.every((client) => !client.socket.closed)).toBe(true);
  });
});

describe('slow clients', () => {
  it('a body that trickles is cut at the request timeout with 408', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const slow = await open(served.port);
    const started = Date.now();
    slow.socket.write('PUT /api/endpoints/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"data":');
    await slow.closed;
    const elapsed = Date.now() - started;
    expect(slow.data()).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsed).toBeGreaterThanOrEqual(550);
    // Generous: the timeouts are checked every 75 ms here, and the machine may be busy.
    expect(elapsed).toBeLessThan(10_000);
  });

  it('headers that trickle are cut at the headers timeout', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false, headersTimeoutMs: 300, requestTimeoutMs: 5000 });
    const slow = await open(served.port);
    const started = Date.now();
    slow.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await slow.closed;
    expect(slow.data()).toMatch(/^HTTP\/1\.1 408/);
    // The bound is the behaviour: cut at the 300 ms headers timeout, not the 5 s request timeout; 4 s leaves a busy machine room.
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('the defaults are 10 s for headers, 30 s for the whole request and 10,000 connections', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false });
    expect(served.server.headersTimeout).toBe(10_000);
    expect(served.server.requestTimeout).toBe(30_000);
    expect(DEFAULT_CONNECTION_LIMITS.maxConnections).toBe(10_000);
  });
});
