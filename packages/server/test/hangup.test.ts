// Clients that go away and signals that stop the daemon are normal events: a
// client hanging up mid-upload records nothing, logs no stack and reports nothing
// to Sentry; SIGHUP shuts down gracefully like SIGTERM.
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';
import { type SentryCollector, startSentryCollector } from './helpers/sentry-collector.js';

let collector: SentryCollector;
beforeAll(async () => {
  assertBuilt();
  collector = await startSentryCollector();
});
afterEach(() => killAll());
afterAll(async () => {
  await collector.close();
  await removeTempDirs();
});

/**
 * Sends the head of a request that expects `100 Continue`, and once the daemon says it reads the body
 * (Node sends the 100 as it hands the request to the daemon's handler), part of the body; then hangs
 * up (RST once those bytes are out).
 */
function hangUpMidUpload(url: string, head: string, partial: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let heard = '';
    socket.on('data', (chunk: Buffer) => {
      heard += chunk.toString('latin1');
      if (!heard.includes('\r\n\r\n')) return;
      if (!heard.startsWith('HTTP/1.1 100 Continue\r\n')) {
        reject(new Error(`expected 100 Continue, got: ${heard.slice(0, 200)}`));
        return;
      }
      socket.write(partial, () => {
        socket.resetAndDestroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

/**
 * Sends the head of a plain request (no `Expect`) and part of its body in one write, and hangs up
 * (RST) once those bytes are out: the daemon meets the reset wherever it is, reading the head or
 * the body.
 */
function hangUpPlain(url: string, head: string, partial: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(head + partial, () => {
        socket.resetAndDestroy();
        resolve();
      }),
    );
    socket.on('error', reject);
  });
}

describe('a client that hangs up mid-upload', () => {
  it('on add, replace and an endpoint: nothing stored or recorded, no stack, nothing sent to Sentry', async () => {
    const daemon = await startDaemon({
      env: { MOCKPOINT_DATA_DIR: await makeTempDir(), SERVER_REPORTING_DSN: collector.dsn },
    });
    const before = collector.envelopes.length;
    const partial = '{"name":"half","data":"';
    const expect100 = 'Expect: 100-continue\r\n';
    const sized = (path: string) =>
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${expect100}Content-Length: 100000\r\n\r\n`;
    const chunked = (path: string) =>
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${expect100}Transfer-Encoding: chunked\r\n\r\n`;
    const body = { sized: partial, chunked: `${partial.length.toString(16)}\r\n${partial}` };
    for (const [kind, head] of [
      ['sized', sized],
      ['chunked', chunked],
    ] as const) {
      await hangUpMidUpload(daemon.url, head('/api/endpoint/add'), body[kind]);
      await hangUpMidUpload(daemon.url, head('/api/endpoints/half'), body[kind]);
      await hangUpMidUpload(daemon.url, head('/endpoint/hook'), body[kind]);
      // The plain upload, without Expect: the same, the reset met at any point.
      const plain = (path: string) => head(path).replace(expect100, '');
      await hangUpPlain(daemon.url, plain('/api/endpoint/add'), body[kind]);
      await hangUpPlain(daemon.url, plain('/api/endpoints/half'), body[kind]);
      await hangUpPlain(daemon.url, plain('/endpoint/hook'), body[kind]);
    }
    // Each hang-up was met (the daemon still answers on its own time).
    expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
    // The daemon serves on, and nothing was stored or recorded.
    expect((await requestJson(`${daemon.url}/api/endpoints/half`)).status).toBe(404);
    const journal = await requestJson(`${daemon.url}/api/endpoints/hook/requests`);
    expect((journal.body as { requests: unknown[] }).requests).toEqual([]);
    expect((await daemon.stop()).code).toBe(0);
    // As the README says: nothing is logged (the start-up line is on stdout).
    expect(daemon.stderr).toBe('');
    expect(collector.envelopes.length).toBe(before);
  });
});

describe('SIGHUP', () => {
  it('shuts down gracefully like SIGTERM: exit 0, and what was acknowledged is on disk', async () => {
    const dataDir = await makeTempDir();
    const daemon = await startDaemon({ env: { MOCKPOINT_DATA_DIR: dataDir } });
    expect(
      (await requestJson(`${daemon.url}/api/endpoint/add`, { method: 'PUT', body: { name: 'hup', data: 1 } })).status,
    ).toBe(201);
    const exit = await daemon.stop('SIGHUP');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(daemon.stdout).toMatch(/SIGHUP received, shutting down/);
    const again = await startDaemon({ env: { MOCKPOINT_DATA_DIR: dataDir } });
    expect((await requestJson(`${again.url}/endpoint/hup`)).body).toBe(1);
  });
});
