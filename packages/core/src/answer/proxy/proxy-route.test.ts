// Proxy routes over real sockets: a local node:http upstream (no internet), the app served by the Node adapter.
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedApp, serve } from '../../adapter/node/index.js';
import type { JournalEntry } from '../../api/journal-json.js';
import { type CreateAppOptions, createApp } from '../../http/create-app.js';
import { fetchUpstream } from './upstream.js';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

interface Upstream {
  url: string;
  seen: Seen[];
  server: Server;
}

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function upstream(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<Upstream> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

async function mockpoint(
  options: CreateAppOptions = { proxyAllowHosts: ['127.0.0.1'] },
): Promise<{ url: string; served: ServedApp }> {
  const served = await serve(createApp(options), { port: 0, overrideGlobalObjects: false });
  closers.push(() => served.close({ graceMs: 0 }));
  return { url: served.url, served };
}

async function putRoutes(base: string, name: string, routes: unknown[]): Promise<Response> {
  return fetch(`${base}/api/endpoints/${name}/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
}

async function journal(base: string, name: string): Promise<JournalEntry[]> {
  const page = (await (await fetch(`${base}/api/endpoints/${name}/requests`)).json()) as { requests: JournalEntry[] };
  return page.requests;
}

async function routeIds(base: string, name: string): Promise<string[]> {
  const page = (await (await fetch(`${base}/api/endpoints/${name}/routes`)).json()) as { routes: { id: string }[] };
  return page.routes.map((route) => route.id);
}

describe('a proxy route', () => {
  it('forwards method, subpath, query, end-to-end headers and the exact body, and answers as the upstream did', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(201, [
        ['X-Upstream', 'yes'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
        ['Content-Type', 'application/json'],
      ]);
      res.end('{"id": 12345678901234567890, "n": 1.0}');
    });
    const { url } = await mockpoint();
    expect((await putRoutes(url, 'api', [{ id: 'up', answer: { proxy: { url: `${up.url}/v1` } } }])).status).toBe(200);

    const body = '{"b":2,  "a":1}';
    // node:http, not fetch: fetch will not send a Connection header naming another header.
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const sent = request(`${url}/endpoint/api/users/7?x=1&x=2`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-trace': 'abc',
          connection: 'keep-alive, x-hop',
          'x-hop': 'no',
        },
      });
      sent.once('response', resolve).once('error', reject).end(body);
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-upstream']).toBe('yes');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(Buffer.concat(await response.toArray()).toString()).toBe('{"id": 12345678901234567890, "n": 1.0}');

    const [sent] = up.seen;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/users/7?x=1&x=2');
    expect(sent?.body.toString()).toBe(body);
    const names = (sent?.rawHeaders ?? []).filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names).toContain('x-trace');
    expect(names).not.toContain('x-hop');
    const host = sent?.rawHeaders[(sent?.rawHeaders.findIndex((name) => name.toLowerCase() === 'host') ?? 0) + 1];
    expect(host).toBe(new URL(up.url).host);

    const [entry] = await journal(url, 'api');
    expect(entry?.statusCode).toBe(201);
    expect(entry?.answeredBy).toEqual({ route: 'up' });
    expect(entry?.upstream).toMatchObject({
      url: `${up.url}/v1/users/7?x=1&x=2`,
      statusCode: 201,
      headers: { 'x-upstream': 'yes', 'set-cookie': ['a=1', 'b=2'] },
    });
  });

  it.each([
    ['node:http', {}],
    ['fetch', { upstream: fetchUpstream }],
  ] as const)('sends a body that came with Expect: 100-continue without the Expect (%s upstream)', async (_, given) => {
    const up = await upstream((_req, res) => res.end('ok'));
    const { url } = await mockpoint({ proxyAllowHosts: ['127.0.0.1'], ...given });
    expect((await putRoutes(url, 'api', [{ answer: { proxy: { url: up.url } } }])).status).toBe(200);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const sent = request(`${url}/endpoint/api/upload`, { method: 'PUT', headers: { expect: '100-continue' } });
      sent.once('continue', () => sent.end('the body'));
      sent.once('response', resolve).once('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(Buffer.concat(await response.toArray()).toString()).toBe('ok');
    const names = (up.seen[0]?.rawHeaders ?? []).filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names).not.toContain('expect');
    expect(up.seen[0]?.body.toString()).toBe('the body');
  });

  it('streams the body: the first chunk reaches the client before the upstream has sent the rest', async () => {
    let finish: (() => void) | undefined;
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      finish = () => res.end('second');
    });
    const { url } = await mockpoint();
    await putRoutes(url, 'live', [{ answer: { proxy: { url: up.url } } }]);
    const response = await fetch(`${url}/endpoint/live/feed`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('first;');
    expect(finish).toBeDefined();
    finish?.();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read())
      rest += new TextDecoder().decode(next.value);
    expect(rest).toBe('second');
  });

  it("journals what was relayed: the upstream's headers and its body's bytes as passed on, the first 64 KiB of a longer one", async () => {
    const big = Buffer.alloc(100 * 1024, 0xfe);
    const up = await upstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-up': '1' });
      if (req.url === '/big') {
        res.write(big.subarray(0, 1000));
        res.end(big.subarray(1000));
      } else res.end(Buffer.from([0xff, 0x00, 0x41]));
    });
    const { url } = await mockpoint();
    await putRoutes(url, 'relay', [{ answer: { proxy: { url: up.url } } }]);
    expect(Buffer.from(await (await fetch(`${url}/endpoint/relay/small`)).arrayBuffer())).toEqual(
      Buffer.from([0xff, 0x00, 0x41]),
    );
    expect((await (await fetch(`${url}/endpoint/relay/big`)).arrayBuffer()).byteLength).toBe(big.byteLength);
    const [small, long] = await journal(url, 'relay');
    expect(small?.response).toMatchObject({
      headers: { 'x-up': '1' },
      body: '/wBB',
      bodyEncoding: 'base64',
      bodySize: 3,
      bodyTruncated: false,
    });
    expect(long?.response).toMatchObject({ bodySize: big.byteLength, bodyTruncated: true, bodyEncoding: 'base64' });
    expect(Buffer.from(long?.response?.body ?? '', 'base64')).toEqual(big.subarray(0, 64 * 1024));
  });

  it('follows no redirect: a 3xx is the answer', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
    });
    const { url } = await mockpoint();
    await putRoutes(url, 'r', [{ answer: { proxy: { url: up.url } } }]);
    const response = await fetch(`${url}/endpoint/r/go`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://169.254.169.254/latest/meta-data');
    expect(up.seen).toHaveLength(1);
  });

  it('answers 502 UPSTREAM_FAILED with the reason when the upstream cannot be reached', async () => {
    const gone = await upstream(() => undefined);
    gone.server.close();
    await new Promise((resolve) => gone.server.once('close', resolve));
    const { url } = await mockpoint();
    await putRoutes(url, 'down', [{ answer: { proxy: { url: gone.url } } }]);
    const response = await fetch(`${url}/endpoint/down/x`);
    expect(response.status).toBe(502);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(error.message).toContain('ECONNREFUSED');
    const [entry] = await journal(url, 'down');
    expect(entry?.statusCode).toBe(502);
    expect(entry?.upstream).toMatchObject({ error: 'UPSTREAM_FAILED' });
  });

  it('answers 504 UPSTREAM_TIMEOUT when the upstream sends no headers within timeoutMs', async () => {
    const up = await upstream(() => undefined); // never answers
    const { url } = await mockpoint();
    await putRoutes(url, 'slow', [{ answer: { proxy: { url: up.url, timeoutMs: 300 } } }]);
    const response = await fetch(`${url}/endpoint/slow`);
    expect(response.status).toBe(504);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_TIMEOUT');
  });
});

describe("a proxied request body past the journal's copy (64 KiB)", () => {
  /** 1 MiB of bytes that are not UTF-8 text, so nothing on the way may decode them. */
  function bigBody(size = 1024 * 1024): Buffer {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 251 + (i >> 8)) & 0xff;
    return bytes;
  }

  it('reaches the upstream byte for byte, up to the body limit (Node adapter)', async () => {
    const up = await upstream((_req, res, body) => res.end(String(body.byteLength)));
    const { url } = await mockpoint();
    await putRoutes(url, 'big', [{ id: 'up', answer: { proxy: { url: up.url } } }]);
    // A first request makes the name known here (no signature check), as on a running daemon.
    expect((await fetch(`${url}/endpoint/big/warm`, { method: 'POST', body: 'x' })).status).toBe(200);
    const body = bigBody();
    const response = await fetch(`${url}/endpoint/big/upload`, { method: 'POST', body });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(String(body.byteLength));
    expect(up.seen[1]?.body.equals(body)).toBe(true);
    const [, entry] = await journal(url, 'big');
    // The journal keeps its first bytes only, as for any request.
    expect(entry).toMatchObject({ statusCode: 200, bodyTruncated: true, answeredBy: { route: 'up' } });
  });

  it('reaches the upstream byte for byte through the Fetch route too (Bun, Deno, workerd)', async () => {
    const up = await upstream((_req, res, body) => res.end(String(body.byteLength)));
    const app = createApp({ proxyAllowHosts: ['127.0.0.1'] });
    await app.request('/api/endpoints/big/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { proxy: { url: up.url } } }] }),
    });
    expect((await app.request('/endpoint/big/warm', { method: 'PUT', body: 'x' })).status).toBe(200);
    const body = bigBody();
    const response = await app.request('/endpoint/big/upload', { method: 'PUT', body });
    expect(response.status).toBe(200);
    expect(up.seen[1]?.body.equals(body)).toBe(true);
  });

  it('records a 70 KB POST with its whole body, and replays it', async () => {
    const up = await upstream((_req, res, body) => res.end(`got ${body.byteLength}`));
    const { url } = await mockpoint();
    await putRoutes(url, 'rec', [{ id: 'proxy', answer: { proxy: { url: up.url, record: true } } }]);
    const body = JSON.stringify({ text: 'y'.repeat(70_000) });
    const ask = () => fetch(`${url}/endpoint/rec/big`, { method: 'POST', body });
    expect(await (await ask()).text()).toBe(`got ${body.length}`);
    await expect.poll(() => routeIds(url, 'rec')).toHaveLength(2);
    const again = await ask();
    expect([again.status, await again.text()]).toEqual([200, `got ${body.length}`]);
    expect(up.seen).toHaveLength(1);
    const [recorded] = await routeIds(url, 'rec');
    expect((await journal(url, 'rec'))[1]?.answeredBy).toEqual({ route: recorded });
  });

  it('answers 413 BODY_TOO_LARGE past the body limit, and the upstream is not reached', async () => {
    const up = await upstream((_req, res) => res.end('reached'));
    const { url } = await mockpoint({ proxyAllowHosts: ['127.0.0.1'], maxBodyBytes: 256 * 1024 });
    await putRoutes(url, 'big', [{ answer: { proxy: { url: up.url } } }]);
    const response = await fetch(`${url}/endpoint/big/upload`, { method: 'POST', body: bigBody(300 * 1024) });
    expect(response.status).toBe(413);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('BODY_TOO_LARGE');
    expect(error.message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    expect(up.seen).toHaveLength(0);
  });
});

describe('proxy safety', () => {
  it('is off unless hosts are allowed: a proxy route is refused with PROXY_HOST_NOT_ALLOWED', async () => {
    const { url } = await mockpoint({});
    const response = await putRoutes(url, 'p', [{ answer: { proxy: { url: 'http://127.0.0.1:9/' } } }]);
    expect(response.status).toBe(403);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('PROXY_HOST_NOT_ALLOWED');
    expect(error.message).toContain('MOCKPOINT_PROXY_ALLOW_HOSTS');
  });

  it('refuses a host that is not listed', async () => {
    const { url } = await mockpoint({ proxyAllowHosts: ['api.example.com'] });
    const response = await putRoutes(url, 'p', [{ answer: { proxy: { url: 'https://evil.example.net/' } } }]);
    expect(response.status).toBe(403);
  });

  it('refuses a listed name that resolves to a loopback address unless the address is listed (DNS checked)', async () => {
    const up = await upstream((_req, res) => res.end('secret'));
    const port = new URL(up.url).port;
    const { url } = await mockpoint({ proxyAllowHosts: ['localhost'] });
    expect((await putRoutes(url, 'p', [{ answer: { proxy: { url: `http://localhost:${port}` } } }])).status).toBe(200);
    const response = await fetch(`${url}/endpoint/p/x`);
    expect(response.status).toBe(403);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('PROXY_HOST_NOT_ALLOWED');
    expect(error.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(up.seen).toHaveLength(0);
  });

  it('refuses a loopback address literal when only a name rule is listed', async () => {
    const { url } = await mockpoint({ proxyAllowHosts: ['.0.0.1'] });
    await putRoutes(url, 'p', [{ answer: { proxy: { url: 'http://127.0.0.1:9' } } }]);
    const response = await fetch(`${url}/endpoint/p`);
    expect(response.status).toBe(403);
  });

  it('refuses other fields beside a proxy, and a URL with a query, with INVALID_PROXY', async () => {
    const { url } = await mockpoint();
    for (const answer of [
      { statusCode: 200, proxy: { url: 'http://127.0.0.1:9' } },
      { proxy: { url: 'http://127.0.0.1:9/?a=1' } },
      { proxy: { url: 'ftp://127.0.0.1/' } },
    ]) {
      const response = await putRoutes(url, 'p', [{ answer }]);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_PROXY');
    }
  });
});

