import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { serve } from '@hono/node-server';
import { EXPECTED_DEFAULT_LIMITS } from '@mockpoint/testkit/expected-health';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ConnectionError,
  createApp,
  createClient,
  isMockpointError,
  JsonText,
  type MockpointApp,
  type MockpointClient,
  MockpointError,
} from '../index.js';
import { isOwnError, OWN_ERROR } from '../registry/errors.js';
import { VERSION } from '../registry/version.js';

async function listen(app: MockpointApp): Promise<{ server: Server; url: string }> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A port that was just open on 127.0.0.1 and is now closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

type Mode = [
  string,
  (app: MockpointApp, token?: string) => Promise<{ client: MockpointClient; stop(): Promise<void> }>,
];

const MODES: Mode[] = [
  [
    'in-process app (no socket)',
    async (app, token) => ({
      client: createClient({ baseUrl: 'http://mockpoint.test', app, token }),
      stop: async () => undefined,
    }),
  ],
  [
    'real listener on 127.0.0.1',
    async (app, token) => {
      const { server, url } = await listen(app);
      return { client: createClient({ baseUrl: url, token }), stop: () => close(server) };
    },
  ],
];

describe.each(MODES)('createClient against %s', (_mode, connect) => {
  let app: MockpointApp;
  let client: MockpointClient;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    app = createApp();
    ({ client, stop } = await connect(app));
  });
  afterAll(async () => {
    await stop();
  });
  afterEach(async () => {
    await client.reset();
  });

  it('add creates and answers the record; read serves it', async () => {
    const record = await client.add({ name: 'hook', data: { ok: true }, statusCode: 202 });
    expect(record).toEqual({ name: 'hook', data: { ok: true }, statusCode: 202, delay: 0 });
    const response = await client.read('hook');
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('put creates then replaces and says which', async () => {
    expect(await client.put('p', { data: 1 })).toEqual({
      name: 'p',
      data: 1,
      statusCode: 200,
      delay: 0,
      created: true,
    });
    expect(await client.put('p', { data: 2, statusCode: 500 })).toEqual({
      name: 'p',
      data: 2,
      statusCode: 500,
      delay: 0,
      created: false,
    });
    expect((await client.read('p')).status).toBe(500);
  });

  it('get, list, remove and reset', async () => {
    for (const name of ['c', 'a', 'b']) await client.add({ name, data: name });
    expect(await client.get<string>('a')).toEqual({ name: 'a', data: 'a', statusCode: 200, delay: 0 });
    const first = await client.list({ limit: 2 });
    expect(first.endpoints.map((e) => e.name)).toEqual(['a', 'b']);
    expect(first.next).toBe('b');
    const second = await client.list({ limit: 2, after: first.next ?? undefined });
    expect(second).toEqual({ endpoints: [{ name: 'c', data: 'c', statusCode: 200, delay: 0 }], next: null, total: 3 });
    expect((await client.list()).endpoints).toHaveLength(3);
    await client.remove('b');
    expect((await client.list()).endpoints.map((e) => e.name)).toEqual(['a', 'c']);
    await client.reset();
    expect(await client.list()).toEqual({ endpoints: [], next: null, total: 0 });
  });

  it('throws the server error as a MockpointError with its code and status', async () => {
    await client.add({ name: 'taken', data: 1 });
    const taken = await rejection(client.add({ name: 'taken', data: 2 }));
    expect(taken).toBeInstanceOf(MockpointError);
    expect(taken).toMatchObject({ code: 'NAME_TAKEN', status: 409, message: expect.stringContaining('taken') });
    expect(await rejection(client.get('nope'))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await rejection(client.remove('nope'))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await rejection(client.put('bad', { data: 1, statusCode: 99 }))).toMatchObject({
      code: 'INVALID_STATUS_CODE',
      status: 400,
    });
    expect(await rejection(client.get('bad.name'))).toMatchObject({ code: 'INVALID_NAME', status: 400 });
    expect(await rejection(client.list({ limit: 0 }))).toMatchObject({ code: 'INVALID_QUERY', status: 400 });
  });

  it('requests and clearRequests read and clear the journal', async () => {
    await client.read('j', { method: 'POST', body: JSON.stringify({ n: 1 }), headers: { 'x-k': 'v' } });
    await client.read('j', { method: 'GET' });
    const requests = await client.requests('j');
    expect(requests.map((r) => [r.method, r.statusCode])).toEqual([
      ['POST', 404],
      ['GET', 404],
    ]);
    expect(requests[0]).toMatchObject({ json: { n: 1 }, body: '{"n":1}' });
    expect(requests[0]?.headers['x-k']).toBe('v');
    await client.clearRequests('j');
    expect(await client.requests('j')).toEqual([]);
  });

  it('waitForRequests resolves when the webhook arrives', async () => {
    await client.add({ name: 'wh', data: { received: true } });
    let resolvedAt = 0;
    const waiting = client.waitForRequests('wh', { count: 2, timeout: 5000 }).then((requests) => {
      resolvedAt = performance.now();
      return requests;
    });
    // Held server-side: the long-poll is waiting, not polling.
    await vi.waitFor(() => expect(app.mockpoint.journal.waiterCount).toBe(1), { timeout: 5000 });
    await client.read('wh', { method: 'POST', body: '{"event":1}' });
    // Recorded (and waiters woken) before it was answered: the long-poll for two still waits.
    expect(app.mockpoint.journal.waiterCount).toBe(1);
    expect(resolvedAt).toBe(0);
    const sentAt = performance.now();
    await client.read('wh', { method: 'POST', body: '{"event":2}' });
    const requests = await waiting;
    expect(resolvedAt - sentAt).toBeLessThan(200);
    expect(requests.map((r) => r.json)).toEqual([{ event: 1 }, { event: 2 }]);
  });

  it('requests and waitForRequests with after count only newer requests', async () => {
    await client.read('seq', { method: 'POST', body: '1' });
    const [first] = await client.requests('seq');
    const waiting = client.waitForRequests('seq', { after: first!.id, timeout: 5000 });
    await vi.waitFor(() => expect(app.mockpoint.journal.waiterCount).toBe(1), { timeout: 5000 });
    await client.read('seq', { method: 'POST', body: '2' });
    expect((await waiting).map((r) => r.json)).toEqual([2]);
    expect((await client.requests('seq', { after: first!.id })).map((r) => r.json)).toEqual([2]);
  });

  it('waitForRequests throws WAIT_TIMEOUT saying what arrived', async () => {
    await client.read('late', { method: 'PATCH' });
    const started = performance.now();
    const error = await rejection(client.waitForRequests('late', { count: 2, timeout: 300 }));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'WAIT_TIMEOUT', status: 408 });
    expect((error as Error).message).toContain('expected 2 request(s) to "late" within 300 ms');
    expect((error as Error).message).toContain('received 1 (PATCH /endpoint/late)');
    // Both bounds are the behaviour: the 300 ms timeout is kept (never sooner), and not held longer; generous.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    const none = await rejection(client.waitForRequests('silent', { timeout: 50 }));
    expect((none as Error).message).toContain('received 0 (none)');
  });

  it('health and endpointUrl', async () => {
    expect(await client.health()).toEqual({
      status: 'ok',
      version: VERSION,
      store: 'memory',
      longPolls: 0,
      limits: EXPECTED_DEFAULT_LIMITS,
    });
    expect(client.endpointUrl('a-b_c')).toBe(`${client.baseUrl}/endpoint/a-b_c`);
  });

  it('methods work when destructured', async () => {
    const { add, read, endpointUrl } = client;
    await add({ name: 'loose', data: 7 });
    expect(await (await read('loose')).json()).toBe(7);
    expect(endpointUrl('loose')).toMatch(/\/endpoint\/loose$/);
  });
});

