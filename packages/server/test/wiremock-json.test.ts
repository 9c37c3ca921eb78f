// Issue #71: WireMock's strict `equalToJson`, `matchesJsonPath`, `absent` and the recorder's
// `hasExactly` query parameters, side by side with a real WireMock 3.13.2 (the `wiremock` npm
// package's jar, one JVM for this file). The same mappings go to WireMock and, through
// `mockpoint import`, to the real daemon; the same requests to both get the same status and body.
// A JSONPath outside mockpoint's subset leaves its mapping out, named; the request WireMock answers
// from it gets the catch-all on mockpoint (narrower, never broader).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';
import { startPeerApi } from './helpers/peer-api.js';
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

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** WireMock answers it from a mapping the import leaves out. */
  leftOut?: true;
}

interface Seen {
  status: number;
  body: string;
}

async function send(base: string, request: Sent): Promise<Seen> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method ?? 'GET',
    ...(request.headers && { headers: request.headers }),
    ...(request.body !== undefined && { body: request.body }),
  });
  return { status: response.status, body: await response.text() };
}

async function both(mockpoint: string, requests: readonly Sent[]): Promise<{ wiremock: Seen[]; mockpoint: Seen[] }> {
  const seen = { wiremock: [] as Seen[], mockpoint: [] as Seen[] };
  for (const request of requests) seen.wiremock.push(await send(wiremock.url, request));
  for (const request of requests) seen.mockpoint.push(await send(mockpoint, request));
  return seen;
}

const post = (path: string, body: string, leftOut?: true): Sent => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body,
  ...(leftOut && { leftOut }),
});

const MAPPINGS = {
  mappings: [
    { request: { method: 'ANY', urlPattern: '.*' }, priority: 100, response: { status: 418, body: 'fallback' } },
    {
      name: 'order, exact JSON',
      request: {
        method: 'POST',
        urlPath: '/api/v1/orders',
        bodyPatterns: [{ equalToJson: { customer: { id: 42 }, items: [{ sku: 'a', qty: 2 }], total: 12.5 } }],
      },
      response: { status: 201, headers: { 'Content-Type': 'application/json' }, jsonBody: { id: 'o-1' } },
    },
    {
      name: 'event with an item id',
      request: { method: 'POST', urlPath: '/api/v1/events', bodyPatterns: [{ matchesJsonPath: '$.items[0].id' }] },
      response: { status: 200, body: 'event' },
    },
    {
      name: 'big total',
      request: { method: 'POST', urlPath: '/api/v1/totals', bodyPatterns: [{ matchesJsonPath: '$[?(@.total > 10)]' }] },
      response: { status: 200, body: 'big' },
    },
    {
      name: 'a pricy item',
      request: {
        method: 'POST',
        urlPath: '/api/v1/carts',
        bodyPatterns: [
          { matchesJsonPath: '$.items[?(@.price >= 5)]' },
          { matchesJsonPath: "$[?(@.currency == 'EUR')]" },
        ],
      },
      response: { status: 200, body: 'pricy' },
    },
    {
      name: 'deep scan',
      request: { method: 'POST', urlPath: '/api/v1/deep', bodyPatterns: [{ matchesJsonPath: '$..id' }] },
      response: { status: 200, body: 'deep' },
    },
    {
      name: 'no debug header',
      request: { method: 'GET', urlPath: '/api/v1/debug', headers: { 'X-Debug': { absent: true } } },
      response: { status: 200, body: 'quiet' },
    },
    {
      name: 'no debug parameter',
      request: { method: 'GET', urlPath: '/api/v1/list', queryParameters: { debug: { absent: true } } },
      response: { status: 200, body: 'list' },
    },
  ],
};

