// Bounded probes of the WebSocket limits against the real daemon (127.0.0.1 only, issue #49 S2, S3):
// idle sockets must not lock out the API (a reserve they cannot take, an idle timeout, a count per
// name), and pings and unfinished messages must not grow the daemon or stall it. Each probe asks
// /api/health every 200 ms on a new connection (worst answer under 1 s, none refused), watches the
// daemon's RSS, and checks that an admin write acknowledged during the attack is still there after.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { createClient } from '@mockpoint/core';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Daemon, ON_BUN, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const opened: Array<{ destroy(): void }> = [];
afterEach(() => {
  for (const one of opened.splice(0)) one.destroy();
});

const MB = 1024 * 1024;

/** The daemon's resident set, in bytes (Linux). */
function rss(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
}

/**
 * What the health watcher runs, in a process of its own (so that the test's own work, e.g. writing
 * hundreds of MiB, never delays an answer it measures): GET /api/health on a new connection every
 * 200 ms, one line per answer with its time in ms (`-1`: refused, failed or slower than 5 s).
 */
const WATCHER = `
const { request } = require('node:http');
const port = Number(process.argv[1]);
setInterval(() => {
  const started = performance.now();
  let done = false;
  const finish = (ms) => { if (!done) { done = true; process.stdout.write(ms + '\\n'); } };
  const req = request({ host: '127.0.0.1', port, path: '/api/health', agent: false, timeout: 5000 }, (res) => {
    res.resume();
    res.on('end', () => finish(res.statusCode === 200 ? Math.round(performance.now() - started) : -1));
  });
  req.on('timeout', () => req.destroy());
  req.on('error', () => finish(-1));
  req.end();
}, 200);
`;

