// How /api answers travel, on real sockets against the real daemon process:
// JSON answers are compressed (brotli, gzip) for clients that accept it, the
// endpoint list answers 304 to a matching If-None-Match, and neither the
// /endpoint/* answers (whose exact bytes users assert on) nor the journal's
// event stream are ever compressed, whatever the client accepts.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { addEndpoint, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they crossed the socket (never decoded). */
  bytes: Buffer;
}

/** One request with node:http, which never decodes a body: what the socket carried. */
function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const EVERY_CODING = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** A payload well past the 1 KiB threshold, with exact text the parser would change. */
const DATA_TEXT = `{"id":12345678901234567890,"b":1,"a":[${Array.from({ length: 300 }, (_, i) => `{"n":${i},"v":1.50}`).join(',')}]}`;

/** `url` read as brotli (the client accepting every coding) and as gzip: each decodes to `plain`. */
async function compressedBothWays(url: string, plain: string): Promise<{ br: Raw; gzip: Raw }> {
  const br = await raw(url, { headers: EVERY_CODING });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.bytes).toString('utf8')).toBe(plain);
  const gzip = await raw(url, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.bytes).toString('utf8')).toBe(plain);
  return { br, gzip };
}

describe('/api compression, never /endpoint', () => {
  it('sends /endpoint/* answers byte for byte, uncompressed, to a client that accepts every coding', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const put = await raw(`${daemon.url}/api/endpoints/big`, { method: 'PUT', body: `{"data":${DATA_TEXT}}` });
    expect(put.status).toBe(201);
    const routes = await raw(`${daemon.url}/api/endpoints/big/routes`, {
      method: 'PUT',
      body: `{"routes":[{"match":{"path":"/orders/:id"},"answer":{"data":${DATA_TEXT}}}]}`,
    });
    expect(routes.status).toBe(200);
    const queued = await raw(`${daemon.url}/api/endpoints/big/queue`, {
      method: 'POST',
      body: `{"answers":[{"statusCode":503,"data":${DATA_TEXT}}]}`,
    });
    expect(queued.status).toBe(201);

    for (const [method, path, status] of [
      ['POST', '/endpoint/big', 503], // the queued answer
      ['GET', '/endpoint/big', 200],
      ['POST', '/endpoint/big', 200],
      ['PUT', '/endpoint/big/', 200],
      ['GET', '/endpoint/big/orders/7', 200], // a route
    ] as const) {
      const answer = await raw(`${daemon.url}${path}`, {
        method,
        headers: EVERY_CODING,
        body: method === 'GET' ? undefined : '{}',
      });
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.headers['content-encoding'], `${method} ${path}`).toBeUndefined();
      expect(answer.headers.etag, `${method} ${path}`).toBeUndefined();
      expect(answer.bytes.toString('utf8'), `${method} ${path}`).toBe(DATA_TEXT);
    }
    const head = await raw(`${daemon.url}/endpoint/big`, { method: 'HEAD', headers: EVERY_CODING });
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(DATA_TEXT)));
    // An unknown name's 404 is an /endpoint answer too.
    const missing = await raw(`${daemon.url}/endpoint/nope`, { headers: EVERY_CODING });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a 5 kB answer, made in the same turn, to the same JSON (brotli and gzip)', async () => {
    // Under 64 KiB the daemon compresses on the main thread (api-encoders.ts); the journal below
    // takes the thread pool's way.
    const daemon = await startDaemon({ args: ['--memory'] });
    const added = await raw(`${daemon.url}/api/endpoints/small`, { method: 'PUT', body: `{"data":${DATA_TEXT}}` });
    expect(added.status).toBe(201);
    const url = `${daemon.url}/api/endpoints/small`;
    const plain = (await raw(url)).bytes.toString('utf8');
    expect(plain.length).toBeGreaterThan(4_000);
    expect(plain.length).toBeLessThan(64 * 1024);
    expect(plain).toContain(DATA_TEXT);
    await compressedBothWays(url, plain);
  });

  it('compresses a 145 kB journal (brotli, else gzip) to the same JSON, and never the event stream', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    expect((await addEndpoint(daemon.url, { name: 'hook', data: { ok: true } })).status).toBe(201);
    // 100 webhooks of about 1.5 kB each, like a busy afternoon's journal.
    for (let i = 0; i < 100; i++) {
      const body = JSON.stringify({
        type: 'order.paid',
        id: `evt_${i}`,
        data: {
          order: i,
          items: Array.from({ length: 17 }, (_, k) => ({ sku: `sku-${(i * 7 + k) % 97}`, qty: k + 1 })),
        },
      });
      const sent = await raw(`${daemon.url}/endpoint/hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'stripe-like/1.0' },
        body,
      });
      expect(sent.status).toBe(200);
    }
    const url = `${daemon.url}/api/endpoints/hook/requests`;
    const identity = await raw(url);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    const plain = identity.bytes.toString('utf8');
    expect(identity.bytes.byteLength).toBeGreaterThan(140_000);

    const { br, gzip } = await compressedBothWays(url, plain);
    console.log(
      `journal of 100 requests: ${identity.bytes.byteLength} bytes as JSON, ${gzip.bytes.byteLength} gzip, ${br.bytes.byteLength} brotli`,
    );
    expect(gzip.bytes.byteLength).toBeLessThan(identity.bytes.byteLength / 4);
    expect(br.bytes.byteLength).toBeLessThan(gzip.bytes.byteLength);

    // The event stream: open, read its first event, uncompressed, then hang up.
    const first = await new Promise<{ headers: Raw['headers']; text: string }>((resolve, reject) => {
      const req = request(
        `${daemon.url}/api/endpoints/hook/requests/stream?after=0`,
        { headers: EVERY_CODING },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            resolve({ headers: res.headers, text: chunk.toString('utf8') });
            req.destroy();
          });
        },
      );
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.end();
    });
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.text).toMatch(/^(:|event: |id: |retry: )/m);
  });

  it('the endpoint list: an ETag, and 304 with no body while it is unchanged', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    expect((await addEndpoint(daemon.url, { name: 'a', data: 1 })).status).toBe(201);
    const url = `${daemon.url}/api/endpoints?summary=true`;
    const first = await raw(url, { headers: EVERY_CODING });
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const unchanged = await raw(url, { headers: { ...EVERY_CODING, 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.bytes.byteLength).toBe(0);
    expect((await addEndpoint(daemon.url, { name: 'b', data: 2 })).status).toBe(201);
    const changed = await raw(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.bytes.toString('utf8')).total).toBe(2);
    expect(changed.headers.etag).not.toBe(etag);
  });
});
