// `mockpoint record` as a real process against a real daemon and a local node:http upstream (no
// internet): the round trip record → file → a fresh daemon with --config → the same answers byte
// for byte, secrets left out of the file and the replay, and replay-only failing closed without the network.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, spawnCli, startDaemon } from './helpers/daemon.js';

const servers: Server[] = [];

afterEach(async () => {
  await killAll();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
afterAll(async () => {
  await removeTempDirs();
});

const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const STALE_DATE = 'Tue, 01 Jan 2002 00:00:00 GMT';

/** A local API: JSON (pretty and minified), an echo of the body, bytes, a cookie; counts what reaches it. */
async function localApi(): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push(`${req.method} ${req.url}`);
      if (req.url === '/v1/users/7') {
        // The upstream's moment (an old Date, a cache's Age): a replay must not send it again.
        res.writeHead(200, {
          'content-type': 'application/json',
          'set-cookie': 'session=live-secret',
          date: STALE_DATE,
          age: '3600',
        });
        res.end('{"id":12345678901234567890,"name":"Ada","balance":1.50}');
      } else if (req.url === '/v1/pretty') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{\n  "spaced": -0\n}\n');
      } else if (req.url === '/v1/orders?page=2') {
        res.writeHead(201, { 'content-type': 'text/plain; charset=utf-8', 'x-api-key': 'upstream-key' });
        res.end(`made ${Buffer.concat(chunks).toString()}`);
      } else if (req.url === '/v1/upload' && Buffer.concat(chunks).equals(BINARY)) {
        res.writeHead(201, { 'content-type': 'text/plain' });
        res.end('stored');
      } else if (req.url === '/v1/blob') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(BINARY);
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"message":"Not Found"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits };
}

interface Answer {
  status: number;
  type: string | null;
  body: Buffer;
  headers: Headers;
}

async function ask(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}/endpoint/api${path}`, init);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
    headers: response.headers,
  };
}

const REQUESTS: [string, RequestInit][] = [
  ['/users/7', { headers: { authorization: 'Bearer my-token' } }],
  ['/pretty', {}],
  ['/orders?page=2', { method: 'POST', body: '{"sku":"a-1"}' }],
  ['/blob', {}],
  ['/missing', {}],
  // A body that is not UTF-8: recorded, then replayed by its bytes.
  ['/upload', { method: 'POST', body: BINARY }],
];

it('records through a daemon, writes the file on Ctrl-C, and a fresh daemon replays it byte for byte', async () => {
  const upstream = await localApi();
  const recording = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_PROXY_ALLOW_HOSTS: '127.0.0.1' } });
  const dir = await makeTempDir('mockpoint-record-');
  const file = join(dir, 'mockpoint.json');
  const recorder = await spawnCli({
    args: [
      'record',
      '--upstream',
      upstream.url,
      '--name',
      'api',
      '--out',
      file,
      '--url',
      recording.url,
      '--redact',
      'x-api-key',
    ],
  });
  await expect.poll(() => recorder.stderr, { timeout: 10_000 }).toContain('recording');

  const live: Answer[] = [];
  for (const [path, init] of REQUESTS) live.push(await ask(recording.url, path, init));
  expect(live.map((answer) => answer.status)).toEqual([200, 200, 201, 200, 404, 201]);
  expect(live[0]?.headers.get('date')).toBe(STALE_DATE);
  expect(live[3]?.body.equals(BINARY)).toBe(true);
  // Each request is printed as the upstream answers it, and kept as a route.
  await expect.poll(() => recorder.stderr, { timeout: 10_000 }).toContain('GET /missing -> 404');
  expect(recorder.stderr).toContain('POST /orders?page=2 -> 201');
  await expect
    .poll(async () => {
      const page = (await (await fetch(`${recording.url}/api/endpoints/api/routes`)).json()) as { routes: unknown[] };
      return page.routes.length;
    })
    .toBe(REQUESTS.length + 1);

  recorder.child.kill('SIGINT');
  expect((await recorder.exited).code).toBe(0);
  expect(recorder.stderr).toContain(`wrote ${file}`);

  // Replay-only on the recording daemon: an unrecorded request fails closed, the upstream untouched.
  const hitsBefore = upstream.hits.length;
  const miss = await ask(recording.url, '/users/8');
  expect(miss.status).toBe(404);
  expect((JSON.parse(miss.body.toString()) as { error: { code: string } }).error.code).toBe('NO_ROUTE_MATCHED');
  expect(upstream.hits).toHaveLength(hitsBefore);

  // The file holds no secret.
  const text = readFileSync(file, 'utf8');
  for (const secret of ['live-secret', 'my-token', 'upstream-key']) expect(text).not.toContain(secret);
  // Left out, not written as a placeholder a replay would send.
  expect(text).not.toMatch(/redacted|set-cookie|x-api-key/i);
  expect(text).not.toContain('"proxy"');
  // Nor the upstream's moment: the replay's Date is its own.
  expect(text).not.toMatch(/2002|"age"|"date"/i);

  // A fresh daemon that may not proxy at all answers the same bytes from the file alone.
  const replay = await startDaemon({ args: ['--memory', '--config', file] });
  for (const [index, [path, init]] of REQUESTS.entries()) {
    const again = await ask(replay.url, path, init);
    expect(again.status, path).toBe(live[index]?.status);
    expect(again.type, path).toBe(live[index]?.type);
    expect(again.body.equals(live[index]?.body as Buffer), path).toBe(true);
    // A redacted header is left out of the replay, never sent as a literal `<redacted>`.
    expect(
      [...again.headers].filter(([, value]) => value.includes('redacted')),
      path,
    ).toEqual([]);
  }
  const before = Date.now();
  const fresh = (await ask(replay.url, '/users/7')).headers;
  expect(fresh.get('age')).toBeNull();
  // HTTP dates count whole seconds: the replay's is the moment it answered, not 2002's. Bun's
  // server refreshes the Date it writes once a second, so it may read a second behind the clock.
  expect(Date.parse(fresh.get('date') ?? '')).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
  expect(live[0]?.headers.getSetCookie()).toEqual(['session=live-secret']);
  expect((await ask(replay.url, '/users/7')).headers.getSetCookie()).toEqual([]);
  expect(upstream.hits).toHaveLength(hitsBefore);
  expect((await ask(replay.url, '/orders?page=2', { method: 'POST', body: '{"sku":"b-2"}' })).status).toBe(404);
});

it('stops with one line when the daemon does not allow the upstream', async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const recorder = await spawnCli({
    args: ['record', '--upstream', 'http://127.0.0.1:9/', '--name', 'api', '--url', daemon.url],
  });
  const exit = await recorder.exited;
  expect(exit.code).toBe(1);
  expect(recorder.stderr).toMatch(/^mockpoint record: error: .*MOCKPOINT_PROXY_ALLOW_HOSTS.*\n$/);
});
