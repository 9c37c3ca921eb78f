import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer, MockServerError } from '../src/index.js';

/** Resolves true when something accepts TCP connections on 127.0.0.1:port. */
async function isListening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/api/health`);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once a fresh listener could bind the port (i.e. nothing holds it). */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('createMockServer', () => {
  const open: MockServer[] = [];
  afterAll(async () => {
    await Promise.all(open.map((server) => server.close()));
  });
  async function start(options?: Parameters<typeof createMockServer>[0]): Promise<MockServer> {
    const server = await createMockServer(options);
    open.push(server);
    return server;
  }

  it('listens on 127.0.0.1 on a free port with a memory store', async () => {
    const mock = await start();
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    expect(mock.port).toBeGreaterThan(0);
    expect(mock.dir).toBeUndefined();
    expect(await mock.health()).toMatchObject({ status: 'ok', store: 'memory' });
  });

  it('serves what add() stored over real HTTP and records the requests', async () => {
    const mock = await start();
    const hook = await mock.add({ name: 'hook', data: { id: 7 }, statusCode: 202 });
    expect(hook.url).toBe(`${mock.url}/endpoint/hook`);
    expect(hook).toMatchObject({ name: 'hook', data: { id: 7 }, statusCode: 202, delay: 0 });

    const response = await fetch(hook.url, { method: 'POST', body: JSON.stringify({ sent: true }) });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ id: 7 });

    const [request] = await hook.requests();
    expect(request).toMatchObject({ method: 'POST', path: '/endpoint/hook', json: { sent: true } });
    await hook.clearRequests();
    expect(await hook.requests()).toEqual([]);
  });

  it('gives each instance its own port and its own endpoints', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a!.port).not.toBe(b!.port);
    await a!.add({ name: 'same', data: 'a' });
    await b!.add({ name: 'same', data: 'b' });
    expect(await (await fetch(a!.endpointUrl('same'))).json()).toBe('a');
    expect(await (await fetch(b!.endpointUrl('same'))).json()).toBe('b');
  });

  it('replace() changes what the endpoint answers and updates the handle', async () => {
    const mock = await start();
    const flaky = await mock.add({ name: 'flaky', data: { ok: false }, statusCode: 500 });
    expect((await fetch(flaky.url)).status).toBe(500);
    await flaky.replace({ data: { ok: true } });
    expect(flaky).toMatchObject({ data: { ok: true }, statusCode: 200 });
    const response = await fetch(flaky.url);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('endpoint() returns a handle for an existing endpoint, and NOT_FOUND otherwise', async () => {
    const mock = await start();
    await mock.put('existing', { data: [1, 2] });
    const handle = await mock.endpoint<number[]>('existing');
    expect(handle.data).toEqual([1, 2]);
    await expect(mock.endpoint('missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await handle.remove();
    expect((await fetch(handle.url)).status).toBe(404);
  });

  it('api() sets routes on a name without a record; its handle manages them and gives URLs below the name', async () => {
    const mock = await start();
    const github = await mock.api('github', [
      { id: 'repo', match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { full: 'a/b' } } },
    ]);
    expect(github.url).toBe(`${mock.url}/endpoint/github`);
    expect(github.urlFor('/repos/a/b')).toBe(`${mock.url}/endpoint/github/repos/a/b`);
    expect(await (await fetch(github.urlFor('/repos/a/b'))).json()).toEqual({ full: 'a/b' });

    await github.addRoutes([{ id: 'teapot', match: { path: '/tea' }, answer: { statusCode: 418 } }]);
    expect((await github.routes()).map((route) => route.id)).toEqual(['repo', 'teapot']);
    expect((await fetch(github.urlFor('tea'))).status).toBe(418);
    await github.removeRoute('teapot');
    expect((await fetch(github.urlFor('/tea'))).status).toBe(404);
    await github.setRoutes([{ id: 'all', answer: { body: 'any' } }]);
    expect(await (await fetch(github.urlFor('/repos/a/b'))).text()).toBe('any');
    const [first] = await github.requests();
    expect(first).toMatchObject({ subpath: '/repos/a/b', answeredBy: { route: 'repo' } });
    await github.clearRoutes();
    expect(await github.routes()).toEqual([]);
    // api() without routes leaves the ones there are.
    await mock.setRoutes('github', [{ id: 'kept', answer: {} }]);
    expect((await (await mock.api('github')).routes()).map((route) => route.id)).toEqual(['kept']);
  });

  it('an endpoint handle has routes too; replace() keeps them, remove() drops them', async () => {
    const mock = await start();
    const users = await mock.add<number[]>({ name: 'users', data: [] });
    await users.setRoutes([{ match: { path: '/:id' }, answer: { template: true, data: { id: '{{params.id}}' } } }]);
    expect(await (await fetch(users.urlFor('/7'))).json()).toEqual({ id: '7' });
    await users.replace({ data: [1] });
    expect(await (await fetch(users.urlFor('/8'))).json()).toEqual({ id: '8' });
    expect(await (await fetch(users.url)).json()).toEqual([1]);
    await users.remove();
    expect(await users.routes()).toEqual([]);
  });

  it('reset() removes endpoints and recorded requests', async () => {
    const mock = await start();
    const hook = await mock.add({ name: 'hook', data: 1 });
    await fetch(hook.url);
    await mock.reset();
    expect((await mock.list()).endpoints).toEqual([]);
    expect(await hook.requests()).toEqual([]);
  });

  it('adminToken: writes without the token get 401, the handle sends it', async () => {
    const mock = await start({ adminToken: 'test-secret' });
    const put = (headers: Record<string, string> = {}) =>
      fetch(`${mock.url}/api/endpoints/raw`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ data: 'raw' }),
      });
    const refused = await put();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect((await put({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await fetch(`${mock.url}/api/endpoints/raw`)).status).toBe(404);

    const hook = await mock.add({ name: 'hook', data: { ok: true } });
    expect(await (await fetch(hook.url)).json()).toEqual({ ok: true });
    await hook.replace({ data: { ok: false } });
    await mock.reset();
    expect((await mock.list()).endpoints).toEqual([]);
    expect((await put({ authorization: 'Bearer test-secret' })).ok).toBe(true);
  });

  it('journalMaxBytes bounds the recorded requests', async () => {
    const body = 'x'.repeat(4096);
    const small = await start({ journalMaxBytes: 16 * 1024 });
    const roomy = await start();
    for (const mock of [small, roomy]) {
      const hook = await mock.add({ name: 'hook', data: null });
      for (let i = 0; i < 10; i++) await fetch(hook.url, { method: 'POST', body });
    }
    const kept = (await small.requests('hook')).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(5);
    expect(await roomy.requests('hook')).toHaveLength(10);
  });

  it("read() passes the caller's AbortSignal on to the in-process request", async () => {
    const mock = await start();
    const slow = await mock.add({ name: 'slow', data: 1, delay: 30_000 });
    const caller = new AbortController();
    const pending = mock.read('slow', { signal: caller.signal });
    await slow.waitForRequests();
    caller.abort();
    // The app answers 499 when the client goes away; without the signal it would wait 30 s.
    expect((await pending).status).toBe(499);
  });

  it('close() frees the port, is idempotent, and later calls fail with SERVER_CLOSED', async () => {
    const mock = await createMockServer();
    await mock.add({ name: 'a', data: 1 });
    expect(await isListening(mock.port)).toBe(true);
    const first = mock.close();
    expect(mock.close()).toBe(first);
    await first;
    await mock.close();
    expect(await isListening(mock.port)).toBe(false);
    expect(await canBind(mock.port)).toBe(true);

    // The client passes the error on as it is (not wrapped in a CONNECTION_FAILED ConnectionError).
    const error = await mock.get('a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockServerError);
    expect((error as MockServerError).code).toBe('SERVER_CLOSED');
    await expect(mock.add({ name: 'b', data: 2 })).rejects.toMatchObject({ code: 'SERVER_CLOSED' });
  });

  it('close() does not wait for keep-alive sockets, delayed answers or pending long-polls', async () => {
    const mock = await createMockServer();
    const slow = await mock.add({ name: 'slow', data: 1, delay: 30_000 });
    // A keep-alive connection that stays idle after its request…
    expect((await fetch(`${mock.url}/api/health`, { headers: { connection: 'keep-alive' } })).ok).toBe(true);
    // …a request that would be answered only after 30 s…
    const pendingRead = fetch(slow.url).then(
      () => 'answered',
      () => 'dropped',
    );
    await slow.waitForRequests();
    // …and a long-poll that would wait 30 s.
    const pendingWait = mock.waitForRequests('never', { timeout: 30_000 }).catch((e: unknown) => e);

    const started = Date.now();
    await mock.close();
    // The bound is the behaviour: without dropping connections close() takes 30 s (4 s for the idle keep-alive
    // connection alone); 3 s, not 2 s, leaves a busy machine room for the close itself.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await pendingRead).toBe('dropped');
    const waitError = await pendingWait;
    expect(waitError).toBeInstanceOf(MockServerError);
    expect((waitError as MockServerError).code).toBe('SERVER_CLOSED');
  });

  it('is disposed by `await using`', async () => {
    let port = 0;
    {
      await using mock = await createMockServer();
      port = mock.port;
      expect(await isListening(port)).toBe(true);
    }
    expect(await isListening(port)).toBe(false);
  });

  it('deliveryAllowHosts lets deliveries reach a host besides loopback; without it that host is refused', async () => {
    const received: string[] = [];
    const receiver = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      // 0.0.0.0 is not a loopback address by the rule, yet a connection to it reaches this machine.
      const url = `http://0.0.0.0:${(receiver.address() as AddressInfo).port}/hook`;
      const strict = await start();
      await expect(strict.deliver({ url, data: { n: 1 } })).rejects.toMatchObject({
        code: 'DELIVERY_HOST_NOT_ALLOWED',
      });

      const open = await start({ deliveryAllowHosts: ['0.0.0.0'] });
      const sent = await open.deliver({ url, data: { n: 2 } });
      const done = await open.waitForDelivery(sent.id, { timeout: 20_000 });
      expect([done.state, done.attempts[0]?.status]).toEqual(['delivered', 204]);
      expect(received).toEqual(['{"n":2}']);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("store: 'level' keeps endpoints in LevelDB in a temporary directory that close() removes", async () => {
    const mock = await createMockServer({ store: 'level' });
    try {
      expect(mock.dir).toBeDefined();
      await mock.add({ name: 'durable', data: { kept: true } });
      expect(await mock.health()).toMatchObject({ store: 'level' });
      expect(await readdir(mock.dir!)).toContain('CURRENT');
      expect(await (await fetch(mock.endpointUrl('durable'))).json()).toEqual({ kept: true });
    } finally {
      await mock.close();
    }
    expect(existsSync(mock.dir!)).toBe(false);
  });

  it("store: 'level' with a dir keeps the directory, and a later instance reads it back", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-plugin-test-'));
    try {
      const first = await createMockServer({ store: 'level', dir });
      await first.add({ name: 'durable', data: 'still here' });
      await first.close();
      expect(existsSync(dir)).toBe(true);

      await using second = await createMockServer({ store: 'level', dir });
      expect(await second.get('durable')).toMatchObject({ data: 'still here' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
