/**
 * A proxy route forwards only below its upstream's base path: a request path
 * whose dot segments (literal or percent-encoded), encoded slashes or
 * backslashes would lead the upstream out of it is refused before anything is
 * sent. Sent as raw request lines (as `curl --path-as-is` sends them) through
 * both Node adapters, to a real local upstream that records every path it
 * receives.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeExchanges, closeListeners, dechunk, exchange } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type JournalEntry, type MockpointApp } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS, type NodeAdapter } from '../../test-support/node-adapters.js';

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  closeExchanges();
  await closeListeners();
  for (const close of closers.splice(0)) await close();
});

/** A local upstream answering every request with the path it received, and keeping the list. */
async function recordingUpstream(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.end(req.url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function setup(adapter: NodeAdapter) {
  const upstream = await recordingUpstream();
  const app = createApp({ proxyAllowHosts: ['127.0.0.1'] });
  const routes = [{ id: 'up', answer: { proxy: { url: `${upstream.url}/public/v1` } } }];
  const put = await app.request('/api/endpoints/api/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status).toBe(200);
  return { app, upstream, port: await NODE_ADAPTERS[adapter](app) };
}

/** Sends `path` byte for byte (no client normalises it) and resolves with the status and body. */
async function ask(port: number, path: string): Promise<{ status: number; body: string }> {
  const sent = exchange(port, path, { connection: 'close' });
  await sent.complete();
  const { head, body } = dechunk(sent.text());
  return { status: Number(head.split(' ')[1]), body };
}

async function journal(app: MockpointApp): Promise<JournalEntry[]> {
  return ((await (await app.request('/api/endpoints/api/requests')).json()) as { requests: JournalEntry[] }).requests;
}

/**
 * Paths that would leave `/public/v1` once decoded and resolved. `fetchStatus`: the
 * status of the Fetch route when the request never reaches the proxy route
 * there: its URL parser resolves literal and `%2e` dot segments before the app
 * sees the path (out of `/endpoint/api` altogether: another endpoint's name, or
 * no route), and @hono/node-server refuses a target with a raw `\`.
 */
const ESCAPES: { path: string; fetchStatus?: number }[] = [
  { path: '/endpoint/api/x/../../admin/secrets', fetchStatus: 404 },
  { path: '/endpoint/api/x/%2e%2e/%2E%2E/admin/secrets', fetchStatus: 404 },
  { path: '/endpoint/api/x/.%2e/.%2E/admin', fetchStatus: 404 },
  { path: '/endpoint/api/../../../admin', fetchStatus: 404 },
  { path: '/endpoint/api/..%2f..%2fadmin/secrets' },
  { path: '/endpoint/api/x%2F..%2F..%2F..%2Fadmin' },
  { path: '/endpoint/api/..%5c..%5cadmin' },
  { path: '/endpoint/api/x\\..\\..\\..\\admin', fetchStatus: 400 },
  { path: '/endpoint/api/a%2fb/../../../admin', fetchStatus: 404 },
  { path: '/endpoint/api/%2e%2e%2fadmin?x=1' },
];

describe.each(NODE_ADAPTER_NAMES)("a proxy route's base path (%s adapter)", (adapter) => {
  it.each(ESCAPES)('never lets $path leave it', async ({ path, fetchStatus }) => {
    const { app, upstream, port } = await setup(adapter);
    const answer = await ask(port, path);
    expect(upstream.seen).toEqual([]);
    if (adapter === 'native' || fetchStatus === undefined) {
      expect(answer.status).toBe(400);
      const error = (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('PROXY_PATH_OUTSIDE_BASE');
      expect(error.message).toContain('/public/v1');
      const [entry] = await journal(app);
      expect(entry).toMatchObject({ statusCode: 400, upstream: { error: 'PROXY_PATH_OUTSIDE_BASE' } });
    } else {
      expect(answer.status).toBe(fetchStatus);
      expect(await journal(app)).toEqual([]);
    }
  });

  it('forwards a path that stays below the base, dot segments resolved and encoded slashes kept', async () => {
    const { upstream, port } = await setup(adapter);
    const cases: [string, string][] = [
      ['/endpoint/api/users/7?x=1', '/public/v1/users/7?x=1'],
      ['/endpoint/api/a/../b', '/public/v1/b'],
      ['/endpoint/api/a/./b/%2e%2e/c', '/public/v1/a/c'],
      ['/endpoint/api/projects/group%2Fproject/issues', '/public/v1/projects/group%2Fproject/issues'],
      ['/endpoint/api/a%2f..%2fb', '/public/v1/a%2f..%2fb'],
      ['/endpoint/api/x/..', '/public/v1/'],
      ['/endpoint/api/q?p=/../../admin', '/public/v1/q?p=/../../admin'],
    ];
    for (const [path, expected] of cases) {
      const answer = await ask(port, path);
      expect([path, answer.status, answer.body]).toEqual([path, 200, expected]);
    }
    expect(upstream.seen).toEqual(cases.map(([, expected]) => expected));
  });
});
