// The clock shared by two replicas on one real redis-server: a change on one is
// what the other shows ({{now}} included), per namespace; concurrent changes from
// both add up; a replica opened later, or one whose subscription came back, reads it.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../api/delivery-json.js';
import { createApp, type MockpointApp } from '../../index.js';
import type { Backend } from '../backend.js';
import { decodeClockText } from './clock-store.js';
import { redisBackend } from './index.js';

let redis: TestRedis;
const opened: Backend[] = [];
beforeAll(async () => {
  redis = await startTestRedis();
});
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.close();
  for (const backend of opened) await backend.close();
  await redis?.dispose();
});

async function replica(keyPrefix: string): Promise<MockpointApp> {
  const backend = await redisBackend({ url: redis.socket, keyPrefix });
  opened.push(backend);
  const app = createApp({ backend });
  await app.mockpoint.clockLoaded;
  return app;
}

async function clockOf(app: MockpointApp, base = ''): Promise<{ now: string; frozen: boolean }> {
  return (await app.request(`${base}/api/clock`)).json() as Promise<{ now: string; frozen: boolean }>;
}

async function put(app: MockpointApp, body: unknown, base = ''): Promise<Response> {
  return app.request(`${base}/api/clock`, { method: 'PUT', body: JSON.stringify(body) });
}