/** Asks health every 200 ms (from a process of its own) and samples the RSS until stopped: the worst answer, refusals, and the RSS growth. */
function watch(daemon: Daemon) {
  const pid = daemon.child.pid as number;
  const start = rss(pid);
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(pid));
  }, 200);
  const watcher = spawn(process.execPath, ['-e', WATCHER, String(daemon.port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  watcher.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const exited = new Promise<void>((resolve) => watcher.once('close', () => resolve()));
  const answers = () => out.split('\n').length - 1;
  return {
    growth: () => rss(pid) - start,
    /** Resolves once the watcher has had `count` more answers (or failures) from now. */
    answered(count: number): Promise<void> {
      const wanted = answers() + count;
      return new Promise<void>((resolve) => {
        const next = () => {
          if (answers() < wanted) return;
          watcher.stdout.off('data', next);
          resolve();
        };
        watcher.stdout.on('data', next);
      });
    },
    async stop() {
      clearInterval(sampler);
      // The last ask may be under way: the watcher's next line (an answer, or -1) is its end.
      const lines = out.split('\n').length;
      await new Promise<void>((resolve) => {
        const next = () => {
          if (out.split('\n').length <= lines) return;
          watcher.stdout.off('data', next);
          resolve();
        };
        watcher.stdout.on('data', next);
      });
      watcher.kill();
      await exited;
      peak = Math.max(peak, rss(pid));
      const times = out.split('\n').filter(Boolean).map(Number);
      const failed = times.filter((t) => t < 0).length;
      const worst = Math.max(0, ...times);
      const report = { asks: times.length, worstMs: worst, failed, peakGrowthMB: (peak - start) / MB };
      console.log(`probe: ${JSON.stringify({ ...report, growthMB: (rss(pid) - start) / MB })}`);
      return report;
    },
  };
}

/** An admin write during the attack; resolves to whether it was acknowledged. */
async function write(daemon: Daemon, name: string): Promise<boolean> {
  const client = createClient({ baseUrl: daemon.url });
  try {
    await client.add({ name, data: { kept: name } });
    return true;
  } catch {
    return false;
  }
}

/** A raw WebSocket client on a TCP socket: the handshake, then frames written by hand. */
async function rawSocket(port: number, path: string): Promise<Socket> {
  const socket = connectTcp(port, '127.0.0.1');
  opened.push(socket);
  socket.on('error', () => undefined);
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  let head = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(`no upgrade: ${head.slice(0, 200)}`));
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before the upgrade: ${head.slice(0, 200)}`)));
  });
  return socket;
}

/** A client frame (masked with a zero key, so the payload goes as is). */
function frame(opcode: number, payload: Buffer, fin = true): Buffer {
  const length = payload.byteLength;
  const head =
    length < 126
      ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | length])
      : length < 65536
        ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 127]), bigLength(length)]);
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

function bigLength(length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(length));
  return out;
}

/** Whether the daemon ended `socket` (closed or reset it) within `ms`. */
function endedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Writes `one` frame over and over (waiting for drain) until the socket ends or `ms` pass; the bytes written. */
async function flood(socket: Socket, one: Buffer, ms: number, maxBytes: number): Promise<number> {
  const batch = Buffer.concat(Array.from({ length: Math.max(1, Math.floor(65536 / one.byteLength)) }, () => one));
  const until = Date.now() + ms;
  let written = 0;
  while (!socket.destroyed && Date.now() < until && written < maxBytes) {
    written += batch.byteLength;
    if (!socket.write(batch)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, until - Date.now()));
        const done = () => {
          clearTimeout(timer);
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });
    }
  }
  return written;
}

interface Attempt {
  socket?: WebSocket;
  /** The close code of an opened socket, once closed. */
  closed?: Promise<number>;
  status?: number;
  code?: string;
}

/** A handshake with the `ws` client: the open socket, or the refusal's status and error code. */
function attempt(url: string): Promise<Attempt> {
  const socket = new WebSocket(url);
  opened.push({ destroy: () => socket.terminate() });
  return new Promise((resolve) => {
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('open', () => resolve({ socket, closed }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
        resolve({ status: res.statusCode, code });
        socket.terminate();
      });
    });
    socket.once('error', () => resolve({}));
  });
}

describe.skipIf(ON_BUN)('websocket limits on the daemon (probes)', () => {
  it('S2: idle sockets cannot take the room kept for the API; each name is counted; idle ones are closed (1001)', async () => {
    const daemon = await startDaemon({
      args: ['--memory', '--max-connections', '200', '--max-sockets-per-name', '50'],
      env: { MOCKPOINT_SOCKET_IDLE_TIMEOUT_MS: '5000' },
    });
    const client = createClient({ baseUrl: daemon.url });
    const names = ['idle-a', 'idle-b', 'idle-c', 'idle-d', 'idle-e'];
    for (const name of names) await client.setRoutes(name, [{ answer: { websocket: {} } }]);
    const probe = watch(daemon);
    const ws = daemon.url.replace('http', 'ws');
    const started = Date.now();
    // 5 names x 60 handshakes: 10 a name past its 50, and the rest past the connections' 200 less the reserve.
    const attempts: Attempt[] = [];
    for (const name of names) {
      for (let i = 0; i < 6; i++) {
        attempts.push(...(await Promise.all(Array.from({ length: 10 }, () => attempt(`${ws}/endpoint/${name}/x`)))));
      }
    }
    const open = attempts.filter((a) => a.socket !== undefined);
    console.log(`probe: ${attempts.length} handshakes in ${Date.now() - started} ms`);
    // Health is asked ten times more (every 200 ms: 2 s) while the sockets are held.
    await probe.answered(10);
    const acknowledged = await write(daemon, 'written-during-s2');
    const report = await probe.stop();
    console.log(`probe: ${open.length} sockets open of ${attempts.length} handshakes`);
    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1000);
    expect(acknowledged).toBe(true);

    // The sockets took at most 9/10 of the 200 connections; the rest of the handshakes were refused by code.
    expect(open.length).toBeLessThanOrEqual(180);
    expect(open.length).toBeGreaterThanOrEqual(150);
    expect(attempts.filter((a) => a.socket === undefined).map((a) => `${a.status} ${a.code}`)).toEqual(
      Array(attempts.length - open.length).fill('503 TOO_MANY_SOCKETS'),
    );
    expect(await client.get('written-during-s2')).toMatchObject({ data: { kept: 'written-during-s2' } });

    // Idle for 5 s (MOCKPOINT_SOCKET_IDLE_TIMEOUT_MS): every socket is closed with 1001.
    const deadline = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 10_000));
    const codes = await Promise.all(open.map((a) => Promise.race([a.closed as Promise<number>, deadline])));
    expect(new Set(codes)).toEqual(new Set([1001]));
    expect(probe.growth()).toBeLessThan(150 * MB);
  }, 60_000);

  it('idle WebSockets in namespaces share the nine tenths: with the max open, 6 API calls all answer (issue #71)', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--max-connections', '300'] });
    const spaces = ['ws-a', 'ws-b'];
    // Set up on a dispatcher closed after: a kept-alive setup connection would count against the 300,
    // and past the cap the oldest connection that has not sent a byte yet is closed first (a handshake, on a busy machine).
    const setup = new Agent();
    for (const name of spaces) {
      const made = await fetch(`${daemon.url}/api/namespaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
        dispatcher: setup,
      } as RequestInit);
      expect(made.status).toBe(201);
      const routes = await fetch(`${daemon.url}/ns/${name}/api/endpoints/full/routes`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ routes: [{ answer: { websocket: {} } }] }),
        dispatcher: setup,
      } as RequestInit);
      expect(routes.status).toBeLessThan(300);
    }
    await setup.close();
    // 150 handshakes to each namespace, 30 at a time: each namespace's app had a share of its own (270),
    // so all 300 opened and held every connection the cap allows.
    const attempts: Attempt[] = [];
    const ws = daemon.url.replace('http', 'ws');
    for (let i = 0; i < 5; i++) {
      for (const name of spaces) {
        attempts.push(
          ...(await Promise.all(Array.from({ length: 30 }, () => attempt(`${ws}/ns/${name}/endpoint/full/x`)))),
        );
      }
    }
    const open = attempts.filter((a) => a.socket !== undefined);
    console.log(`probe: ${open.length} of ${attempts.length} handshakes open`);
    expect(open.length).toBe(270);
    expect(attempts.filter((a) => a.socket === undefined).map((a) => `${a.status} ${a.code}`)).toEqual(
      Array(30).fill('503 TOO_MANY_SOCKETS'),
    );
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push(
        await fetch(`${daemon.url}/api/health`).then(
          (res) => String(res.status),
          (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
        ),
      );
    }
    expect(answers).toEqual(Array(6).fill('200'));
  }, 60_000);

  it.each([50, 300])(
    'with --max-connections %i, raw handshakes sent at once get 101 only up to nine tenths; health answers while they are held (issue #86)',
    async (cap) => {
      const daemon = await startDaemon({ args: ['--memory', '--max-connections', String(cap)] });
      // Set up on a dispatcher closed after: a kept-alive connection would count against the cap.
      const setup = new Agent();
      for (const name of ['raw-a', 'raw-b']) {
        const routes = await fetch(`${daemon.url}/api/endpoints/${name}/routes`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ routes: [{ answer: { websocket: {} } }] }),
          dispatcher: setup,
        } as RequestInit);
        expect(routes.status).toBeLessThan(300);
      }
      await setup.close();
      // Every connection made first, then every handshake written in one go: the daemon takes them
      // in the same few turns, the first ones while it loads `ws` (each passed the route step's check).
      const sockets = await Promise.all(
        Array.from(
          { length: cap },
          () =>
            new Promise<Socket>((resolve, reject) => {
              const socket = connectTcp(daemon.port, '127.0.0.1', () => resolve(socket));
              opened.push(socket);
              socket.once('error', reject);
            }),
        ),
      );
      const answers = sockets.map(
        (socket) =>
          new Promise<string>((resolve) => {
            let text = '';
            socket.on('data', (chunk: Buffer) => {
              text += chunk.toString('latin1');
              if (text.startsWith('HTTP/1.1 101') && text.includes('\r\n\r\n')) resolve('101');
            });
            socket.once('close', () => {
              const code = /"code":"([A-Z_]+)"/.exec(text)?.[1];
              resolve(text === '' ? 'closed' : `${text.slice(9, 12)} ${code}`);
            });
          }),
      );
      sockets.forEach((socket, i) => {
        socket.write(
          `GET /endpoint/${i % 2 === 0 ? 'raw-a' : 'raw-b'}/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n` +
            'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        );
      });
      const seen = await Promise.all(answers);
      const share = cap - cap / 10;
      console.log(`probe: cap ${cap}: ${seen.filter((one) => one === '101').length} answered 101`);
      expect(seen.filter((one) => one === '101')).toHaveLength(share);
      expect(seen.filter((one) => one !== '101')).toEqual(Array(cap / 10).fill('503 TOO_MANY_SOCKETS'));
      // Health asked five times on new connections while every accepted socket is held open.
      const probe = watch(daemon);
      await probe.answered(5);
      const report = await probe.stop();
      expect(report.failed).toBe(0);
      expect(sockets.filter((socket) => !socket.destroyed)).toHaveLength(share);
    },
    60_000,
  );

  it('S3: a client that floods pings without reading is cut off; the daemon neither grows nor stalls', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('pings', [{ answer: { websocket: {} } }]);
    const probe = watch(daemon);
    const socket = await rawSocket(daemon.port, '/endpoint/pings/unread');
    // Never reads: every pong stays in the daemon's send buffer.
    socket.pause();
    const ended = endedWithin(socket, 8000);
    const sent = await flood(socket, frame(0x9, Buffer.alloc(125, 0x70)), 8000, 300 * MB);
    const acknowledged = await write(daemon, 'written-during-pings');
    const report = await probe.stop();
    console.log(`probe: pings sent ${Math.round(sent / MB)} MB`);
    expect(await ended).toBe(true);
    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1000);
    expect(report.peakGrowthMB).toBeLessThan(60);
    expect(acknowledged).toBe(true);
    expect(await client.get('written-during-pings')).toMatchObject({ data: { kept: 'written-during-pings' } });
  }, 60_000);

  it('S3: a client that floods pings and reads the pongs is closed with 1008; health keeps answering', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('pings', [{ answer: { websocket: {} } }]);
    const probe = watch(daemon);
    const socket = await rawSocket(daemon.port, '/endpoint/pings/reads');
    let got = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      // Keep only the tail: a close frame (0x88) with its code is what is looked for.
      got = Buffer.concat([got, chunk]).subarray(-4096);
    });
    const ended = endedWithin(socket, 8000);
    await flood(socket, frame(0x9, Buffer.alloc(125, 0x70)), 8000, 300 * MB);
    const report = await probe.stop();
    expect(await ended).toBe(true);
    const close = got.lastIndexOf(0x88);
    expect(close).toBeGreaterThanOrEqual(0);
    expect(got.readUInt16BE(close + 2)).toBe(1008);
    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1000);
    expect(report.peakGrowthMB).toBeLessThan(150);
    expect(await write(daemon, 'written-after-pings')).toBe(true);
  }, 60_000);

  it('S3: unfinished messages are bounded across connections and timed out', async () => {
    const daemon = await startDaemon({
      args: ['--memory'],
      env: { MOCKPOINT_SOCKET_MESSAGE_TIMEOUT_MS: '8000' },
    });
    const client = createClient({ baseUrl: daemon.url });
    await client.setRoutes('parts', [{ answer: { websocket: {} } }]);
    const probe = watch(daemon);
    // 200 connections, each the first fragment of a text message just under 1 MiB, never finished.
    const first = frame(0x1, Buffer.alloc(MB - 1024, 0x61), false);
    const sockets: Socket[] = [];
    let ended = 0;
    for (let i = 0; i < 20; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => rawSocket(daemon.port, '/endpoint/parts/p')));
      // Ten at a time, each ten once the ten before are out to the daemon (or ended by it): the 200 MiB
      // arrive at the pace it reads them, not in one burst.
      await Promise.all(
        batch.map((socket) => {
          socket.resume();
          socket.once('close', () => ended++);
          return new Promise<void>((resolve) => {
            socket.once('close', () => resolve());
            socket.write(first, () => resolve());
          });
        }),
      );
      sockets.push(...batch);
    }
    const acknowledged = await write(daemon, 'written-during-parts');
    // The daemon holds at most 16 MiB of unfinished messages (16 of these): it has closed (1013) every
    // other one as it crossed that bound, and holds the rest, once 184 have ended. Within 7 s: the
    // 8 s message timeout, which ends them all, must not be what ends them.
    await expect.poll(() => ended, { timeout: 7000 }).toBeGreaterThanOrEqual(sockets.length - 16);
    const held = probe.growth() / MB;
    console.log(`probe: RSS growth with 200 unfinished messages ${held.toFixed(0)} MB`);
    // Each is closed within the message timeout (8 s) and its grace.
    const ends = await Promise.all(sockets.map((socket) => endedWithin(socket, 15_000)));
    const report = await probe.stop();
    expect(held).toBeLessThan(120);
    expect(ends.every(Boolean)).toBe(true);
    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1000);
    expect(acknowledged).toBe(true);
    expect(await client.get('written-during-parts')).toMatchObject({ data: { kept: 'written-during-parts' } });
  }, 60_000);
});
