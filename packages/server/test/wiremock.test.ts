// WireMock both ways against a real WireMock (the jar of the `wiremock` npm package, one JVM for
// this file): mappings recorded by WireMock's own recorder, and mappings written by hand, are
// imported (`mockpoint import`), served by the real daemon, and the same requests sent to WireMock
// and to mockpoint get the same status, the headers the mappings set, and the same body bytes.
// `mockpoint export --to wiremock` loaded into WireMock answers as mockpoint did.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addEndpoint,
  killAll,
  makeTempDir,
  removeTempDirs,
  requestJson,
  runCli,
  startDaemon,
} from './helpers/daemon.js';
import { type PeerApi, startPeerApi, USER } from './helpers/peer-api.js';
import { startWireMock, type TestWireMock } from './helpers/wiremock.js';

let wiremock: TestWireMock;
beforeAll(async () => {
  wiremock = await startWireMock();
}, 120_000);
afterAll(async () => {
  await killAll();
  await wiremock?.dispose();
  await removeTempDirs();
});

/** The peer WireMock records: a small API, with a job whose state moves on each read. */
function startPeer(): Promise<PeerApi> {
  return startPeerApi((request, response, nextJobState) => {
    if (request.url === '/api/users/1') {
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
      response.end(USER);
    } else if (request.url === '/api/jobs/7') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"id":7,"state":"${nextJobState()}"}`);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no');
    }
  });
}

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What the recorder records through WireMock, and what is then played back to both. */
const RECORDED: readonly Sent[] = [
  { path: '/api/users/1' },
  { path: '/api/logo.bin' },
  { method: 'POST', path: '/api/users', headers: { 'content-type': 'text/plain' }, body: 'Ada' },
  { path: '/api/jobs/7' },
  { path: '/api/jobs/7' },
  { path: '/api/jobs/7' },
  { path: '/api/jobs/7' },
];

interface Seen {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

/** Sends `request` to `base` and keeps the status, the named headers and the body bytes (hex). */
async function send(base: string, request: Sent, headerNames: readonly string[]): Promise<Seen> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method ?? 'GET',
    ...(request.headers && { headers: request.headers }),
    ...(request.body !== undefined && { body: request.body }),
  });
  const headers: Record<string, string | null> = {};
  for (const name of headerNames) headers[name] = response.headers.get(name);
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('hex') };
}

/** The same requests, in order, to WireMock and to mockpoint's endpoint: what each answered. */
async function both(
  mockpoint: string,
  requests: readonly Sent[],
  headerNames: readonly string[],
): Promise<{ wiremock: Seen[]; mockpoint: Seen[] }> {
  const fromWireMock: Seen[] = [];
  const fromMockpoint: Seen[] = [];
  for (const request of requests) fromWireMock.push(await send(wiremock.url, request, headerNames));
  for (const request of requests) fromMockpoint.push(await send(mockpoint, request, headerNames));
  return { wiremock: fromWireMock, mockpoint: fromMockpoint };
}

describe('mockpoint import from WireMock', () => {
  it("imports what WireMock's recorder wrote (mappings/ and __files/, scenarios) and answers as WireMock does", async () => {
    const peer = await startPeer();
    try {
      await wiremock.admin('DELETE', '/mappings');
      await wiremock.admin('POST', '/recordings/start', { targetBaseUrl: peer.url, persist: true });
      for (const request of RECORDED) await send(wiremock.url, request, []);
      await wiremock.admin('POST', '/recordings/stop');
    } finally {
      peer.server.close();
    }
    const dir = await makeTempDir('mockpoint-wiremock-import-');
    const imported = await runCli({
      cwd: dir,
      args: ['import', wiremock.root, '--name', 'api', '--out', 'mockpoint.json', '--json'],
    });
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result.kind).toBe('wiremock');
    expect(result.leftOut).toEqual([]);
    expect(imported.stderr).toMatch(/mockpoint import: \d+ of \d+ mapping\(s\) as routes of endpoint api, scenarios /);
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mockpoint.json'] });
    // Playback: WireMock from the same mappings it recorded, every scenario at its start.
    await wiremock.admin('POST', '/scenarios/reset');
    const seen = await both(`${daemon.url}/endpoint/api`, RECORDED, ['content-type', 'location', 'x-request-id']);
    expect(seen.mockpoint).toEqual(seen.wiremock);
    expect(Buffer.from(seen.mockpoint[0]?.body ?? '', 'hex').toString('utf8')).toBe(USER);
    expect(seen.mockpoint.slice(3).map((s) => JSON.parse(Buffer.from(s.body, 'hex').toString()).state)).toEqual([
      'queued',
      'running',
      'done',
      'done',
    ]);
  });

  const MAPPINGS = {
    mappings: [
      {
        name: 'user by id',
        request: { method: 'GET', urlPathPattern: '/users/[^/]+' },
        response: { status: 200, headers: { 'Content-Type': 'application/json' }, jsonBody: { any: true } },
      },
      {
        name: 'user 1, higher priority',
        priority: 1,
        request: { method: 'GET', urlPath: '/users/1' },
        response: {
          status: 200,
          headers: { 'Content-Type': 'application/json', 'X-Big': ['a', 'b'] },
          jsonBody: { id: 7, price: 1.5 },
        },
      },
      {
        request: {
          method: 'GET',
          urlPath: '/search',
          queryParameters: { q: { equalTo: 'zoë' } },
          headers: { Accept: { equalTo: 'text/csv' } },
        },
        response: { status: 200, headers: { 'Content-Type': 'text/csv' }, body: 'a,b\n1,2\n' },
      },
      {
        request: {
          method: 'POST',
          url: '/orders',
          bodyPatterns: [{ equalToJson: { item: 'book' }, ignoreExtraElements: true }],
        },
        response: { status: 201, headers: { 'Content-Type': 'application/json' }, jsonBody: { ok: 1 } },
      },
      {
        request: {
          method: 'POST',
          url: '/orders',
          bodyPatterns: [{ matchesJsonPath: { expression: '$.item', equalTo: 'pen' } }],
        },
        response: { status: 202, base64Body: 'iVBORwD//gE=', headers: { 'Content-Type': 'image/png' } },
      },
      {
        request: { method: 'POST', url: '/login', bodyPatterns: [{ equalTo: 'user=ada' }] },
        response: { status: 204, headers: { 'Set-Cookie': 'sid=1; Path=/' } },
      },
      {
        scenarioName: 'To do list',
        requiredScenarioState: 'Started',
        request: { method: 'GET', url: '/todo/items' },
        response: { status: 200, body: '["buy milk"]', headers: { 'Content-Type': 'application/json' } },
      },
      {
        scenarioName: 'To do list',
        requiredScenarioState: 'Started',
        newScenarioState: 'Cancel newspaper item added',
        request: { method: 'POST', url: '/todo/items', bodyPatterns: [{ contains: 'Cancel newspaper' }] },
        response: { status: 201 },
      },
      {
        scenarioName: 'To do list',
        requiredScenarioState: 'Cancel newspaper item added',
        request: { method: 'GET', url: '/todo/items' },
        response: {
          status: 200,
          body: '["buy milk","Cancel newspaper subscription"]',
          headers: { 'Content-Type': 'application/json' },
        },
      },
      {
        request: { method: 'GET', url: '/slow' },
        response: { status: 200, body: 'late', fixedDelayMilliseconds: 50 },
      },
      {
        request: { method: 'GET', url: '/reset' },
        response: { fault: 'CONNECTION_RESET_BY_PEER' },
      },
      {
        name: 'alternation',
        request: { method: 'GET', urlPattern: '/(a|b)/.*' },
        response: { status: 200, body: 'ab' },
      },
      {
        name: 'templated',
        request: { method: 'GET', url: '/hello' },
        response: { status: 200, body: 'hi {{request.path.[0]}}', transformers: ['response-template'] },
      },
      {
        name: 'proxied',
        request: { method: 'GET', urlPathPattern: '/upstream/.*' },
        response: { proxyBaseUrl: 'http://example.com' },
      },
    ],
  };

  it('imports hand-written mappings (patterns, priority, query, headers, JSON bodies, scenarios, faults) and lists what it leaves out', async () => {
    await wiremock.admin('DELETE', '/mappings');
    // A big integer in a jsonBody: both serve it as written.
    const text = JSON.stringify(MAPPINGS, null, 2).replace('"id": 7,', '"id": 12345678901234567890,');
    await wiremock.admin('POST', '/mappings/import', text);
    await wiremock.admin('POST', '/scenarios/reset');
    const dir = await makeTempDir('mockpoint-wiremock-import-');
    writeFileSync(join(dir, 'stubs.json'), text);
    const imported = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'wm', '--out', 'mock.json'] });
    expect(imported.code, imported.stderr).toBe(0);
    const lines = imported.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^mockpoint import: left out mapping "templated" .*: response.transformers response-template: Handlebars helpers \(request.path\) are not mockpoint's templates/,
      ),
      expect.stringMatching(
        /^mockpoint import: left out mapping "proxied" .*: a proxy answer \(proxyBaseUrl http:\/\/example.com\)/,
      ),
      'mockpoint import: 13 of 14 mapping(s) as routes of endpoint wm, scenarios To-do-list',
    ]);
    const strict = await runCli({
      cwd: dir,
      args: ['import', 'stubs.json', '--name', 'wm', '--strict', '--out', 'x.json'],
    });
    expect(strict.code).toBe(1);
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    const requests: Sent[] = [
      { path: '/users/1' },
      { path: '/users/2' },
      { path: '/users/2/x' },
      { path: '/search?q=zo%C3%AB', headers: { accept: 'text/csv' } },
      { path: '/search?q=zo%C3%AB', headers: { accept: 'text/html' } },
      { method: 'POST', path: '/orders', body: '{"item":"book","count":2}' },
      { method: 'POST', path: '/orders', body: '{"item":"pen"}' },
      { method: 'POST', path: '/orders', body: '{"item":"cup"}' },
      { method: 'POST', path: '/login', body: 'user=ada' },
      { method: 'POST', path: '/login', body: 'user=bob' },
      { path: '/todo/items' },
      { method: 'POST', path: '/todo/items', body: 'Cancel newspaper subscription' },
      { path: '/todo/items' },
      { path: '/slow' },
      { path: '/a/x' },
      { path: '/c/x' },
    ];
    const seen = await both(`${daemon.url}/endpoint/wm`, requests, ['content-type', 'x-big', 'set-cookie']);
    // Where neither matches, WireMock answers its 404 page and mockpoint its NO_ROUTE_MATCHED: the status is the same.
    const misses = [2, 4, 7, 9, 15];
    for (const index of misses) {
      expect(seen.mockpoint[index]?.status).toBe(404);
      expect(seen.wiremock[index]?.status).toBe(404);
    }
    const hits = (list: Seen[]) => list.filter((_, index) => !misses.includes(index));
    // Without a Content-Type in the mapping, WireMock sends none and mockpoint its default: compared where set.
    const typed = (list: Seen[]) =>
      hits(list).map((s) => ({ ...s, headers: { ...s.headers, 'content-type': s.headers['content-type'] ?? 'none' } }));
    const noneToMine = (list: Seen[], mine: Seen[]) =>
      typed(list).map((s, i) =>
        s.headers['content-type'] === 'none'
          ? { ...s, headers: { ...s.headers, 'content-type': typed(mine)[i]?.headers['content-type'] ?? null } }
          : s,
      );
    expect(typed(seen.mockpoint)).toEqual(noneToMine(seen.wiremock, seen.mockpoint));
    expect(Buffer.from(seen.mockpoint[0]?.body ?? '', 'hex').toString()).toBe(
      '{"id":12345678901234567890,"price":1.5}',
    );
    // The fault: both break the connection.
    await expect(fetch(`${wiremock.url}/reset`)).rejects.toThrow();
    await expect(fetch(`${daemon.url}/endpoint/wm/reset`)).rejects.toThrow();
  });
});

/**
 * Matchers WireMock refuses requests by (issue #62): each one either becomes an equivalent match or
 * its mapping is left out, named; never a broader match. A catch-all stub (418) answers the rest on both.
 */
const NARROW = {
  mappings: [
    { request: { method: 'ANY', urlPattern: '.*' }, priority: 100, response: { status: 418, body: 'fallback' } },
    {
      request: { method: 'GET', urlPath: '/traced', headers: { 'X-Trace': { contains: 'abc' } } },
      response: { status: 200, body: 'traced' },
    },
    { priority: 10, request: { method: 'GET', urlPath: '/traced' }, response: { status: 401, body: 'no trace' } },
    {
      request: {
        method: 'GET',
        urlPath: '/lang',
        headers: { 'Accept-Language': { equalTo: 'EN-us', caseInsensitive: true } },
      },
      response: { status: 200, body: 'en' },
    },
    {
      request: { method: 'GET', urlPath: '/session', cookies: { session: { equalTo: 'abc' } } },
      response: { status: 200, body: 'session' },
    },
    {
      request: { method: 'GET', urlPath: '/prefs', cookies: { theme: { contains: 'dark' } } },
      response: { status: 200, body: 'dark' },
    },
    {
      request: {
        method: 'POST',
        urlPath: '/orders',
        bodyPatterns: [{ equalToJson: { customer: { id: 42 }, item: 'book' }, ignoreExtraElements: true }],
      },
      response: { status: 201, body: 'order' },
    },
    {
      request: { method: 'POST', urlPath: '/notes', bodyPatterns: [{ contains: 'urgent' }] },
      response: { status: 201, body: 'noted' },
    },
    {
      request: {
        method: 'POST',
        urlPath: '/gifts',
        bodyPatterns: [{ matchesJsonPath: { expression: '$.kind', equalTo: 'gift' } }],
      },
      response: { status: 200, body: 'gift' },
    },
    {
      request: { method: 'GET', urlPath: '/search', queryParameters: { q: { contains: 'shoe' } } },
      response: { status: 200, body: 'shoes' },
    },
    // Whole-body JSON equality, a JSONPath's presence, an absent header: equal conditions (issue #71).
    {
      name: 'exact json',
      request: { method: 'POST', urlPath: '/exact', bodyPatterns: [{ equalToJson: { a: 1 } }] },
      response: { status: 200, body: 'exact' },
    },
    {
      name: 'json path present',
      request: { method: 'POST', urlPath: '/paths', bodyPatterns: [{ matchesJsonPath: '$.customer.id' }] },
      response: { status: 200, body: 'path' },
    },
    {
      name: 'no debug header',
      request: { method: 'GET', urlPath: '/debug', headers: { 'X-Debug': { absent: true } } },
      response: { status: 200, body: 'debug' },
    },
    // Left out, named: no equivalent that is not broader.
    {
      name: 'any order',
      request: {
        method: 'POST',
        urlPath: '/tags',
        bodyPatterns: [{ equalToJson: { tags: ['a', 'b'] }, ignoreArrayOrder: true, ignoreExtraElements: true }],
      },
      response: { status: 200, body: 'tags' },
    },
    // `url` is the whole URL as sent: another query, or none, is another request.
    { request: { method: 'GET', url: '/exact-url?a=1' }, response: { status: 200, body: 'url' } },
  ],
};

const JSON_TYPE = { 'content-type': 'application/json' };
/** The requests, and which of them WireMock answers from a mapping the import leaves out. */
const NARROW_REQUESTS: (Sent & { leftOut?: true })[] = [
  { path: '/traced', headers: { 'x-trace': 'id-abc-1' } },
  { path: '/traced', headers: { 'x-trace': 'xyz' } },
  { path: '/traced' },
  { path: '/lang', headers: { 'accept-language': 'en-US' } },
  { path: '/lang', headers: { 'accept-language': 'EN-US' } },
  { path: '/lang', headers: { 'accept-language': 'fr' } },
  { path: '/session', headers: { cookie: 'session=abc' } },
  { path: '/session', headers: { cookie: 'a=1; session=abc; b=2' } },
  { path: '/session', headers: { cookie: 'session=abcd' } },
  { path: '/session', headers: { cookie: 'xsession=abc' } },
  { path: '/session' },
  { path: '/prefs', headers: { cookie: 'theme=darkblue' } },
  { path: '/prefs', headers: { cookie: 'theme=light; other=dark' } },
  { method: 'POST', path: '/orders', headers: JSON_TYPE, body: '{"customer":{"id":42},"item":"book"}' },
  {
    method: 'POST',
    path: '/orders',
    headers: JSON_TYPE,
    body: '{"customer":{"id":42,"name":"Ada"},"item":"book","count":2}',
  },
  { method: 'POST', path: '/orders', headers: JSON_TYPE, body: '{"customer":{"id":43},"item":"book"}' },
  { method: 'POST', path: '/orders', headers: JSON_TYPE, body: '{"item":"book"}' },
  { method: 'POST', path: '/orders', body: 'not json' },
  { method: 'POST', path: '/notes', body: 'this is urgent!' },
  { method: 'POST', path: '/notes', body: 'calm' },
  { method: 'POST', path: '/notes', body: '' },
  { method: 'POST', path: '/gifts', headers: JSON_TYPE, body: '{"kind":"gift","to":"Ada"}' },
  { method: 'POST', path: '/gifts', headers: JSON_TYPE, body: '{"kind":"other"}' },
  { path: '/search?q=red+shoes' },
  { path: '/search?q=hat' },
  { path: '/search' },
  { method: 'POST', path: '/exact', headers: JSON_TYPE, body: '{"a":1}' },
  { method: 'POST', path: '/exact', headers: JSON_TYPE, body: '{"a":1,"b":2}' },
  { method: 'POST', path: '/tags', headers: JSON_TYPE, body: '{"tags":["b","a"]}', leftOut: true },
  { method: 'POST', path: '/tags', headers: JSON_TYPE, body: '{"tags":["a","c"]}' },
  { method: 'POST', path: '/paths', headers: JSON_TYPE, body: '{"customer":{"id":1}}' },
  { method: 'POST', path: '/paths', headers: JSON_TYPE, body: '{"x":1}' },
  { path: '/debug' },
  { path: '/debug', headers: { 'x-debug': '1' } },
  { path: '/exact-url?a=1' },
  { path: '/exact-url?a=1&b=2' },
  { path: '/exact-url' },
];

describe('mockpoint import from WireMock: never a broader match', () => {
  it('header contains, caseInsensitive, cookies, equalToJson, body contains, matchesJsonPath, absent, url: 37 requests answered as WireMock does', async () => {
    await wiremock.admin('DELETE', '/mappings');
    await wiremock.admin('POST', '/mappings/import', NARROW);
    const dir = await makeTempDir('mockpoint-wiremock-narrow-');
    writeFileSync(join(dir, 'stubs.json'), JSON.stringify(NARROW));
    const imported = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'wm', '--json'] });
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout) as { leftOut: { what: string; why: string }[]; mockFile: unknown };
    // Each left out whole and named with why; nothing else is.
    expect(result.leftOut).toEqual([
      {
        what: 'mapping "any order" (stubs.json mappings[13])',
        why: expect.stringMatching(
          /^bodyPatterns equalToJson: ignoreArrayOrder: arrays of two or more elements are compared in order here/,
        ),
      },
    ]);
    writeFileSync(join(dir, 'mock.json'), JSON.stringify(result.mockFile));
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    const seen = await both(`${daemon.url}/endpoint/wm`, NARROW_REQUESTS, []);
    expect(seen.wiremock.map((s) => s.status)).toEqual([
      200, 401, 401, 200, 200, 418, 200, 200, 418, 418, 418, 200, 418, 201, 201, 418, 418, 418, 201, 418, 418, 200, 418,
      200, 418, 418, 200, 418, 200, 418, 200, 418, 200, 418, 200, 418, 418,
    ]);
    // Every answer is WireMock's; where WireMock answered from a mapping left out, mockpoint answers as if it
    // were not there (the catch-all): narrower, never broader.
    const fallback = { status: 418, headers: {}, body: Buffer.from('fallback').toString('hex') };
    const expected = seen.wiremock.map((answer, index) => (NARROW_REQUESTS[index]?.leftOut ? fallback : answer));
    expect(seen.mockpoint).toEqual(expected);
  });
});

describe('mockpoint import from a WireMock folder: bodies only from __files/', () => {
  it('leaves out a bodyFileName that leads outside __files/ (.., an absolute path, a link)', async () => {
    const dir = await makeTempDir('mockpoint-wiremock-files-');
    const { mkdirSync, symlinkSync } = await import('node:fs');
    mkdirSync(join(dir, 'root', 'mappings'), { recursive: true });
    mkdirSync(join(dir, 'root', '__files'));
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    writeFileSync(join(dir, 'root', '__files', 'ok.txt'), 'fine');
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'root', '__files', 'link.txt'));
    const mapping = (path: string, bodyFileName: string) => ({
      request: { method: 'GET', urlPath: path },
      response: { status: 200, bodyFileName },
    });
    writeFileSync(
      join(dir, 'root', 'mappings', 'all.json'),
      JSON.stringify({
        mappings: [
          mapping('/ok', 'ok.txt'),
          mapping('/up', '../../secret.txt'),
          mapping('/abs', join(dir, 'secret.txt')),
          mapping('/link', 'link.txt'),
        ],
      }),
    );
    const run = await runCli({ cwd: dir, args: ['import', 'root', '--name', 'wm', '--json'] });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.leftOut.map((entry: { why: string }) => entry.why)).toEqual([
      expect.stringMatching(
        /bodyFileName "\.\.\/\.\.\/secret\.txt": is outside __files\/ \(.*\); names stay inside it$/,
      ),
      expect.stringMatching(/: is an absolute path; names stay inside __files\/ \(.*\)$/),
      expect.stringMatching(/bodyFileName "link\.txt": leads outside __files\/ \(.*\) through a link$/),
    ]);
    expect(result.mockFile.endpoints[0].routes).toEqual([
      { id: 'wiremock-1', match: { method: 'GET', path: '/ok' }, answer: { body: 'fine' } },
    ]);
    expect(run.stdout).not.toContain('secret"');
  });
});

describe('mockpoint export --to wiremock', () => {
  it('writes mappings a real WireMock loads and answers as mockpoint does; lists what it leaves out', async () => {
    const daemon = await startDaemon();
    const routes = [
      { id: 'me', match: { method: 'GET', path: '/users/me' }, answer: { data: { me: true } } },
      {
        id: 'user',
        match: { method: 'GET', path: '/users/:id' },
        answer: { headers: { 'X-Kind': 'user' }, data: { id: 1, name: 'Zoë' } },
      },
      {
        id: 'order',
        match: { method: 'POST', path: '/orders', body: { item: 'book' } },
        answer: { statusCode: 201, headers: { Location: '/orders/9' }, body: 'created' },
      },
      { id: 'files', match: { method: 'GET', path: '/files/*' }, answer: { bodyBase64: 'iVBORwD//gE=' } },
      {
        id: 'search',
        match: { method: 'GET', path: '/search', query: { q: 'a' }, headers: { 'x-key': 'k' } },
        answer: { body: 'found', headers: { 'Content-Type': 'text/csv' } },
      },
      {
        id: 'job-start',
        match: { method: 'GET', path: '/job', state: { job: 'started' } },
        answer: { data: { state: 'queued' }, setState: { job: 'done' } },
      },
      {
        id: 'job-done',
        match: { method: 'GET', path: '/job', state: { job: 'done' } },
        answer: { data: { state: 'done' } },
      },
      { id: 'users', match: { path: '/people' }, answer: { resource: 'people' } },
      { id: 'broken', match: { path: '/broken' }, answer: { fault: 'reset' } },
    ];
    expect(
      (await requestJson(`${daemon.url}/api/endpoints/api/routes`, { method: 'PUT', body: { routes } })).status,
    ).toBe(200);
    expect((await addEndpoint(daemon.url, { name: 'api', data: { big: 1 }, statusCode: 202 })).status).toBeLessThan(
      300,
    );
    const dir = await makeTempDir('mockpoint-wiremock-export-');
    const exported = await runCli({
      cwd: dir,
      args: ['export', '--to', 'wiremock', '--url', daemon.url, '--names', 'api', '--out', 'mappings.json'],
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr.trim().split('\n')).toEqual([
      'mockpoint export: left out route users: a resource answer has no WireMock form',
      'mockpoint export: 9 WireMock mapping(s) from 1 endpoint(s)',
    ]);
    const { readFileSync } = await import('node:fs');
    await wiremock.admin('DELETE', '/mappings');
    await wiremock.admin('POST', '/mappings/import', readFileSync(join(dir, 'mappings.json'), 'utf8'));
    await wiremock.admin('POST', '/scenarios/reset');
    const requests: Sent[] = [
      { path: '/users/me' },
      { path: '/users/7' },
      { method: 'POST', path: '/orders', body: '{"item":"book","n":1}' },
      { method: 'POST', path: '/orders', body: '{"item":"pen"}' },
      { path: '/files/a/b.png' },
      { path: '/search?q=a', headers: { 'x-key': 'k' } },
      { path: '/search?q=b', headers: { 'x-key': 'k' } },
      { path: '/job' },
      { path: '/job' },
      { path: '/' },
    ];
    const seen = await both(`${daemon.url}/endpoint/api`, requests, ['content-type', 'x-kind', 'location']);
    // A request neither answers: WireMock's 404 page and mockpoint's NO_ROUTE_MATCHED, the status the same.
    const misses = [3, 6];
    for (const index of misses) {
      expect(seen.mockpoint[index]?.status).toBe(404);
      expect(seen.wiremock[index]?.status).toBe(404);
    }
    const hits = (list: Seen[]) => list.filter((_, index) => !misses.includes(index));
    expect(hits(seen.wiremock)).toEqual(hits(seen.mockpoint));
    await expect(fetch(`${wiremock.url}/broken`)).rejects.toThrow();
  });
});