describe('the clock on Redis replicas', () => {
  it('a change on one replica is what the other shows, {{now}} too, and DELETE returns both to real time', async () => {
    const prefix = `clk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const route = {
      routes: [{ match: { path: '/now' }, answer: { template: true, body: '{{now}}' } }],
    };
    expect((await a.request('/api/endpoints/t/routes', { method: 'PUT', body: JSON.stringify(route) })).status).toBe(
      200,
    );
    expect((await put(a, { freeze: true, set: '2030-01-01T00:00:00Z' })).status).toBe(200);
    // Published before Redis answered a: b applies it as soon as it reads the message.
    await expect.poll(async () => clockOf(b)).toEqual(expect.objectContaining({ now: '2030-01-01T00:00:00.000Z' }));
    expect(await (await b.request('/endpoint/t/now')).text()).toBe('2030-01-01T00:00:00.000Z');
    expect((await put(b, { advance: '1d' })).status).toBe(200);
    await expect.poll(async () => (await clockOf(a)).now).toBe('2030-01-02T00:00:00.000Z');
    expect(await (await a.request('/endpoint/t/now')).text()).toBe('2030-01-02T00:00:00.000Z');

    expect((await a.request('/api/clock', { method: 'DELETE' })).status).toBe(204);
    await expect.poll(async () => (await clockOf(b)).frozen).toBe(false);
    const shown = Date.parse((await clockOf(b)).now);
    expect(Math.abs(shown - Date.now())).toBeLessThan(60_000);
  });

  it.each([
    ['POST', '/api/reset'],
    ['DELETE', '/api/endpoints'],
  ])('a reset (%s %s) on one replica returns the shared clock to real time on the other', async (method, path) => {
    const prefix = `clk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    expect((await put(a, { freeze: true, set: '2030-01-01T00:00:00Z' })).status).toBe(200);
    await expect.poll(async () => (await clockOf(b)).frozen).toBe(true);
    expect((await b.request(path, { method })).status).toBe(204);
    await expect.poll(async () => (await clockOf(a)).frozen).toBe(false);
    expect(Math.abs(Date.parse((await clockOf(a)).now) - Date.now())).toBeLessThan(60_000);
  });

  it('advances from both replicas at once add up (compare-and-set, nothing lost)', async () => {
    const prefix = `clk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    await put(a, { freeze: true, set: '2030-01-01T00:00:00Z' });
    const puts = Array.from({ length: 20 }, (_, i) => put(i % 2 === 0 ? a : b, { advance: '1s' }));
    expect((await Promise.all(puts)).map((r) => r.status)).toEqual(Array(20).fill(200));
    await expect.poll(async () => (await clockOf(a)).now).toBe('2030-01-01T00:00:20.000Z');
    await expect.poll(async () => (await clockOf(b)).now).toBe('2030-01-01T00:00:20.000Z');
  });

  it('a replica started after the change shows it from its first request', async () => {
    const prefix = `clk-${randomUUID()}:`;
    const a = await replica(prefix);
    await put(a, { set: '2031-06-01T00:00:00Z' });
    const late = await replica(prefix);
    const shown = Date.parse((await clockOf(late)).now);
    expect(shown).toBeGreaterThanOrEqual(Date.parse('2031-06-01T00:00:00Z'));
    expect(shown).toBeLessThan(Date.parse('2031-06-01T00:01:00Z'));
  });

  it('each namespace has its own shared clock', async () => {
    const prefix = `clk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    expect((await a.request('/api/namespaces', { method: 'POST', body: '{"name":"n1"}' })).status).toBe(201);
    expect((await put(a, { freeze: true, set: '2040-01-01T00:00:00Z' }, '/ns/n1')).status).toBe(200);
    await expect.poll(async () => (await clockOf(b, '/ns/n1')).now).toBe('2040-01-01T00:00:00.000Z');
    // b opened n1 after the change: it read it. A change now reaches b's open n1 by its message.
    expect((await put(a, { advance: '30s' }, '/ns/n1')).status).toBe(200);
    await expect.poll(async () => (await clockOf(b, '/ns/n1')).now).toBe('2040-01-01T00:00:30.000Z');
    expect((await clockOf(b)).frozen).toBe(false);
    expect((await clockOf(a)).frozen).toBe(false);
  });

  it('a timed state move waiting on one replica is made when another advances the clock', async () => {
    const prefix = `clk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const routes = {
      routes: [
        {
          match: { method: 'POST', path: '/orders' },
          answer: { statusCode: 201, setState: { after: '1h', to: 'shipped' } },
        },
        { match: { path: '/order', state: 'shipped' }, answer: { data: 'shipped' } },
        { match: { path: '/order' }, answer: { data: 'processing' } },
      ],
    };
    await a.request('/api/endpoints/shop/routes', { method: 'PUT', body: JSON.stringify(routes) });
    expect((await b.request('/endpoint/shop/orders', { method: 'POST' })).status).toBe(201);
    expect((await put(a, { advance: '2h' })).status).toBe(200);
    // The move waits in b; b makes it when a's change reaches it.
    await expect.poll(async () => (await a.request('/endpoint/shop/order')).json()).toBe('shipped');
  });
});

describe('delivery retries on Redis replicas', () => {
  it('a day-later retry waiting on one replica goes now when another advances the clock a day', async () => {
    const prefix = `clk-${randomUUID()}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    let received = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++received === 1 ? 503 : 200).end());
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const created = await a.request('/api/deliveries', {
      method: 'POST',
      body: JSON.stringify({ url, data: {}, retry: { delaysMs: [86_400_000] } }),
    });
    const { id } = (await created.json()) as Delivery;
    const state = async () => (await (await b.request(`/api/deliveries/${id}`)).json()) as Delivery;
    await expect.poll(async () => (await state()).attempts.length, { timeout: 10_000 }).toBe(1);
    expect((await state()).state).toBe('pending');
    // b's change reaches a's clock by the message; a's sender moves the retry to now.
    expect((await put(b, { advance: '1d' })).status).toBe(200);
    await expect.poll(async () => (await state()).state, { timeout: 10_000 }).toBe('delivered');
    expect(received).toBe(2);
  });
});

describe('decodeClockText', () => {
  it('reads what the script writes, and anything else as real time', () => {
    expect(decodeClockText('3 {"frozenAt":5}')).toEqual({ version: 3, state: { frozenAt: 5 } });
    expect(decodeClockText('4 {"offsetMs":-7}')).toEqual({ version: 4, state: { offsetMs: -7 } });
    for (const text of [undefined, '', 'x', '1 nope', '2 {"frozenAt":1.5}', ' {"offsetMs":1}']) {
      expect(decodeClockText(text)).toEqual({ version: 0, state: { offsetMs: 0 } });
    }
  });
});
