// serve()'s plain port: HTTP/2 with prior knowledge (h2c) beside HTTP/1.1, over real sockets on 127.0.0.1.
import { connect as connectH2 } from 'node:http2';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { H2_PREFACE, isH2Preface } from './h2c-sniff.js';
import { type ServedApp, serve } from './index.js';

const opened: Socket[] = [];
let served: ServedApp | undefined;

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await served?.close();
  served = undefined;
});

/** A connected socket whose bytes received are collected; `closed` resolves when it closes. */
async function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  opened.push(socket);
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  return { socket, closed, data: () => text };
}

/** A GET over HTTP/2 with prior knowledge: its status. */
function h2Get(url: string, path: string): Promise<number> {
  const session = connectH2(url);
  return new Promise<number>((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    stream.on('response', (headers) => resolve(Number(headers[':status'])));
    stream.on('error', reject);
    stream.resume();
  }).finally(() => session.close());
}

describe('isH2Preface', () => {
  it('tells the preface, a prefix of it (undefined: more bytes needed) and anything else apart', () => {
    expect(isH2Preface(H2_PREFACE)).toBe(true);
    expect(isH2Preface(Buffer.concat([H2_PREFACE, Buffer.from([0, 0, 0, 4])]))).toBe(true);
    expect(isH2Preface(H2_PREFACE.subarray(0, 5))).toBeUndefined();
    expect(isH2Preface(Buffer.from('GET / HTTP/1.1\r\n'))).toBe(false);
    expect(isH2Preface(Buffer.from('PRI / HTTP/1.1\r\n'))).toBe(false);
  });
});

describe('h2c on the plain port', () => {
  it('answers HTTP/2 with prior knowledge and HTTP/1.1 (pipelined too) on one port', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false });
    expect(await h2Get(served.url, '/api/health')).toBe(200);
    const plain = await open(served.port);
    plain.socket.write(
      'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    await expect.poll(() => plain.data().match(/HTTP\/1\.1 200/g)?.length ?? 0).toBe(2);
  });

  it('reads a preface that arrives a few bytes at a time', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false });
    // The server's end of the connection: its first read is the 3 bytes on their own (a listener
    // added after serve()'s sees the socket once the sniff has started reading it).
    const firstRead = new Promise<Buffer>((resolve) =>
      served?.server.once('connection', (socket: Socket) => socket.once('data', resolve)),
    );
    const raw = await open(served.port);
    raw.socket.write(H2_PREFACE.subarray(0, 3));
    expect((await firstRead).length).toBe(3);
    raw.socket.write(H2_PREFACE.subarray(3));
    // An empty SETTINGS frame: the server answers with its own SETTINGS (type 4) over HTTP/2.
    raw.socket.write(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]));
    await expect.poll(() => raw.data().length).toBeGreaterThanOrEqual(9);
    expect(raw.data().charCodeAt(3)).toBe(4);
    expect(raw.data()).not.toMatch(/HTTP\/1\.1/);
  });

  it('a connection that sends nothing is handed to HTTP/1.1 at the headers timeout and closed by it with 408', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false, headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const idle = await open(served.port);
    await idle.closed;
    expect(idle.data()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('stop() ends HTTP/2 sessions too', async () => {
    served = await serve(createApp(), { overrideGlobalObjects: false });
    const session = connectH2(served.url);
    await new Promise<void>((resolve) => session.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
    await served.close();
    served = undefined;
    await closed;
    expect(session.closed).toBe(true);
  });
});