const ORDER = '{"customer":{"id":42},"items":[{"sku":"a","qty":2}],"total":12.5}';
const REQUESTS: Sent[] = [
  // Strict equalToJson: the same JSON in another key order and spacing matches; more, less or other does not.
  post('/api/v1/orders', ORDER),
  post('/api/v1/orders', '{ "total": 12.50, "items": [ { "qty": 2, "sku": "a" } ],\n  "customer": { "id": 42 } }'),
  post('/api/v1/orders', '{"customer":{"id":42},"items":[{"sku":"a","qty":2}],"total":12.5,"note":"x"}'),
  post('/api/v1/orders', '{"customer":{"id":42,"vip":true},"items":[{"sku":"a","qty":2}],"total":12.5}'),
  post('/api/v1/orders', '{"customer":{"id":42},"items":[{"sku":"a","qty":2}]}'),
  post('/api/v1/orders', '{"customer":{"id":42},"items":[{"sku":"a","qty":2},{"sku":"b","qty":1}],"total":12.5}'),
  post('/api/v1/orders', '{"customer":{"id":"42"},"items":[{"sku":"a","qty":2}],"total":12.5}'),
  post('/api/v1/orders', 'not json'),
  // matchesJsonPath: presence.
  post('/api/v1/events', '{"items":[{"id":"e-1","kind":"click"}]}'),
  post('/api/v1/events', '{"items":[{"id":0}]}'),
  post('/api/v1/events', '{"items":[{"id":null}]}'),
  post('/api/v1/events', '{"items":[{"kind":"click"}]}'),
  post('/api/v1/events', '{"items":[]}'),
  post('/api/v1/events', '[{"id":1}]'),
  // matchesJsonPath: filters.
  post('/api/v1/totals', '{"total":11}'),
  post('/api/v1/totals', '{"total":10}'),
  post('/api/v1/totals', '{"total":"11"}'),
  post('/api/v1/totals', '[{"total":1},{"total":20}]'),
  post('/api/v1/carts', '{"currency":"EUR","items":[{"price":1},{"price":5}]}'),
  post('/api/v1/carts', '{"currency":"EUR","items":[{"price":1}]}'),
  post('/api/v1/carts', '{"currency":"USD","items":[{"price":9}]}'),
  // Outside the subset: left out, WireMock's answer is the mapping's, mockpoint's the catch-all.
  post('/api/v1/deep', '{"a":{"b":{"id":1}}}', true),
  post('/api/v1/deep', '{"a":1}'),
  // absent: a header, a query parameter; an empty value is a value.
  { path: '/api/v1/debug' },
  { path: '/api/v1/debug', headers: { 'x-debug': '1' } },
  { path: '/api/v1/debug', headers: { 'x-debug': '' } },
  { path: '/api/v1/list' },
  { path: '/api/v1/list?page=2' },
  { path: '/api/v1/list?debug=1' },
  { path: '/api/v1/list?debug=' },
  { path: '/api/v1/list?DEBUG=1' },
];

