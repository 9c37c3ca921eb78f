// `mockpoint verify --upstream` against a real local upstream (node:http) and its OpenAPI document: each kind of drift
// planted in a mock file is found, exactly those; ignored paths are not; the fixed file passes (exit 0); a host the
// allow list does not name, or an upstream that is down, cannot tell (exit 2). Against the real daemon: the journal's
// requests fill a route's parameters, recorded secrets are not sent (only --header's), --journal finds a request
// that does not fit the document, all in one report.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

/** What the upstream received: method, path and the headers of each request. */
const received: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];

function json(status: number, value: unknown): { status: number; type: string; body: string } {
  return { status, type: 'application/json', body: JSON.stringify(value) };
}

const ANSWERS: Record<string, { status: number; type: string; body: string }> = {
  'GET /v1/pets': json(200, {
    items: [{ id: 1, name: 'Rex', tags: ['a'] }],
    total: 1,
    updatedAt: '2026-11-25T00:00:00Z',
  }),
  'GET /v1/pets/7': json(200, { id: 7, name: 'Rex', age: 3 }),
  'POST /v1/pets': json(201, { id: 8, name: 'Bo' }),
  'GET /v1/status': { status: 200, type: 'text/plain', body: 'ok' },
  'GET /v1/gone': json(404, { error: 'gone' }),
};

