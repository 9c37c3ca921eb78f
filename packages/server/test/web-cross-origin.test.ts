/**
 * Cross-site writes to the admin API, in real Chromium: a page on another origin
 * (a tiny node:http server on another port, same-site and cross-site) tries
 * every `/api` write the OpenAPI document lists. What the browser lets through
 * without a CORS preflight (POST with a text/plain body, `mode: 'no-cors'`) is
 * answered 403 CROSS_ORIGIN; PUT, PATCH and DELETE cannot be sent without a preflight,
 * which `/api` does not grant; nothing changes either way. The daemon's own page
 * and clients without an Origin (curl, the SDKs) write as before, and a listed
 * origin may write.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { closeBrowser, openPage, startWebDaemon, useBrowser } from './web-support.js';

/** One write as a client would send it, and what it answers when allowed. */
interface Write {
  method: string;
  path: string;
  body?: string;
  /** The status when the write is allowed (from curl or the daemon's own page). */
  ok: number;
}

/**
 * A request that succeeds for each write operation of the document, in an order
 * that works from a fresh state with the endpoint `victim` in it. Keyed by
 * `METHOD path` as the document names it.
 */
const SAMPLES: Record<string, Omit<Write, 'method' | 'path'> & { path: string }> = {
  'PUT /api/endpoint/add': { path: '/api/endpoint/add', body: '{"name":"planted","data":{"evil":true}}', ok: 201 },
  'PUT /api/endpoints/{name}': { path: '/api/endpoints/victim', body: '{"data":{"evil":true}}', ok: 200 },
  'PUT /api/endpoints/{name}/routes': {
    path: '/api/endpoints/victim/routes',
    body: '{"routes":[{"id":"evil","answer":{"data":{"evil":true}}}]}',
    ok: 200,
  },
  'POST /api/endpoints/{name}/routes': {
    path: '/api/endpoints/victim/routes',
    body: '{"routes":[{"id":"evil-2","answer":{"data":{"evil":true}}}]}',
    ok: 201,
  },
  'DELETE /api/endpoints/{name}/routes/{id}': { path: '/api/endpoints/victim/routes/evil', ok: 204 },
  'DELETE /api/endpoints/{name}/routes': { path: '/api/endpoints/victim/routes', ok: 204 },
  'PUT /api/endpoints/{name}/signature': {
    path: '/api/endpoints/victim/signature',
    body: '{"scheme":"github","secret":"evil","enforce":true}',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/signature': { path: '/api/endpoints/victim/signature', ok: 204 },
  'PUT /api/endpoints/{name}/graphql': {
    path: '/api/endpoints/victim/graphql',
    body: 'type Query { evil: Int }',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/graphql': { path: '/api/endpoints/victim/graphql', ok: 204 },
  'PUT /api/endpoints/{name}/grpc': {
    path: '/api/endpoints/victim/grpc',
    body: '{"protos":{"evil.proto":"syntax = \\"proto3\\"; package evil; service Evil {}"}}',
    ok: 201,
  },
  'DELETE /api/endpoints/{name}/grpc': { path: '/api/endpoints/victim/grpc', ok: 204 },
  'POST /api/endpoints/{name}/queue': {
    path: '/api/endpoints/victim/queue',
    body: '{"answers":[{"statusCode":500,"data":{"evil":true},"times":5}]}',
    ok: 201,
  },
  'DELETE /api/endpoints/{name}/queue': { path: '/api/endpoints/victim/queue', ok: 204 },
  'DELETE /api/endpoints/{name}/requests': { path: '/api/endpoints/victim/requests', ok: 204 },
  'PUT /api/endpoints/{name}/collections': {
    path: '/api/endpoints/victim/collections',
    body: '{"users":[{"id":1,"evil":true}]}',
    ok: 200,
  },
  'PUT /api/endpoints/{name}/collections/{collection}': {
    path: '/api/endpoints/victim/collections/posts',
    body: '[{"id":1,"evil":true}]',
    ok: 200,
  },
  'POST /api/endpoints/{name}/collections/{collection}/items': {
    path: '/api/endpoints/victim/collections/users/items',
    body: '{"evil":true}',
    ok: 201,
  },
  'PUT /api/endpoints/{name}/collections/{collection}/items/{id}': {
    path: '/api/endpoints/victim/collections/users/items/1',
    body: '{"evil":true}',
    ok: 200,
  },
  'PATCH /api/endpoints/{name}/collections/{collection}/items/{id}': {
    path: '/api/endpoints/victim/collections/users/items/1',
    body: '{"evil":1}',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/collections/{collection}/items/{id}': {
    path: '/api/endpoints/victim/collections/users/items/1',
    ok: 204,
  },
  'POST /api/endpoints/{name}/reset': { path: '/api/endpoints/victim/reset', ok: 204 },
  'POST /api/reset': { path: '/api/reset', ok: 204 },
  'PUT /api/endpoints/{name}/state': { path: '/api/endpoints/victim/state', body: '{"default":"evil"}', ok: 200 },
  'PUT /api/endpoints/{name}/chaos': {
    path: '/api/endpoints/victim/chaos',
    body: '{"rate":1,"faults":["503"],"seed":1}',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/chaos': { path: '/api/endpoints/victim/chaos', ok: 204 },
  'PUT /api/endpoints/{name}/twin': { path: '/api/endpoints/victim/twin', body: '{"provider":"stripe"}', ok: 200 },
  'POST /api/endpoints/{name}/twin/trigger': {
    path: '/api/endpoints/victim/twin/trigger',
    body: '{"event":"customer.created"}',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/twin': { path: '/api/endpoints/victim/twin', ok: 204 },
  'PUT /api/chaos': { path: '/api/chaos', body: '{"rate":1,"faults":["503"],"seed":1}', ok: 200 },
  'DELETE /api/chaos': { path: '/api/chaos', ok: 204 },
  'PUT /api/clock': { path: '/api/clock', body: '{"advance":"1d"}', ok: 200 },
  'DELETE /api/clock': { path: '/api/clock', ok: 204 },
  // Reads only, but a POST (the document is its body): refused cross-origin like every write.
  'POST /api/verify': {
    path: '/api/verify',
    body: '{"openapi":{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}}',
    ok: 200,
  },
  // No socket open: a count of 0 shows the write reached its handler.
  'POST /api/endpoints/{name}/sockets/send': {
    path: '/api/endpoints/victim/sockets/send',
    body: '{"text":"evil"}',
    ok: 200,
  },
  'POST /api/endpoints/{name}/sockets/close': {
    path: '/api/endpoints/victim/sockets/close',
    body: '{"code":4000}',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/collections/{collection}': { path: '/api/endpoints/victim/collections/posts', ok: 204 },
  'DELETE /api/endpoints/{name}/collections': { path: '/api/endpoints/victim/collections', ok: 204 },
  'DELETE /api/endpoints/{name}': { path: '/api/endpoints/victim', ok: 204 },
  'DELETE /api/endpoints': { path: '/api/endpoints', ok: 204 },
  'PUT /api/endpoints/{name}/hosts': {
    path: '/api/endpoints/victim/hosts',
    body: '{"hosts":["evil.example"]}',
    ok: 200,
  },
  'DELETE /api/endpoints/{name}/hosts': { path: '/api/endpoints/victim/hosts', ok: 204 },
  // Port 9 (discard) on loopback: nothing listens there.
  'POST /api/deliveries': { path: '/api/deliveries', body: '{"url":"http://127.0.0.1:9/evil","data":1}', ok: 202 },
  // No such delivery: a 404 shows the write reached its handler.
  'DELETE /api/deliveries/{id}': { path: '/api/deliveries/dlv_none', ok: 404 },
  'POST /api/namespaces': { path: '/api/namespaces', body: '{"name":"planted"}', ok: 201 },
  'DELETE /api/namespaces/{ns}': { path: '/api/namespaces/victim-ns', ok: 204 },
};

let server: RunningServer;
/** The samples, in the order of SAMPLES (each write finds what it needs). */
const writes: Write[] = Object.entries(SAMPLES).map(([key, sample]) => ({
  method: key.split(' ')[0] as string,
  ...sample,
}));
let documented: string[];
/** Origins of a foreign page: another port on the same host (same-site), and another host (cross-site). */
let foreignServer: Server;
let foreignOrigins: string[];

function listen(target: Server): Promise<number> {
  return new Promise((resolve) => target.listen(0, '127.0.0.1', () => resolve((target.address() as AddressInfo).port)));
}

/** The `METHOD path` of every write operation in the daemon's OpenAPI document. */
async function documentedWrites(): Promise<string[]> {
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => !['get', 'head', 'options'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
}

/** A fresh state: `victim` with a record, one recorded request, one queued answer, two collections, a scenario, a GraphQL schema and a Stripe twin; the namespace's chaos. */
async function seed(): Promise<void> {
  expect((await fetch(`${server.url}/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
  // The namespace `victim-ns`, and none called `planted` (a write below makes it).
  expect([204, 404]).toContain((await fetch(`${server.url}/api/namespaces/planted`, { method: 'DELETE' })).status);
  const made = await fetch(`${server.url}/api/namespaces`, { method: 'POST', body: '{"name":"victim-ns"}' });
  expect([201, 409]).toContain(made.status);
  const put = await fetch(`${server.url}/api/endpoints/victim`, { method: 'PUT', body: '{"data":{"v":1}}' });
  expect(put.status).toBe(201);
  expect((await fetch(`${server.url}/endpoint/victim?seen=1`)).status).toBe(200);
  const queued = await fetch(`${server.url}/api/endpoints/victim/queue`, {
    method: 'POST',
    body: '{"answers":[{"statusCode":202}]}',
  });
  expect(queued.status).toBe(201);
  const collections = await fetch(`${server.url}/api/endpoints/victim/collections`, {
    method: 'PUT',
    body: '{"users":[{"id":1}],"posts":[]}',
  });
  expect(collections.status).toBe(200);
  const state = await fetch(`${server.url}/api/endpoints/victim/state`, {
    method: 'PUT',
    body: '{"default":"seeded"}',
  });
  expect(state.status).toBe(200);
  const graphql = await fetch(`${server.url}/api/endpoints/victim/graphql`, {
    method: 'PUT',
    body: 'type Query { seeded: Int }',
  });
  expect(graphql.status).toBe(201);
  const twin = await fetch(`${server.url}/api/endpoints/victim/twin`, { method: 'PUT', body: '{"provider":"stripe"}' });
  expect([200, 201]).toContain(twin.status);
  // The namespace's chaos, at rate 0 (nothing injected): a DELETE that got through would show.
  const chaos = await fetch(`${server.url}/api/chaos`, { method: 'PUT', body: '{"rate":0,"faults":["503"]}' });
  expect(chaos.status).toBe(200);
}

/** Everything a write could change: the records, the queue, the routes, the signature check, the collections, the state, the GraphQL schema, the chaos and the journal of `victim`, and the namespace's chaos. */
async function snapshot(): Promise<string> {
  const read = async (path: string) => (await fetch(`${server.url}${path}`)).text();
  const requests = JSON.parse(await read('/api/endpoints/victim/requests')) as { requests: { path: string }[] };
  return JSON.stringify({
    endpoints: JSON.parse(await read('/api/endpoints')),
    queue: JSON.parse(await read('/api/endpoints/victim/queue')),
    routes: JSON.parse(await read('/api/endpoints/victim/routes')),
    signature: JSON.parse(await read('/api/endpoints/victim/signature')),
    collections: JSON.parse(await read('/api/endpoints/victim/collections')),
    state: JSON.parse(await read('/api/endpoints/victim/state')),
    chaos: await read('/api/endpoints/victim/chaos'),
    namespaceChaos: await read('/api/chaos'),
    clock: (({ frozen, offsetMs }) => ({ frozen, offsetMs }))(JSON.parse(await read('/api/clock'))),
    hosts: JSON.parse(await read('/api/hosts')),
    namespaces: (JSON.parse(await read('/api/namespaces')) as { namespaces: { name: string }[] }).namespaces.map(
      (n) => n.name,
    ),
    graphql: JSON.parse(await read('/api/endpoints/victim/graphql')),
    grpc: await read('/api/endpoints/victim/grpc'),
    twin: await read('/api/endpoints/victim/twin'),
    deliveries: (JSON.parse(await read('/api/deliveries')) as { deliveries: { id: string }[] }).deliveries.map(
      (d) => d.id,
    ),
    requests: requests.requests.map((r) => r.path),
  });
}

/**
 * From the page, sends each write the way a hostile page would: POST with a
 * text/plain body and `mode: 'no-cors'` (no preflight); PUT and DELETE, which
 * no-cors refuses, with a plain CORS request (preflighted). Returns, per write,
 * what the page saw and every status the daemon answered (seen on the network).
 */
async function attack(page: Page, target: string): Promise<{ outcomes: string[]; statuses: Map<string, number[]> }> {
  const statuses = new Map<string, number[]>();
  page.on('response', (response) => {
    const request = response.request();
    const key = `${request.method()} ${new URL(response.url()).pathname}`;
    statuses.set(key, [...(statuses.get(key) ?? []), response.status()]);
  });
  const outcomes = await page.evaluate(
    async ({ target, writes }) => {
      const seen: string[] = [];
      for (const write of writes) {
        const url = target + write.path;
        const init = {
          method: write.method,
          headers: { 'content-type': 'text/plain' },
          ...(write.body === undefined ? {} : { body: write.body }),
        };
        try {
          const answer = await fetch(url, { ...init, mode: 'no-cors' });
          seen.push(`${write.method} ${write.path}: no-cors sent (${answer.type})`);
        } catch (error) {
          seen.push(`${write.method} ${write.path}: no-cors refused by the browser (${(error as Error).name})`);
          try {
            const answer = await fetch(url, { ...init, mode: 'cors' });
            seen.push(`${write.method} ${write.path}: cors answered ${answer.status}`);
          } catch {
            seen.push(`${write.method} ${write.path}: cors blocked`);
          }
        }
      }
      return seen;
    },
    { target, writes },
  );
  return { outcomes, statuses };
}

beforeAll(async () => {
  server = await startWebDaemon({ allowedOrigins: [] });
  documented = await documentedWrites();
  foreignServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>elsewhere</title>');
  });
  const port = await listen(foreignServer);
  foreignOrigins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
});

afterAll(async () => {
  await closeBrowser();
  await new Promise<void>((resolve) => {
    foreignServer?.closeAllConnections();
    foreignServer ? foreignServer.close(() => resolve()) : resolve();
  });
  await server?.close();
});

describe('a page on another origin', () => {
  test('the tests below cover every write operation of the OpenAPI document', () => {
    // A new write route needs its sample request in SAMPLES, so that it is tested too.
    expect([...documented].sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const which of ['same-site (another port)', 'cross-site (another host)']) {
    test(`${which}: every write is refused or never sent, and nothing changes`, async () => {
      const origin = which.startsWith('same') ? (foreignOrigins[0] as string) : (foreignOrigins[1] as string);
      await seed();
      const before = await snapshot();
      const { page } = await openPage(await useBrowser());
      try {
        await page.goto(`${origin}/`);
        const { outcomes, statuses } = await attack(page, server.url);
        for (const write of writes) {
          const key = `${write.method} ${write.path}`;
          const answered = (statuses.get(key) ?? []).filter((status) => status !== 0);
          if (write.method === 'POST') {
            // Sent without a preflight: the daemon refuses it.
            expect(outcomes, key).toContain(`${key}: no-cors sent (opaque)`);
            expect(answered, key).toEqual([403]);
          } else {
            // PUT, PATCH and DELETE need a preflight, and the preflight is not granted: never sent.
            expect(outcomes, key).toContain(`${key}: no-cors refused by the browser (TypeError)`);
            expect(outcomes, key).toContain(`${key}: cors blocked`);
            expect(
              answered.every((status) => status !== 200 && status !== 201 && status !== 204),
              key,
            ).toBe(true);
          }
        }
        expect(await snapshot()).toBe(before);
      } finally {
        await page.context().close();
      }
    });
  }
});

test('what a cross-site POST is told (read from outside the browser): 403 CROSS_ORIGIN naming the setting', async () => {
  await seed();
  const before = await snapshot();
  for (const write of writes) {
    const answer = await fetch(`${server.url}${write.path}`, {
      method: write.method,
      headers: { origin: foreignOrigins[1] as string, 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' },
      body: write.body,
    });
    expect(answer.status, `${write.method} ${write.path}`).toBe(403);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('CROSS_ORIGIN');
    expect(body.error.message).toContain('MOCKPOINT_ALLOWED_ORIGINS');
  }
  expect(await snapshot()).toBe(before);
});

test('the daemon’s own page makes every write', async () => {
  await seed();
  const { page, problems } = await openPage(await useBrowser());
  try {
    await page.goto(`${server.url}/`);
    const statuses = await page.evaluate(async (writes) => {
      const seen: number[] = [];
      for (const write of writes) {
        const answer = await fetch(`.${write.path}`, {
          method: write.method,
          headers: { 'content-type': 'application/json' },
          ...(write.body === undefined ? {} : { body: write.body }),
        });
        seen.push(answer.status);
      }
      return seen;
    }, writes);
    expect(statuses).toEqual(writes.map((w) => w.ok));
    expect(problems).toEqual([]);
  } finally {
    await page.context().close();
  }
});

test('requests without an Origin (curl, the SDKs, the seed’s bare curl -X PUT -d) make every write', async () => {
  await seed();
  for (const write of writes) {
    // Like `curl -X PUT -d '…'`: form content type, no Origin.
    const answer = await fetch(`${server.url}${write.path}`, {
      method: write.method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: write.body,
    });
    expect(answer.status, `${write.method} ${write.path}`).toBe(write.ok);
  }
});

test('a listed origin may write from its page (MOCKPOINT_ALLOWED_ORIGINS)', async () => {
  const allowing = await startWebDaemon({ allowedOrigins: [foreignOrigins[0] as string] });
  const { page } = await openPage(await useBrowser());
  try {
    await page.goto(`${foreignOrigins[0]}/`);
    const statuses = new Map<string, number>();
    page.on('response', (response) => statuses.set(new URL(response.url()).pathname, response.status()));
    const sent = await page.evaluate(async (target) => {
      const answer = await fetch(`${target}/api/endpoints/from-listed/queue`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: '{"answers":[{"statusCode":202}]}',
      });
      return answer.type;
    }, allowing.url);
    expect(sent).toBe('opaque');
    await expect.poll(() => statuses.get('/api/endpoints/from-listed/queue')).toBe(201);
    const queue = (await (await fetch(`${allowing.url}/api/endpoints/from-listed/queue`)).json()) as {
      answers: unknown[];
    };
    expect(queue.answers).toHaveLength(1);
  } finally {
    await page.context().close();
    await allowing.close();
  }
});