describe('mockpoint import from WireMock: equal to the peer (issue #71)', () => {
  it('strict equalToJson, matchesJsonPath (presence and filters), absent header and query: answered as WireMock does', async () => {
    await wiremock.admin('DELETE', '/mappings');
    await wiremock.admin('POST', '/mappings/import', MAPPINGS);
    const dir = await makeTempDir('mockpoint-wiremock-json-');
    writeFileSync(join(dir, 'stubs.json'), JSON.stringify(MAPPINGS));
    const imported = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'wm', '--json'] });
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout) as { leftOut: { what: string; why: string }[]; mockFile: unknown };
    expect(result.leftOut).toEqual([
      {
        what: 'mapping "deep scan" (stubs.json mappings[5])',
        why: 'bodyPatterns matchesJsonPath: "$..id": at character 2 of "$..id": a deep scan (..) is not in the subset',
      },
    ]);
    writeFileSync(join(dir, 'mock.json'), JSON.stringify(result.mockFile));
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    const seen = await both(`${daemon.url}/endpoint/wm`, REQUESTS);
    expect(seen.wiremock.map((s) => s.status)).toEqual([
      201, 201, 418, 418, 418, 418, 418, 418, 200, 200, 418, 418, 418, 418, 200, 418, 418, 200, 200, 418, 418, 200, 418,
      200, 418, 418, 200, 200, 418, 418, 200,
    ]);
    const fallback = { status: 418, body: 'fallback' };
    expect(seen.mockpoint).toEqual(seen.wiremock.map((answer, i) => (REQUESTS[i]?.leftOut ? fallback : answer)));
    expect(seen.mockpoint[0]).toEqual({ status: 201, body: '{"id":"o-1"}' });
  });

  // Issue #86: POST /api/v1/orders was said to answer 404 NO_ROUTE_MATCHED where WireMock answers 201.
  // The bytes a client sends vary: content type and charset, spacing, key order, number spelling,
  // a chunked body; the mapping may give equalToJson as text, with ignoreExtraElements, or a JSONPath.
  // Found: a mapping as WireMock's recorder writes it (ignoreArrayOrder on an order of one item) was
  // left out, so the order was NO_ROUTE_MATCHED; an array of one is the same in any order.
  it('POST /api/v1/orders as clients send it: the same answers as WireMock, 201 where it gives 201', async () => {
    const orders = (name: string, status: number, bodyPatterns: unknown[]) => ({
      name,
      request: { method: 'POST', urlPath: `/api/v1/${name}`, bodyPatterns },
      response: { status, headers: { 'Content-Type': 'application/json' }, jsonBody: { id: name } },
    });
    const mappings = {
      mappings: [
        { request: { method: 'ANY', urlPattern: '.*' }, priority: 100, response: { status: 418, body: 'fallback' } },
        ...MAPPINGS.mappings.filter((mapping) => mapping.name === 'order, exact JSON'),
        orders('text', 201, [{ equalToJson: ORDER }]),
        orders('loose', 201, [{ equalToJson: '{"customer":{"id":42}}', ignoreExtraElements: true }]),
        orders('path', 201, [{ matchesJsonPath: '$[?(@.customer.id == 42)]' }]),
        // As WireMock's recorder writes a JSON body: the text, with ignoreArrayOrder and ignoreExtraElements.
        orders('recorded', 201, [{ equalToJson: ORDER, ignoreArrayOrder: true, ignoreExtraElements: true }]),
      ],
    };
    await wiremock.admin('DELETE', '/mappings');
    await wiremock.admin('POST', '/mappings/import', mappings);
    const dir = await makeTempDir('mockpoint-wiremock-orders-');
    writeFileSync(join(dir, 'stubs.json'), JSON.stringify(mappings));
    const imported = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'wm', '--json'] });
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout) as { leftOut: unknown[]; mockFile: unknown };
    expect(result.leftOut).toEqual([]);
    writeFileSync(join(dir, 'mock.json'), JSON.stringify(result.mockFile));
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    const bodies = [
      ORDER,
      '{ "total": 12.50, "items": [ { "qty": 2, "sku": "a" } ],\r\n  "customer": { "id": 42 } }',
      '{"total":1.25e1,"customer":{"id":42.0},"items":[{"sku":"a","qty":2}]}',
      `\n\t${ORDER}\n`,
    ];
    const types = [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'text/plain;charset=UTF-8',
      'application/vnd.api+json',
      undefined,
    ];
    const requests: Sent[] = [];
    for (const name of ['orders', 'text', 'loose', 'path', 'recorded']) {
      for (const body of bodies) {
        for (const type of types) {
          requests.push({
            method: 'POST',
            path: `/api/v1/${name}`,
            ...(type === undefined ? {} : { headers: { 'content-type': type } }),
            body,
          });
        }
      }
    }
    const seen = await both(`${daemon.url}/endpoint/wm`, requests);
    expect(seen.wiremock.filter((answer) => answer.status === 201)).toHaveLength(requests.length);
    expect(seen.mockpoint).toEqual(seen.wiremock);
    // A chunked body (no Content-Length), as a streaming client sends one.
    const chunked = (base: string) =>
      fetch(`${base}/api/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([ORDER]).stream(),
        duplex: 'half',
      } as RequestInit).then(async (answer) => ({ status: answer.status, body: await answer.text() }));
    expect(await chunked(`${daemon.url}/endpoint/wm`)).toEqual(await chunked(wiremock.url));
  });

  it("a mapping WireMock's recorder wrote for GET /rec/search?q=x&page=2 (hasExactly query parameters)", async () => {
    const peer = await startPeerApi((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"url":${JSON.stringify(request.url)}}`);
    });
    try {
      await wiremock.admin('DELETE', '/mappings');
      await wiremock.admin('POST', '/recordings/start', { targetBaseUrl: peer.url, persist: true });
      await send(wiremock.url, { path: '/rec/search?q=x&page=2' });
      const recorded = (await wiremock.admin('POST', '/recordings/stop')) as { mappings: unknown[] };
      expect(recorded.mappings).toEqual([
        expect.objectContaining({
          request: {
            urlPath: '/rec/search',
            method: 'GET',
            queryParameters: { q: { hasExactly: [{ equalTo: 'x' }] }, page: { hasExactly: [{ equalTo: '2' }] } },
          },
        }),
      ]);
    } finally {
      peer.server.close();
    }
    const dir = await makeTempDir('mockpoint-wiremock-rec-');
    const imported = await runCli({
      cwd: dir,
      args: ['import', wiremock.root, '--name', 'rec', '--out', 'mock.json', '--json'],
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).leftOut).toEqual([]);
    const daemon = await startDaemon({ cwd: dir, args: ['--config', 'mock.json'] });
    const requests: Sent[] = [
      { path: '/rec/search?q=x&page=2' },
      { path: '/rec/search?page=2&q=x' },
      { path: '/rec/search?q=x&page=2&sort=asc' },
      { path: '/rec/search?q=x' },
      { path: '/rec/search?q=y&page=2' },
      { path: '/rec/search?q=x&page=2&page=3' },
    ];
    const seen = await both(`${daemon.url}/endpoint/rec`, requests);
    expect(seen.wiremock.map((s) => s.status)).toEqual([200, 200, 200, 404, 404, 404]);
    expect(seen.mockpoint.map((s) => s.status)).toEqual([200, 200, 200, 404, 404, 404]);
    // Where both answer from the mapping: the same bytes (where neither does, each its own 404 page).
    expect(seen.mockpoint.slice(0, 3)).toEqual(seen.wiremock.slice(0, 3));
    expect(seen.mockpoint[0]?.body).toBe('{"url":"/rec/search?q=x&page=2"}');
  });

  it('hasExactly of several values: taken in the order written, and said so', async () => {
    const dir = await makeTempDir('mockpoint-wiremock-exactly-');
    const mapping = {
      request: {
        method: 'GET',
        urlPath: '/tags',
        queryParameters: { t: { hasExactly: [{ equalTo: 'a' }, { equalTo: 'b' }] } },
      },
      response: { status: 200, body: 'tags' },
    };
    writeFileSync(join(dir, 'stubs.json'), JSON.stringify(mapping));
    const imported = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'wm', '--json'] });
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result.leftOut).toEqual([
      {
        what: 'mapping stubs.json: query parameter t hasExactly',
        why: 'its 2 values are taken in the order written; WireMock also takes them in another order',
      },
    ]);
    expect(result.mockFile.endpoints[0].routes[0].match).toEqual({
      method: 'GET',
      path: '/tags',
      query: { t: ['a', 'b'] },
    });
  });
});
