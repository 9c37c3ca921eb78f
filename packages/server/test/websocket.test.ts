// WebSocket answers on the built daemon as a real process, with the `ws` client package:
// a scripted conversation, the live journal stream carrying every message, a seeded fuzz of
// random code points and bytes (the journal holds the exact bytes; the daemon keeps answering),
// a flooding client closed with 1008 and a client that stops reading cut off.

import { connect as connectTcp } from 'node:net';
import { createClient, type LiveRequest } from '@mockpoint/core';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const clients: WebSocket[] = [];
afterEach(() => {
  for (const socket of clients.splice(0)) socket.terminate();
});

function open(url: string, onMessage?: (data: string) => void): Promise<WebSocket> {
  const socket = new WebSocket(url);
  clients.push(socket);
  // Before 'open': the first frames may come in the same read as the handshake.
  if (onMessage !== undefined) socket.on('message', (data) => onMessage(data.toString()));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function closeOf(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

describe('websocket on the daemon', () => {
  // One daemon for the tests on the default settings, each on a name of its own.
  const shared = sharedDaemon({ args: ['--memory'] });

  it('plays a script, and the live journal stream carries every message both ways', async () => {
    const daemon = await shared();
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('live', [
      {
        answer: {
          websocket: {
            onOpen: [{ json: { type: 'ready' } }],
            on: [{ match: { body: { op: 'sum' } }, send: [{ json: { result: 3 } }] }],
          },
        },
      },
    ]);
    const controller = new AbortController();
    const seen: LiveRequest[] = [];
    const watching = (async () => {
      for await (const entry of client.watchRequests('live', { signal: controller.signal })) {
        seen.push(entry);
        if (seen.length === 4) break;
      }
    })();
    const replies: string[] = [];
    const socket = await open(`${daemon.url.replace('http', 'ws')}/endpoint/live`, (data) => replies.push(data));
    socket.send('{"op":"sum","a":[1,2]}');
    await watching;
    controller.abort();
    expect(seen.map((e) => [e.method, e.websocket?.direction, e.body])).toEqual([
      ['GET', undefined, ''],
      ['MESSAGE', 'out', '{"type":"ready"}'],
      ['MESSAGE', 'in', '{"op":"sum","a":[1,2]}'],
      ['MESSAGE', 'out', '{"result":3}'],
    ]);
    // The journal records a frame as it is sent: the client may read it a moment later.
    await vi.waitFor(() => expect(replies).toEqual(['{"type":"ready"}', '{"result":3}']), { timeout: 10_000 });
  });

  it('fuzz: random code points and bytes in incoming messages are journaled exactly; the daemon keeps answering', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--journal-size', '2000'] });
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('fuzz', [
      { answer: { websocket: { on: [{ match: { body: 'never sent' }, close: { code: 4000 } }] } } },
    ]);
    const random = prng(0x5eed34);
    const socket = await open(`${daemon.url.replace('http', 'ws')}/endpoint/fuzz`);
    const sent: Array<{ text?: string; base64?: string }> = [];
    for (let i = 0; i < 300; i++) {
      if (random() < 0.5) {
        const text = randomText(random, Math.floor(random() * 200));
        socket.send(text);
        // What goes on the wire: the text as UTF-8 (a lone surrogate becomes U+FFFD).
        sent.push({ text: Buffer.from(text, 'utf8').toString('utf8') });
      } else {
        const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 300) }, () => Math.floor(random() * 256)));
        socket.send(bytes, { binary: true });
        sent.push({ base64: bytes.toString('base64') });
      }
    }
    const entries = await client.waitForRequests('fuzz', {
      count: sent.length,
      timeout: 20_000,
      match: { method: 'MESSAGE', websocket: { direction: 'in' } },
    });
    expect(entries).toHaveLength(sent.length);
    entries.forEach((entry, i) => {
      const want = sent[i] as { text?: string; base64?: string };
      if (want.text !== undefined) {
        expect(entry.bodyEncoding).toBeUndefined();
        expect(entry.body).toBe(want.text);
      } else {
        expect(entry.bodyEncoding).toBe('base64');
        expect(entry.body).toBe(want.base64);
      }
      expect(entry.bodyTruncated).toBe(false);
    });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
  }, 30_000);

  it('closes a client that floods with 1008 and cuts off one that stops reading; the daemon keeps answering', async () => {
    const daemon = await shared();
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('limits', [{ answer: { websocket: {} } }]);
    const base = `${daemon.url.replace('http', 'ws')}/endpoint/limits`;

    const flood = await open(`${base}/flood`);
    const floodClosed = closeOf(flood);
    for (let i = 0; i < 1500; i++) flood.send('x');
    expect(await floodClosed).toBe(1008);

    const stall = await open(`${base}/stall`);
    const stallClosed = closeOf(stall);
    // The client stops reading: the daemon's send buffer grows past its bound.
    (stall as unknown as { _socket: { pause(): void } })._socket.pause();
    const [info] = (await client.sockets('limits')).filter((s) => s.subpath === '/stall');
    const megabyte = 'y'.repeat(1024 * 1024 - 16);
    let count = 1;
    for (let i = 0; i < 60 && count > 0; i++) {
      count = await client.sendSocket('limits', { text: megabyte }, { connection: info?.id }).catch(() => 0);
    }
    expect(count).toBe(0);
    expect((await client.sockets('limits')).map((s) => s.subpath)).toEqual([]);
    (stall as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await stallClosed).toBe(1006);
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
  }, 30_000);

  it('sockets/close reads its body under MOCKPOINT_MAX_BODY_BYTES: 413 BODY_TOO_LARGE before an endless body ends', async () => {
    const daemon = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_MAX_BODY_BYTES: '100000' } });
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('lim', [{ answer: { websocket: {} } }]);
    const socket = await open(`${daemon.url.replace('http', 'ws')}/endpoint/lim`);
    const closed = closeOf(socket);
    // A chunked body past the limit that never ends: the answer must not wait for (and buffer) all of it.
    const raw = connectTcp(daemon.port, '127.0.0.1');
    let answer = '';
    const answered = new Promise<string>((resolve) => {
      raw.on('data', (data) => {
        answer += data.toString('latin1');
        if (answer.includes('"BODY_TOO_LARGE"')) resolve(answer);
      });
      raw.on('close', () => resolve(answer));
    });
    raw.on('error', () => undefined);
    const chunk = Buffer.alloc(64 * 1024, ' ');
    raw.write(
      'POST /api/endpoints/lim/sockets/close HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    for (let i = 0; i < 3; i++)
      raw.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    const got = await answered;
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got).toContain('"BODY_TOO_LARGE"');
    raw.destroy();
    // Nothing was closed, and the daemon keeps answering; an empty body still closes every socket with 1000.
    expect(socket.readyState).toBe(WebSocket.OPEN);
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
    const empty = await fetch(`${daemon.url}/api/endpoints/lim/sockets/close`, { method: 'POST' });
    expect(await empty.json()).toEqual({ count: 1 });
    expect(await closed).toBe(1000);
  }, 30_000);
});