describe('createClient with an admin token', () => {
  it.each(MODES)('sends the token (%s)', async (_mode, connect) => {
    const app = createApp({ adminToken: 'tok' });
    const authorized = await connect(app, 'tok');
    const anonymous = await connect(app);
    const wrong = await connect(app, 'nope');
    try {
      await authorized.client.add({ name: 'x', data: 1 });
      await authorized.client.clearRequests('x');
      const refused = await rejection(anonymous.client.put('x', { data: 2 }));
      expect(refused).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      expect(await rejection(wrong.client.reset())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      // Reads stay open without it.
      expect((await anonymous.client.get('x')).data).toBe(1);
      await authorized.client.reset();
    } finally {
      await authorized.stop();
      await anonymous.stop();
      await wrong.stop();
    }
  });

  it('puts it in the Authorization header of API calls only', async () => {
    const seen: [string, string | null][] = [];
    const app = createApp();
    const client = createClient({
      baseUrl: 'http://mockpoint.test',
      token: 'abc',
      fetch: async (request) => {
        seen.push([new URL(request.url).pathname, request.headers.get('authorization')]);
        return app.fetch(request);
      },
    });
    await client.add({ name: 'h', data: 1 });
    await client.read('h');
    expect(seen).toEqual([
      ['/api/endpoint/add', 'Bearer abc'],
      ['/endpoint/h', null],
    ]);
  });
});

/**
 * A client whose server holds every long-poll for its full `wait` (moving the
 * faked clock on by as much) and never sees a request; `waits` lists each poll's wait.
 */
function neverArriving() {
  const waits: number[] = [];
  const client = createClient({
    baseUrl: 'http://mockpoint.test',
    fetch: async (request) => {
      const wait = Number(new URL(request.url).searchParams.get('wait'));
      waits.push(wait);
      vi.setSystemTime(Date.now() + wait);
      return Response.json({ requests: [], complete: false });
    },
  });
  return { client, waits };
}

describe('createClient errors', () => {
  it('throws ConnectionError (CONNECTION_FAILED, names the URL) when nothing listens', async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const client = createClient({ baseUrl });
    for (const [call, path] of [
      [() => client.health(), '/api/health'],
      [() => client.add({ name: 'a', data: 1 }), '/api/endpoint/add'],
      [() => client.read('a'), '/endpoint/a'],
    ] as const) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).not.toBeInstanceOf(MockpointError);
      expect(isMockpointError(error)).toBe(false);
      expect(error).toMatchObject({ name: 'ConnectionError', code: 'CONNECTION_FAILED', url: `${baseUrl}${path}` });
      expect((error as Error).message).toContain(`${baseUrl}${path}`);
      expect((error as Error).cause).toBeDefined();
    }
  });

  it('wraps transport errors that carry a string code of their own (as Bun fetch errors do)', async () => {
    // Bun rejects fetch with an Error whose `code` is e.g. 'ECONNREFUSED' (no TypeError, no cause).
    const refused = Object.assign(new Error('Unable to connect. Is the computer able to access the url?'), {
      code: 'ECONNREFUSED',
    });
    const client = createClient({ baseUrl: 'http://x.test', fetch: async () => Promise.reject(refused) });
    for (const [call, path] of [
      [() => client.health(), '/api/health'],
      [() => client.read('a'), '/endpoint/a'],
    ] as const) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ code: 'CONNECTION_FAILED', url: `http://x.test${path}` });
      expect((error as Error).cause).toBe(refused);
      expect((error as Error).message).toContain('Unable to connect');
    }
  });

  it("passes mockpoint's own errors through unchanged (not as ConnectionError)", async () => {
    // Like the Vitest package's MockServerError of a closed in-process server.
    const closed = Object.assign(new Error('the mock server is closed'), { code: 'SERVER_CLOSED', [OWN_ERROR]: true });
    const own = new MockpointError('STORE_UNAVAILABLE', 'store closed');
    for (const error of [closed, own]) {
      const client = createClient({ baseUrl: 'http://x.test', fetch: async () => Promise.reject(error) });
      expect(await rejection(client.health())).toBe(error);
      expect(await rejection(client.read('a'))).toBe(error);
    }
    expect(isOwnError(closed)).toBe(true);
    expect(isOwnError(new ConnectionError('http://x.test', new Error('x')))).toBe(true);
    expect(isOwnError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isOwnError({ [Symbol('mockpoint.ownError')]: true })).toBe(false);
  });

  it('waitForRequests stops when its signal aborts, cancelling the pending long-poll', async () => {
    const app = createApp();
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    const controller = new AbortController();
    const waiting = rejection(client.waitForRequests('never', { timeout: 30_000, signal: controller.signal }));
    await vi.waitFor(() => expect(app.mockpoint.journal.waiterCount).toBe(1), { timeout: 5000 });
    controller.abort(new Error('gave up'));
    const error = await waiting;
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(app.mockpoint.journal.waiterCount).toBe(0);
  });

  it('waitForRequests gives up after 4 s by default, under Vitest 5 s test timeout', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { client, waits } = neverArriving();
      const error = await rejection(client.waitForRequests('x'));
      expect(error).toMatchObject({ code: 'WAIT_TIMEOUT' });
      expect((error as Error).message).toContain('within 4000 ms');
      expect(waits).toEqual([4000]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throws UNEXPECTED_RESPONSE for an answer without a mockpoint error body', async () => {
    const client = createClient({
      baseUrl: 'http://proxy.test',
      fetch: async () => new Response('<html>Bad Gateway</html>', { status: 502 }),
    });
    const error = await rejection(client.health());
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 502 });
    expect((error as Error).message).toContain('Bad Gateway');
  });

  it('trims a trailing slash and keeps a path prefix of the base URL', async () => {
    const seen: string[] = [];
    const app = createApp();
    const client = createClient({
      baseUrl: 'http://proxy.test/mock/',
      fetch: async (request) => {
        seen.push(request.url);
        const url = new URL(request.url);
        return app.fetch(new Request(`http://x${url.pathname.replace(/^\/mock/, '')}${url.search}`, request));
      },
    });
    expect(client.baseUrl).toBe('http://proxy.test/mock');
    expect(client.endpointUrl('a b')).toBe('http://proxy.test/mock/endpoint/a%20b');
    await client.health();
    expect(seen).toEqual(['http://proxy.test/mock/api/health']);
  });

  it('waitForRequests chains long-polls of at most 60 s until its timeout', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { client, waits } = neverArriving();
      const error = await rejection(client.waitForRequests('x', { timeout: 150_000 }));
      expect(error).toMatchObject({ code: 'WAIT_TIMEOUT' });
      expect(waits).toEqual([60_000, 60_000, 30_000]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('exact data', () => {
  it('sends a JsonText as its own text, and dataText reads the stored text back exactly', async () => {
    const client = createClient({ baseUrl: 'http://mockpoint.test', app: createApp() });
    const exact = '{"b":1,"2":2,"id":12345678901234567890,"n":9007199254740993,"x":1e400,"z":-0}';
    await client.add({ name: 'exact', data: JsonText.parse(exact), statusCode: 201 });
    expect(await client.dataText('exact')).toBe(exact);
    expect(await (await client.read('exact')).text()).toBe(exact);
    await client.put('exact', { data: new JsonText('[9007199254740993]') });
    expect(await client.dataText('exact')).toBe('[9007199254740993]');
    // The parsed form rounds what a double cannot hold: the documented caveat.
    expect((await client.get<number[]>('exact')).data).toEqual([9007199254740992]);
  });

  it('getExact reads the record with its data as the stored text, escapes and key order kept', async () => {
    const client = createClient({ baseUrl: 'http://mockpoint.test', app: createApp() });
    const exact = '{"b":1.0,"2":"\\u00e9\\ud83d\\ude00","id":12345678901234567890,"z":-0}';
    await client.add({ name: 'exact', data: JsonText.parse(exact), statusCode: 202, delay: 3 });
    const record = await client.getExact('exact');
    expect(record).toEqual({ name: 'exact', data: expect.any(JsonText), statusCode: 202, delay: 3 });
    expect(record.data.text).toBe(exact);
    await expect(client.getExact('missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