let upstream: Server;
let port: number;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    const answer = ANSWERS[`${request.method} ${(request.url ?? '').split('?')[0]}`] ?? json(404, {});
    response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  port = (upstream.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

/** The routes, drifted (`fixed: false`) or fitting the upstream. */
function routes(fixed: boolean): unknown[] {
  return [
    {
      id: 'list',
      match: { method: 'GET', path: '/pets' },
      answer: {
        data: fixed
          ? { items: [{ id: 2, name: 'Mo', tags: [] }], total: 5, updatedAt: 17 }
          : { items: [{ id: '2', name: 'Mo' }], total: 5, updatedAt: 17, extra: true },
      },
    },
    {
      id: 'one',
      match: { method: 'GET', path: '/pets/:id' },
      answer: { data: fixed ? { id: 1, name: 'X', age: null } : { id: 1, name: 'X' } },
    },
    { id: 'make', match: { method: 'POST', path: '/pets' }, answer: { statusCode: 201, data: { id: 1, name: 'x' } } },
    fixed
      ? { id: 'status', match: { method: 'GET', path: '/status' }, answer: { body: 'fine' } }
      : { id: 'status', match: { method: 'GET', path: '/status' }, answer: { data: { ok: true } } },
    {
      id: 'gone',
      match: { method: 'GET', path: '/gone' },
      answer: fixed ? { statusCode: 404, data: { error: 'x' } } : { data: {} },
    },
  ];
}

const HAR = (base: string) => ({
  log: {
    version: '1.2',
    creator: { name: 't', version: '1' },
    entries: [
      {
        request: {
          method: 'GET',
          url: `${base}/v1/pets/7`,
          headers: [
            { name: 'Authorization', value: 'Bearer recorded-secret' },
            { name: 'X-Api-Key', value: 'k' },
            { name: 'Accept', value: 'application/json' },
          ],
        },
      },
    ],
  },
});

function mockFile(dir: string, fixed: boolean): string {
  const file = join(dir, fixed ? 'fixed.json' : 'drifted.json');
  writeFileSync(file, JSON.stringify({ version: 1, endpoints: [{ name: 'pets', routes: routes(fixed) }] }));
  return file;
}

type Report = {
  ok: boolean;
  findings: {
    code: string;
    path: string;
    route?: { id: string };
    entry?: { id: number };
    expected: string;
    found: string;
  }[];
  checked: Record<string, number>;
  notes: { note: string }[];
};

it('finds exactly the planted drifts of a mock file against the live API; the fixed file passes; exit 0/1/2', async () => {
  const dir = await makeTempDir('mockpoint-verify-live-');
  const base = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, 'pets.har'), JSON.stringify(HAR(base)));
  const env = { MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${port}` };
  const args = (file: string) => [
    'verify',
    '--config',
    file,
    '--upstream',
    `${base}/v1`,
    '--har',
    'pets.har',
    '--unsafe',
    '--ignore',
    'body.updatedAt',
    '--json',
  ];
  received.length = 0;
  const drifted = await runCli({ args: args(mockFile(dir, false)), env, cwd: dir });
  expect(drifted.stderr).toBe('');
  expect(drifted.code).toBe(1);
  const report = JSON.parse(drifted.stdout) as Report;
  expect(report.findings.map((f) => [f.route?.id, f.code, f.path, f.expected, f.found])).toEqual([
    ['list', 'SHAPE_TYPE_CHANGED', 'body.items.*.id', 'number', 'string'],
    ['list', 'SHAPE_MISSING_FIELD', 'body.items.*.tags', 'array', 'absent'],
    ['list', 'SHAPE_EXTRA_FIELD', 'body.extra', 'absent', 'boolean'],
    ['one', 'SHAPE_MISSING_FIELD', 'body.age', 'number', 'absent'],
    ['status', 'CONTENT_TYPE_DIFFERS', 'headers.content-type', '"text/plain"', '"application/json"'],
    ['gone', 'STATUS_DIFFERS', 'status', '404', '200'],
  ]);
  expect(report.checked).toMatchObject({ endpoints: 1, routes: 5, replayed: 5, unreached: 0 });
  // The HAR's credentials never left; its other headers did.
  const one = received.find((r) => r.url === '/v1/pets/7');
  expect(one?.headers.authorization).toBeUndefined();
  expect(one?.headers['x-api-key']).toBeUndefined();
  expect(one?.headers.accept).toBe('application/json');

  const text = await runCli({ args: args(mockFile(dir, false)).filter((a) => a !== '--json'), env, cwd: dir });
  expect(text.code).toBe(1);
  expect(text.stdout).toContain(`against ${base}/v1 (5 routes replayed): 6 findings`);
  expect(text.stdout).toContain('STATUS_DIFFERS at status: expected 404; found 200');

  const fixed = await runCli({ args: args(mockFile(dir, true)), env, cwd: dir });
  expect(fixed.stderr).toBe('');
  expect(JSON.parse(fixed.stdout).findings).toEqual([]);
  expect(fixed.code).toBe(0);

  // Without the ignore, the retyped volatile field is found.
  const unignored = await runCli({
    args: args(mockFile(dir, true)).filter((a) => a !== '--ignore' && a !== 'body.updatedAt'),
    env,
    cwd: dir,
  });
  expect(unignored.code).toBe(1);
  expect((JSON.parse(unignored.stdout) as Report).findings.map((f) => [f.code, f.path])).toEqual([
    ['SHAPE_TYPE_CHANGED', 'body.updatedAt'],
  ]);

  // Not allowed: could not tell.
  const refused = await runCli({ args: args(mockFile(dir, true)), env: {}, cwd: dir });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('MOCKPOINT_PROXY_ALLOW_HOSTS');

  // The upstream down: every route sent is unreached, exit 2, each said in a note.
  const down = createServer();
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  const downPort = (down.address() as AddressInfo).port;
  await new Promise<void>((resolve) => down.close(() => resolve()));
  const gone = await runCli({
    args: [
      'verify',
      '--config',
      mockFile(dir, true),
      '--upstream',
      `http://127.0.0.1:${downPort}`,
      '--json',
      '--timeout',
      '2000',
    ],
    env: { MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${downPort}` },
    cwd: dir,
  });
  expect(gone.code).toBe(2);
  const goneReport = JSON.parse(gone.stdout) as Report;
  expect(goneReport.checked.unreached).toBe(3);
  expect(goneReport.notes.some((n) => n.note.includes('ECONNREFUSED'))).toBe(true);
  expect(goneReport.notes.some((n) => n.note.includes('path has parameters'))).toBe(true);
  // Without --unsafe, the POST route is not sent.
  expect(goneReport.notes.some((n) => n.note.includes('POST may change the live API'))).toBe(true);
});

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'a pet', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
};

it('against the daemon: the journal fills parameters, recorded secrets stay, --header sends one, --journal finds a misfit', async () => {
  const dir = await makeTempDir('mockpoint-verify-live-daemon-');
  const daemon = await startDaemon({
    cwd: dir,
    args: ['--memory'],
    env: { MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${port}` },
  });
  const put = await fetch(`${daemon.url}/api/endpoints/pets/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [{ id: 'one', match: { method: 'GET', path: '/pets/:id' }, answer: { data: { id: 1, name: 'X' } } }],
    }),
  });
  expect(put.status).toBe(200);
  await fetch(`${daemon.url}/endpoint/pets/pets/seven`, {
    headers: { authorization: 'Bearer recorded', cookie: 'a=b' },
  });
  await fetch(`${daemon.url}/endpoint/pets/pets/7`, { headers: { authorization: 'Bearer recorded', 'x-trace': 't1' } });
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(DOCUMENT));
  received.length = 0;
  const result = await runCli({
    args: [
      'verify',
      '--openapi',
      'openapi.json',
      '--journal',
      '--upstream',
      `http://127.0.0.1:${port}/v1`,
      '--header',
      'authorization: Bearer given',
      '--json',
    ],
    env: { MOCKPOINT_URL: daemon.url },
    cwd: dir,
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(1);
  const report = JSON.parse(result.stdout) as Report;
  expect(report.findings.map((f) => [f.code, f.path, f.entry?.id])).toEqual([
    ['REQUEST_SCHEMA_MISMATCH', 'params/id', 1],
    ['SHAPE_MISSING_FIELD', 'body.age', undefined],
  ]);
  expect(report.checked).toMatchObject({ requests: 2, replayed: 1, unreached: 0 });
  expect(received.map((r) => r.url)).toEqual(['/v1/pets/7']);
  expect(received[0]?.headers.authorization).toBe('Bearer given');
  expect(received[0]?.headers.cookie).toBeUndefined();
  expect(received[0]?.headers['x-trace']).toBe('t1');

  // The same as text and JUnit XML: the recorded request named, under its own heading and test case.
  const text = await runCli({
    args: ['verify', '--openapi', 'openapi.json', '--journal', '--junit', 'verify.xml'],
    env: { MOCKPOINT_URL: daemon.url },
    cwd: dir,
  });
  expect(text.code).toBe(1);
  expect(text.stdout).toContain('(2 recorded requests checked): 1 finding');
  expect(text.stdout).toMatch(
    /\n {2}GET \/pets\/seven {2}\(journal #1 at [^,]+, route one, #0\)\n {4}REQUEST_SCHEMA_MISMATCH at params\/id: /,
  );
  const junit = readFileSync(join(dir, 'verify.xml'), 'utf8');
  expect(junit).toContain('<testsuite name="pets" tests="2" failures="1" errors="0">');
  expect(junit).toMatch(/<testcase classname="pets" name="journal #1 GET \/pets\/seven \([^"]+\)">/);
});
