// `mockpoint verify --openapi --journal --upstream` with random code points (seeded fuzz against the built daemon on
// 127.0.0.1 and a node:http upstream): recorded requests carry them in the path, query, a header's value and the
// body (sent as raw bytes); the upstream answers them in JSON keys and values, in text, under random statuses and
// content types. The command never fails to tell for want of handling them: it exits 0 or 1, its JSON report and
// its JUnit file parse, every finding has a known code, and the daemon stays healthy.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import { VERIFY_FINDING_CODES } from '@mockpoint/core';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());

const SEED = 0x5e71;
const REQUESTS = 40;
const ROUNDS = 3;

function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** Latin-1 text a header value may carry: no CR, LF or NUL. */
function headerText(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += String.fromCharCode(random() < 0.6 ? 0x20 + Math.floor(random() * 95) : 0x80 + Math.floor(random() * 0x80));
  }
  return out;
}

/** A random JSON value, keys and strings of random code points. */
function randomJson(random: () => number, depth = 0): unknown {
  const pick = random();
  if (depth > 3 || pick < 0.3) return randomText(random, Math.floor(random() * 12));
  if (pick < 0.4) return Math.floor(random() * 1e6);
  if (pick < 0.45) return random() < 0.5;
  if (pick < 0.5) return null;
  if (pick < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < 1 + Math.floor(random() * 4); i++)
    out[randomText(random, 1 + Math.floor(random() * 6))] = randomJson(random, depth + 1);
  return out;
}

function send(port: number, head: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (/^HTTP\/1\.1 \d{3}/.test(received) && received.includes('\r\n\r\n')) {
        socket.destroy();
        resolve();
      }
    });
    socket.on('error', reject);
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
}

const random = prng(SEED);
let upstream: Server;
let port: number;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    request.resume();
    const status = [200, 200, 201, 404, 500][Math.floor(random() * 5)] as number;
    if (random() < 0.7) {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(randomJson(random)));
    } else {
      const type = ['text/plain', 'application/json', 'text/html; charset=utf-8'][Math.floor(random() * 3)] as string;
      response.writeHead(status, { 'content-type': type }).end(Buffer.from(randomText(random, 30), 'utf8'));
    }
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  port = (upstream.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await removeTempDirs();
});

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Fuzz', version: '1' },
  paths: {
    '/items/{id}': {
      get: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'q', in: 'query', schema: { type: 'string', maxLength: 3 } },
          { name: 'x-fuzz', in: 'header', required: true, schema: { type: 'string', pattern: '^[a-z]*$' } },
        ],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
      post: {
        requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['a'] } } } },
        responses: { 201: { description: 'made' } },
      },
    },
  },
};

it('random code points in recorded requests and upstream answers: exit 0 or 1, the reports parse, the daemon up', async () => {
  const dir = await makeTempDir('mockpoint-verify-fuzz-');
  const daemon = await startDaemon({
    cwd: dir,
    args: ['--memory'],
    env: { MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${port}` },
  });
  const health = await watchWhileFuzzing(daemon);
  const routes = [
    { id: 'get', match: { method: 'GET', path: '/items/:id' }, answer: { data: randomJson(random) } },
    {
      id: 'post',
      match: { method: 'POST', path: '/items/:id' },
      answer: { statusCode: 201, data: randomJson(random) },
    },
    { id: 'text', match: { method: 'GET', path: '/t' }, answer: { body: randomText(random, 20) } },
  ];
  const put = await fetch(`${daemon.url}/api/endpoints/fuzz/routes`, {
    method: 'PUT',
    body: JSON.stringify({ routes }),
  });
  expect(put.status).toBe(200);
  for (let i = 0; i < REQUESTS; i++) {
    const post = random() < 0.5;
    const body = post
      ? Buffer.from(random() < 0.5 ? JSON.stringify(randomJson(random)) : randomText(random, 30), 'utf8')
      : Buffer.alloc(0);
    const head = [
      `${post ? 'POST' : 'GET'} /endpoint/fuzz/items/${percentEncoded(randomText(random, 1 + Math.floor(random() * 8)))}?q=${percentEncoded(randomText(random, 5))} HTTP/1.1`,
      'Host: fuzz.test',
      `X-Fuzz: ${headerText(random, Math.floor(random() * 20))}`,
      'Content-Type: application/json',
      `Content-Length: ${body.byteLength}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    await send(daemon.port, head, body);
  }
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(DOCUMENT));
  for (let round = 0; round < ROUNDS; round++) {
    const result = await runCli({
      args: [
        'verify',
        '--openapi',
        'openapi.json',
        '--journal',
        '--upstream',
        `http://127.0.0.1:${port}/api`,
        '--unsafe',
        '--json',
        '--junit',
        'verify.xml',
      ],
      env: { MOCKPOINT_URL: daemon.url },
      cwd: dir,
    });
    expect(result.stderr).toBe('');
    expect([0, 1]).toContain(result.code);
    const report = JSON.parse(result.stdout) as { findings: { code: string }[]; checked: Record<string, number> };
    expect(report.checked).toMatchObject({ requests: REQUESTS, replayed: 3, unreached: 0 });
    for (const finding of report.findings) expect(VERIFY_FINDING_CODES).toContain(finding.code);
    // The random ids are no integers: the journal check did read the requests.
    expect(report.findings.some((finding) => finding.code === 'REQUEST_SCHEMA_MISMATCH')).toBe(true);
    expect(XMLValidator.validate(readFileSync(join(dir, 'verify.xml'), 'utf8'))).toBe(true);
  }
  await health.check();
});
