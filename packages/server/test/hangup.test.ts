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

/** Sends the head and part of a body on a raw socket, then hangs up (RST after the bytes are read). */
function hangUpMidUpload(url: string, head: string, partial: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head + partial, () => {
        // The pause is the behaviour: a hang-up once the daemon is reading the body (nothing outside says when).
        setTimeout(() => {
          socket.resetAndDestroy();
          resolve();
        }, 200);
      });
    });
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
    const sized = (path: string) => `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n`;
    const chunked = (path: string) =>
      `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n${partial.length.toString(16)}\r\n`;
    for (const head of [sized, chunked]) {
      await hangUpMidUpload(daemon.url, head('/api/endpoint/add'), partial);
      await hangUpMidUpload(daemon.url, head('/api/endpoints/half'), partial);
      await hangUpMidUpload(daemon.url, head('/endpoint/hook'), partial);
    }
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