describe('recording', () => {
  interface StoredRoute {
    id: string;
    match: Record<string, unknown>;
    answer: Record<string, unknown>;
  }

  async function routes(base: string, name: string): Promise<StoredRoute[]> {
    return ((await (await fetch(`${base}/api/endpoints/${name}/routes`)).json()) as { routes: StoredRoute[] }).routes;
  }

  it('keeps each distinct request as a route in front of the proxy, which then answers it without the upstream', async () => {
    const up = await upstream((req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.url ?? '' });
      res.end(`{"echo":${JSON.stringify(body.toString())},"big":12345678901234567890}`);
    });
    const { url } = await mockpoint();
    await putRoutes(url, 'rec', [{ id: 'proxy', answer: { proxy: { url: up.url, record: true } } }]);

    const ask = () => fetch(`${url}/endpoint/rec/orders?page=2`, { method: 'POST', body: '{"n":1}' });
    const first = await ask();
    const firstText = await first.text();
    expect(firstText).toBe('{"echo":"{\\"n\\":1}","big":12345678901234567890}');
    await expect.poll(() => routeIds(url, 'rec')).toHaveLength(2);
    const [recorded] = await routes(url, 'rec');
    expect(recorded?.id).toMatch(/^rec-[0-9a-f]{12}$/);
    expect(recorded?.match).toEqual({ method: 'POST', path: '/orders', query: { page: '2' }, body: '{"n":1}' });
    expect(recorded?.answer).toMatchObject({ statusCode: 200, headers: { 'x-seen': '/orders?page=2' } });

    const again = await ask();
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(firstText);
    expect(up.seen).toHaveLength(1);
    const entries = await journal(url, 'rec');
    expect(entries[1]?.answeredBy).toEqual({ route: recorded?.id });

    // Another body is another request: it goes upstream and is recorded too.
    await (await fetch(`${url}/endpoint/rec/orders?page=2`, { method: 'POST', body: '{"n":2}' })).text();
    expect(up.seen).toHaveLength(2);
    await expect.poll(() => routeIds(url, 'rec')).toHaveLength(3);
    // The same request twice records once.
    await (await ask()).text();
    expect(await routeIds(url, 'rec')).toHaveLength(3);
  });

  it('keeps the exact bytes: pretty JSON as text, binary as base64', async () => {
    const binary = Buffer.from([0, 255, 1, 254, 128]);
    const up = await upstream((req, res) => {
      if (req.url === '/bin') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(binary);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{ "spaced": 1.50 }');
      }
    });
    const { url } = await mockpoint();
    await putRoutes(url, 'exact', [{ id: 'proxy', answer: { proxy: { url: up.url, record: true } } }]);
    const bin = Buffer.from(await (await fetch(`${url}/endpoint/exact/bin`)).arrayBuffer());
    const json = await (await fetch(`${url}/endpoint/exact/json`)).text();
    await expect.poll(() => routeIds(url, 'exact')).toHaveLength(3);
    const replayedBin = Buffer.from(await (await fetch(`${url}/endpoint/exact/bin`)).arrayBuffer());
    const replayedJson = await (await fetch(`${url}/endpoint/exact/json`)).text();
    expect(up.seen).toHaveLength(2);
    expect(replayedBin.equals(binary)).toBe(true);
    expect(bin.equals(binary)).toBe(true);
    expect(replayedJson).toBe('{ "spaced": 1.50 }');
    expect(json).toBe(replayedJson);
  });

  it('never writes Authorization, Cookie, Set-Cookie, X-Api-Key or a redact header into a recording', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, [
        ['Set-Cookie', 'session=s3cr3t'],
        ['X-Token', 'tok-123'],
        ['X-Plain', 'ok'],
      ]);
      res.end('hi');
    });
    const { url } = await mockpoint();
    await putRoutes(url, 'sec', [
      {
        id: 'proxy',
        answer: {
          proxy: {
            url: up.url,
            record: true,
            redact: ['X-Token'],
            matchHeaders: ['authorization', 'x-api-key', 'accept'],
          },
        },
      },
    ]);
    const response = await fetch(`${url}/endpoint/sec/me`, {
      headers: { authorization: 'Bearer live-key', cookie: 'c=1', 'x-api-key': 'k-1', accept: 'text/plain' },
    });
    expect(response.headers.get('set-cookie')).toBe('session=s3cr3t');
    await response.text();
    await expect.poll(() => routeIds(url, 'sec')).toHaveLength(2);
    const text = JSON.stringify(await routes(url, 'sec'));
    for (const secret of ['s3cr3t', 'tok-123', 'live-key', 'c=1', 'k-1']) expect(text).not.toContain(secret);
    const [recorded] = await routes(url, 'sec');
    expect(recorded?.answer.headers).toMatchObject({ 'x-plain': 'ok' });
    expect(Object.keys(recorded?.answer.headers ?? {})).not.toContain('set-cookie');
    expect(Object.keys(recorded?.answer.headers ?? {})).not.toContain('x-token');
    expect(recorded?.match.headers).toEqual({ accept: 'text/plain' });
    // The replay (the recorded route now answers first) sends no secret and no placeholder for it.
    const replay = await fetch(`${url}/endpoint/sec/me`, { headers: { accept: 'text/plain' } });
    expect(await replay.text()).toBe('hi');
    expect(replay.headers.get('x-plain')).toBe('ok');
    expect(replay.headers.get('set-cookie')).toBeNull();
    expect(replay.headers.get('x-token')).toBeNull();
  });

  it('fails closed once the proxy route is gone: an unrecorded request is 404 NO_ROUTE_MATCHED, the upstream untouched', async () => {
    const up = await upstream((_req, res) => res.end('live'));
    const { url } = await mockpoint();
    await putRoutes(url, 'r', [{ id: 'proxy', answer: { proxy: { url: up.url, record: true } } }]);
    await (await fetch(`${url}/endpoint/r/known`)).text();
    await expect.poll(() => routeIds(url, 'r')).toHaveLength(2);
    expect((await fetch(`${url}/api/endpoints/r/routes/proxy`, { method: 'DELETE' })).status).toBe(204);

    expect(await (await fetch(`${url}/endpoint/r/known`)).text()).toBe('live');
    const miss = await fetch(`${url}/endpoint/r/unknown`);
    expect(miss.status).toBe(404);
    const error = ((await miss.json()) as { error: { code: string; details: { nearMisses: { id: string }[] } } }).error;
    expect(error.code).toBe('NO_ROUTE_MATCHED');
    expect(error.details.nearMisses[0]?.id).toMatch(/^rec-/);
    expect(up.seen).toHaveLength(1);
  });
});
