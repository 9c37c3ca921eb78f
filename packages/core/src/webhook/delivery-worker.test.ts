import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../api/delivery-json.js';
import { createApp, type MockpointApp } from '../http/create-app.js';
import type { DeliverySend } from './delivery-send.js';
import { nodeDeliverySend } from './node-delivery-send.js';

const SECRET_KEY = Buffer.from('a test key of thirty-two bytes!!');
const SECRET = `whsec_${SECRET_KEY.toString('base64')}`;

interface Received {
  headers: IncomingMessage['headers'];
  body: Buffer;
  at: number;
}

type Answer = (received: Received, res: ServerResponse) => void;

/** A real receiver on 127.0.0.1: records every request and answers with `answer`. */
async function receiver(answer: Answer): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const one = { headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      received.push(one);
      answer(one, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

/**
 * Standard Webhooks, checked here with node:crypto alone (not mockpoint's module):
 * HMAC-SHA256 of "id.timestamp.body" under the key, base64, within 300 s.
 */
function verifyStandard(received: Received, seen?: Set<string>): { ok: boolean; why: string } {
  const id = String(received.headers['webhook-id'] ?? '');
  const timestamp = String(received.headers['webhook-timestamp'] ?? '');
  const signatures = String(received.headers['webhook-signature'] ?? '').split(' ');
  const expected = createHmac('sha256', SECRET_KEY)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), received.body]))
    .digest();
  const match = signatures.some((entry) => {
    const given = Buffer.from(entry.replace(/^v1,/, ''), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) return { ok: false, why: 'signature' };
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return { ok: false, why: 'stale' };
  if (seen?.has(id)) return { ok: false, why: 'replayed' };
  seen?.add(id);
  return { ok: true, why: 'valid' };
}

/** A receiver that verifies Standard Webhooks: 204 when valid, 401 (or 409 for a replay) otherwise. */
function verifying(seen = new Set<string>()): Answer {
  return (received, res) => {
    const { ok, why } = verifyStandard(received, seen);
    res.writeHead(ok ? 204 : why === 'replayed' ? 409 : 401).end(why);
  };
}

const servers: Server[] = [];
const apps: MockpointApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.mockpoint.deliveries.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The transport of the running describe: the default (fetch), or node:http. */
let transport: (DeliverySend & { close?: () => void }) | undefined;

function newApp(options: Parameters<typeof createApp>[0] = {}): MockpointApp {
  const app = createApp({ deliverySend: transport, ...options });
  apps.push(app);
  return app;
}

async function post(app: MockpointApp, body: unknown): Promise<Response> {
  return app.request('/api/deliveries', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function deliver(app: MockpointApp, body: unknown): Promise<Delivery> {
  const response = await post(app, body);
  expect(response.status, await response.clone().text()).toBe(202);
  const accepted = (await response.json()) as Delivery;
  const done = await app.request(`/api/deliveries/${accepted.id}?wait=20000`);
  return (await done.json()) as Delivery;
}

// Every case for each transport: fetch (the default, every runtime) and node:http (the daemon's).
const TRANSPORTS: [string, () => typeof transport][] = [
  ['fetch', () => undefined],
  ['node:http', () => nodeDeliverySend()],
];
describe.each(TRANSPORTS)('POST /api/deliveries (%s)', (_, makeTransport) => {
  beforeEach(() => {
    transport = makeTransport();
  });
  afterEach(() => {
    transport?.close?.();
  });

  it('sends the exact data bytes signed with Standard Webhooks, verified by node:crypto at the receiver', async () => {
    const target = await receiver(verifying());
    const app = newApp();
    const data = '{"id":12345678901234567890,"amount":1.0,"z":1,"a":-0}';
    const delivery = await deliver(
      app,
      `{"url":"${target.url}","data":${data},"sign":{"scheme":"standard","secret":"${SECRET}"}}`,
    );
    expect(delivery.state).toBe('delivered');
    expect(delivery.outcome?.code).toBe('DELIVERED');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ n: 1, status: 204 });
    expect(target.received).toHaveLength(1);
    const [got] = target.received as [Received];
    expect(got.body.toString()).toBe(data);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(delivery.webhookId);
    expect(JSON.stringify(delivery)).not.toContain(SECRET);
  });

  it('signs stripe and github deliveries so node:crypto verifies them', async () => {
    const target = await receiver((received, res) => {
      const body = received.body.toString();
      const stripe = String(received.headers['stripe-signature'] ?? '');
      const github = String(received.headers['x-hub-signature-256'] ?? '');
      let ok = false;
      if (stripe !== '') {
        const t = /t=(\d+)/.exec(stripe)?.[1];
        const v1 = /v1=([0-9a-f]+)/.exec(stripe)?.[1];
        ok = v1 === createHmac('sha256', 'sk_stripe_secret').update(`${t}.${body}`).digest('hex');
      } else if (github !== '') {
        ok = github === `sha256=${createHmac('sha256', 'gh-secret').update(body).digest('hex')}`;
      }
      res.writeHead(ok ? 200 : 401).end();
    });
    const app = newApp();
    const stripe = await deliver(app, {
      url: target.url,
      data: { type: 'charge.succeeded' },
      sign: { scheme: 'stripe', secret: 'sk_stripe_secret' },
    });
    const github = await deliver(app, {
      url: target.url,
      body: 'payload',
      sign: { scheme: 'github', secret: 'gh-secret' },
    });
    expect([stripe.attempts[0]?.status, github.attempts[0]?.status]).toEqual([200, 200]);
    expect(target.received[1]?.headers['x-github-delivery']).toBe(github.webhookId);
  });

  it.each(['body', 'signature', 'secret', 'stale'] as const)(
    'tamper %s makes a delivery the verifying receiver rejects',
    async (tamper) => {
      const target = await receiver(verifying());
      const app = newApp();
      const delivery = await deliver(app, {
        url: target.url,
        data: { n: 1 },
        sign: { scheme: 'standard', secret: SECRET },
        tamper,
      });
      expect(delivery.state).toBe('failed');
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]).toMatchObject({
        status: 401,
        tamper,
        body: tamper === 'stale' ? 'stale' : 'signature',
      });
      // The same delivery untampered is accepted: the tamper, not the setup, made it fail.
      const clean = await deliver(app, {
        url: target.url,
        data: { n: 1 },
        sign: { scheme: 'standard', secret: SECRET },
      });
      expect(clean.attempts[0]?.status).toBe(204);
    },
  );

  it('tamper duplicate sends the delivery a second time with the same webhook-id', async () => {
    const target = await receiver(verifying());
    const delivery = await deliver(newApp(), {
      url: target.url,
      data: {},
      sign: { scheme: 'standard', secret: SECRET },
      tamper: 'duplicate',
    });
    expect(delivery.attempts.map((a) => [a.status, a.tamper])).toEqual([
      [204, undefined],
      [409, 'duplicate'],
    ]);
    expect(target.received[0]?.headers['webhook-id']).toBe(target.received[1]?.headers['webhook-id']);
    expect(delivery.state).toBe('failed');
  });

  it('retries on its schedule until a 2xx, with the same webhook-id on every attempt', async () => {
    let n = 0;
    const target = await receiver((received, res) => {
      n++;
      if (n < 3) res.writeHead(n === 1 ? 500 : 503).end('not yet');
      else verifying()(received, res);
    });
    const delivery = await deliver(newApp(), {
      url: target.url,
      data: { ok: true },
      sign: { scheme: 'standard', secret: SECRET },
      retry: { delaysMs: [10, 10, 10] },
    });
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 503, 204]);
    expect(delivery.state).toBe('delivered');
    expect(new Set(target.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('honours Retry-After, and signs each attempt with a fresh timestamp', async () => {
    let n = 0;
    const target = await receiver((received, res) => {
      n++;
      if (n === 1) res.writeHead(503, { 'retry-after': '1' }).end();
      else verifying()(received, res);
    });
    const delivery = await deliver(newApp(), {
      url: target.url,
      data: {},
      sign: { scheme: 'standard', secret: SECRET },
      retry: { delaysMs: [0] },
    });
    expect(delivery.attempts.map((a) => a.status)).toEqual([503, 204]);
    const [first, second] = target.received as [Received, Received];
    // Retry-After: 1 replaced the scheduled delay of 0.
    expect(second.at - first.at).toBeGreaterThanOrEqual(990);
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThan(Number(first.headers['webhook-timestamp']));
    expect(second.headers['webhook-signature']).not.toBe(first.headers['webhook-signature']);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
  });

  it('stops for good at 410 Gone', async () => {
    const target = await receiver((_, res) => res.writeHead(410).end());
    const delivery = await deliver(newApp(), { url: target.url, data: 1, retry: { delaysMs: [0, 0, 0] } });
    expect(delivery.state).toBe('failed');
    expect(delivery.outcome?.code).toBe('GONE');
    expect(target.received).toHaveLength(1);
  });

  it('fails when no retry is left', async () => {
    const target = await receiver((_, res) => res.writeHead(500).end());
    const delivery = await deliver(newApp(), { url: target.url, data: 1, retry: { delaysMs: [0, 0] } });
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 500]);
    expect(delivery.outcome?.code).toBe('RETRIES_EXHAUSTED');
  });

  it('records a timeout as TIMEOUT and retries it', async () => {
    let n = 0;
    const target = await receiver((_, res) => {
      if (++n === 2) res.writeHead(200).end();
      // The first request is never answered.
    });
    // 1 s: an attempt timed out before its request was even written (one CPU stall on a busy machine) would
    // leave the receiver's first, unanswered request to the retry, and the delivery would fail.
    const delivery = await deliver(newApp(), { url: target.url, data: 1, timeoutMs: 1000, retry: { delaysMs: [0] } });
    expect(delivery.attempts[0]?.error?.code).toBe('TIMEOUT');
    expect(delivery.attempts[0]?.durationMs).toBeGreaterThanOrEqual(990);
    expect(delivery.attempts[1]?.status).toBe(200);
    expect(delivery.state).toBe('delivered');
  });

  it('never follows a redirect', async () => {
    const elsewhere = await receiver((_, res) => res.writeHead(200).end());
    const target = await receiver((_, res) => res.writeHead(307, { location: elsewhere.url }).end());
    const delivery = await deliver(newApp(), { url: target.url, data: 1 });
    expect(delivery.attempts[0]).toMatchObject({ status: 307, error: { code: 'REDIRECT_NOT_FOLLOWED' } });
    expect(delivery.state).toBe('failed');
    expect(elsewhere.received).toHaveLength(0);
  });

  it("records the receiver's headers and body: 16 KiB of it kept, an endless one cut off", async () => {
    const target = await receiver((received, res) => {
      const kind = received.body.toString();
      if (kind === 'short') res.writeHead(400, { 'x-why': 'bad field' }).end('no such field: amount');
      else if (kind === 'long') res.writeHead(500).end('a'.repeat(20_000));
      else if (kind === 'none') res.writeHead(204).end();
      else {
        // Never ends: read up to 1 MiB, then the connection is dropped (not a timeout).
        res.writeHead(200);
        const chunk = 'b'.repeat(65_536);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
      }
    });
    const app = newApp();
    const short = await deliver(app, { url: target.url, body: 'short' });
    expect(short.attempts[0]).toMatchObject({ status: 400, body: 'no such field: amount' });
    expect(short.attempts[0]?.headers?.['x-why']).toBe('bad field');
    expect(short.attempts[0]?.bodyTruncated).toBeUndefined();
    const long = await deliver(app, { url: target.url, body: 'long' });
    expect(long.attempts[0]).toMatchObject({ status: 500, body: 'a'.repeat(16_384), bodyTruncated: true });
    const none = await deliver(app, { url: target.url, body: 'none' });
    expect(none.attempts[0]?.status).toBe(204);
    expect(none.attempts[0]?.body).toBeUndefined();
    const endless = await deliver(app, { url: target.url, body: 'endless', timeoutMs: 20_000 });
    expect(endless.attempts[0]).toMatchObject({ status: 200, body: 'b'.repeat(16_384), bodyTruncated: true });
    expect(endless.state).toBe('delivered');
  });

  it('records a refused connection', async () => {
    const target = await receiver(() => undefined);
    await new Promise((resolve) => target.server.close(resolve));
    const delivery = await deliver(newApp(), { url: target.url, data: 1 });
    expect(delivery.attempts[0]?.error?.code).toBe('CONNECTION_REFUSED');
  });

  it('lists deliveries newest first and cancels a pending one', async () => {
    const target = await receiver((_, res) => res.writeHead(500).end());
    const app = newApp();
    const first = await deliver(app, { url: target.url, body: 'one' });
    const pending = (await (
      await post(app, { url: target.url, body: 'two', retry: { delaysMs: [3_600_000] } })
    ).json()) as Delivery;
    await expect
      .poll(
        async () => ((await (await app.request(`/api/deliveries/${pending.id}`)).json()) as Delivery).attempts.length,
      )
      .toBe(1);
    const cancelled = await app.request(`/api/deliveries/${pending.id}`, { method: 'DELETE' });
    expect(((await cancelled.json()) as Delivery).state).toBe('cancelled');
    const again = await app.request(`/api/deliveries/${pending.id}`, { method: 'DELETE' });
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('DELIVERY_FINISHED');
    const list = (await (await app.request('/api/deliveries')).json()) as { deliveries: Delivery[] };
    expect(list.deliveries.map((d) => d.id)).toEqual([pending.id, first.id]);
    const missing = await app.request('/api/deliveries/dlv_nope');
    expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([
      404,
      'DELIVERY_NOT_FOUND',
    ]);
  });

  it.each([
    [{ url: 'http://example.com/hook' }, 'DELIVERY_HOST_NOT_ALLOWED'],
    [{ url: 'http://10.0.0.1/hook' }, 'DELIVERY_HOST_NOT_ALLOWED'],
    [{ url: 'ftp://127.0.0.1/hook' }, 'INVALID_DELIVERY_URL'],
    [{ url: 'not a url' }, 'INVALID_DELIVERY_URL'],
    [{ url: 'http://127.0.0.1/', sign: { scheme: 'rot13', secret: 'x' } }, 'UNKNOWN_SIGNATURE_SCHEME'],
    [{ url: 'http://127.0.0.1/', sign: { scheme: 'standard', secret: 'whsec_%%%' } }, 'INVALID_SIGNATURE_SECRET'],
    [{ url: 'http://127.0.0.1/', tamper: 'body' }, 'INVALID_TAMPER'],
    [{ url: 'http://127.0.0.1/', tamper: 'stale', sign: { scheme: 'github', secret: 'x' } }, 'INVALID_TAMPER'],
    [{ url: 'http://127.0.0.1/', retry: { delaysMs: Array(21).fill(0) } }, 'INVALID_RETRY'],
    [{ url: 'http://127.0.0.1/', retry: { delaysMs: [48 * 3600 * 1000, 1] } }, 'INVALID_RETRY'],
    [{ url: 'http://127.0.0.1/', retry: 'often' }, 'INVALID_RETRY'],
    [{ url: 'http://127.0.0.1/', timeoutMs: 0 }, 'INVALID_DELIVERY_TIMEOUT'],
    [{ url: 'http://127.0.0.1/', headers: { 'transfer-encoding': 'chunked' } }, 'INVALID_HEADER'],
    // The one header-value rule of answers: what HTTP cannot carry is refused at the door, not at send.
    [{ url: 'http://127.0.0.1/', headers: { 'x-a': 'a\u0001b' } }, 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', headers: { 'x-a': '€uro' } }, 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', headers: { 'x-a': 'café' } }, 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', headers: { 'x-a': 'a\u2028b' } }, 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', headers: { 'x-a': 'a\u007fb' } }, 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', headers: { 'x-a': '\ud800' } }, 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', headers: { 'x a': 'b' } }, 'INVALID_HEADER'],
    // A token, but lost on its way through plain objects (Node's fetch): refused rather than stored and not sent.
    ['{"url":"http://127.0.0.1/","headers":{"__proto__":"p"}}', 'INVALID_HEADER'],
    [{ url: 'http://127.0.0.1/', sign: { scheme: 'github', secret: 'x', id: '€' } }, 'INVALID_DELIVERY'],
    [
      { url: 'http://127.0.0.1/', sign: { scheme: 'hmac', secret: 'x', hmac: { header: 'x-sig', prefix: '€=' } } },
      'INVALID_SIGNATURE_OPTIONS',
    ],
    [{ url: 'http://127.0.0.1/', data: 1, body: 'x' }, 'INVALID_BODY'],
    [{ url: 'http://127.0.0.1/', extra: 1 }, 'UNKNOWN_FIELD'],
  ])('refuses %j with %s', async (body, code) => {
    const app = newApp();
    const response = await post(app, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    expect(((await (await app.request('/api/deliveries')).json()) as { deliveries: unknown[] }).deliveries).toEqual([]);
  });

  it('sends header values with tab, spaces and visible ASCII as they are', async () => {
    const target = await receiver((_, res) => void res.writeHead(204).end());
    const app = newApp();
    const delivery = await deliver(app, { url: target.url, data: 1, headers: { 'x-t': 'a\tb c~%C3%A9' } });
    expect(delivery.state).toBe('delivered');
    expect(target.received[0]?.headers).toMatchObject({ 'x-t': 'a\tb c~%C3%A9' });
  });

  it('takes a host listed in deliveryAllowHosts', async () => {
    const app = newApp({ deliveryAllowHosts: ['.receiver.test'] });
    const response = await post(app, { url: 'http://hooks.receiver.test:9/x', data: 1 });
    expect(response.status).toBe(202);
  });
});

describe('the node:http transport', () => {
  it('sends again on a fresh connection when a kept-alive one is closed as it is reused', async () => {
    const connections = new Map<object, number>();
    const target = await receiver((_, res) => {
      const socket = res.socket as object;
      const n = (connections.get(socket) ?? 0) + 1;
      connections.set(socket, n);
      // The second request on a connection finds it closed (a receiver's idle timeout, as it races a reuse).
      if (n === 2) res.socket?.destroy();
      else res.writeHead(204).end();
    });
    transport = nodeDeliverySend();
    try {
      const app = newApp();
      expect((await deliver(app, { url: target.url, data: 1 })).state).toBe('delivered');
      const second = await deliver(app, { url: target.url, data: 2 });
      expect(second.attempts).toHaveLength(1);
      expect(second.attempts[0]?.status).toBe(204);
      expect(target.received.map((r) => r.body.toString())).toEqual(['1', '2', '2']);
      expect(connections.size).toBe(2);
    } finally {
      transport.close?.();
      transport = undefined;
    }
  });
});
