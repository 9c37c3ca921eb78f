// `mockpoint tail` as a real process against a real daemon: lines, NDJSON,
// `--forward` to a local node:http server that checks the exact bytes, a
// forwarding failure that does not stop it, reconnection after the daemon
// restarts, and Ctrl-C (SIGINT) ending it with exit code 0.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type CliProcess, type Daemon, killAll, removeTempDirs, spawnCli, startDaemon } from './helpers/daemon.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

/** Resolves once `read()` (the process's output so far) satisfies `check`. */
async function output(
  proc: CliProcess,
  stream: 'stdout' | 'stderr',
  check: (text: string) => boolean,
): Promise<string> {
  // Generous: a tail process start-up and its reconnect share 2 cores with the rest of the suite in CI.
  await expect.poll(() => check(proc[stream]), { timeout: 25_000, interval: 20 }).toBe(true);
  return proc[stream];
}

async function send(daemon: Daemon, path: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(`${daemon.url}${path}`, init);
  await response.arrayBuffer();
  return response.status;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A local app that records what reaches it and answers 201. */
async function localApp(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(201).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received };
}

describe('mockpoint tail', () => {
  it('prints one line per request and --forward re-sends each with its exact bytes; a failed forward is reported and the tail goes on; SIGINT exits 0', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const local = await localApp();
    const tail = await spawnCli({ args: ['tail', 'hook', '--forward', local.url, '--url', daemon.url] });
    await output(tail, 'stderr', (text) => text.includes('watching "hook"'));

    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    expect(
      await send(daemon, '/endpoint/hook?event=paid&tag=a&tag=b', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-signature': 'v1,abc', connection: 'keep-alive' },
        body: binary,
      }),
    ).toBe(404);
    await expect.poll(() => local.received.length, { timeout: 10_000 }).toBe(1);
    const [first] = local.received as [Received];
    expect(first.method).toBe('POST');
    expect(first.url).toBe('/webhooks?event=paid&tag=a&tag=b');
    expect(first.body.equals(binary)).toBe(true);
    expect(first.headers['x-signature']).toBe('v1,abc');
    expect(first.headers['content-type']).toBe('application/octet-stream');
    expect(first.headers['content-length']).toBe('256');
    // Host is the local app's own, not the daemon's.
    expect(first.headers.host).toBe(new URL(local.url).host);

    const text = '{"amount": 12345678901234567890, "note": "héllo\\n"}';
    await send(daemon, '/endpoint/hook', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    await send(daemon, '/endpoint/other', { method: 'POST', body: 'not watched' });
    await expect.poll(() => local.received.length, { timeout: 10_000 }).toBe(2);
    expect(local.received[1]?.method).toBe('PUT');
    expect(local.received[1]?.url).toBe('/webhooks');
    expect(local.received[1]?.body.toString('utf8')).toBe(text);

    const lines = (await output(tail, 'stdout', (out) => (out.match(/-> /g) ?? []).length >= 2)).trim().split('\n');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}hook {2}POST \/\?event=paid&tag=a&tag=b {2}404 {2}256 B$/);
    expect(lines[1]).toMatch(new RegExp(`^ {2}-> POST ${local.url}\\?event=paid&tag=a&tag=b: 201 \\(\\d+ ms\\)$`));
    expect(lines[2]).toMatch(new RegExp(` {2}hook {2}PUT / {2}404 {2}${Buffer.byteLength(text)} B$`));
    expect(lines.join('\n')).not.toContain('other');

    // The local app goes away: the failure is reported, and the next request is still shown.
    await new Promise<void>((resolve) => local.server.close(() => resolve()));
    local.server.closeAllConnections();
    await send(daemon, '/endpoint/hook', { method: 'POST', body: 'lost' });
    await output(tail, 'stderr', (err) => /forwarding request \d+ failed: .*ECONNREFUSED/.test(err));
    await send(daemon, '/endpoint/hook', { method: 'DELETE' });
    await output(tail, 'stdout', (out) => / {2}hook {2}DELETE \/ {2}404 {2}0 B$/m.test(out));

    tail.child.kill('SIGINT');
    expect(await tail.exited).toEqual({ code: 0, signal: null });
  });

  it('--json prints each request as one line of JSON; --match filters on the daemon', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const tail = await spawnCli({ args: ['tail', '--json', '--match', '{"method":"POST"}', '--url', daemon.url] });
    await output(tail, 'stderr', (text) => text.includes('watching every name'));
    await send(daemon, '/endpoint/a', { method: 'GET' });
    await send(daemon, '/endpoint/b', { method: 'POST', body: '{"n":1}' });
    const out = await output(tail, 'stdout', (text) => text.endsWith('\n'));
    const entries = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: 'b', method: 'POST', body: '{"n":1}', json: { n: 1 }, statusCode: 404 });
    tail.child.kill('SIGINT');
    expect((await tail.exited).code).toBe(0);
  });

  it('reconnects by itself after the daemon restarts, and says the journal started anew', async () => {
    const first = await startDaemon({ args: ['--memory'] });
    const tail = await spawnCli({ args: ['tail', 'hook', '--url', first.url] });
    await output(tail, 'stderr', (text) => text.includes('watching'));
    await send(first, '/endpoint/hook', { method: 'POST', body: 'before' });
    await output(tail, 'stdout', (out) => out.includes('POST /'));
    await first.stop('SIGTERM');
    await output(tail, 'stderr', (text) => text.includes('reconnecting'));
    const second = await startDaemon({ args: ['--memory', '--port', String(first.port)] });
    await output(tail, 'stderr', (text) => text.includes('the journal started anew'));
    await send(second, '/endpoint/hook', { method: 'PATCH', body: 'after' });
    await output(tail, 'stdout', (out) => out.includes('PATCH /'));
    tail.child.kill('SIGINT');
    expect((await tail.exited).code).toBe(0);
  });

  it('refuses a bad argument with one line and exit code 2', async () => {
    const tail = await spawnCli({ args: ['tail', '--match', '{nope'] });
    expect((await tail.exited).code).toBe(2);
    expect(tail.stderr.trim()).toBe(
      `mockpoint tail: error: --match must be JSON, e.g. '{"method":"POST"}'; received {nope`,
    );
  });
});
