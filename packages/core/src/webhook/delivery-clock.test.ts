// Delivery retries follow the app's clock: advancing it past a day-later retry
// sends that retry now; a frozen clock holds a retry back until it is advanced
// past it; a clock set back and then returned to real time keeps the real schedule.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../api/delivery-json.js';
import { Clock } from '../clock/clock.js';
import { createApp, type MockpointApp } from '../http/create-app.js';
import { clockDue, earlyByClock, withRetryClock } from './delivery-clock.js';
import type { StoredDelivery } from './delivery-store.js';

const servers: Server[] = [];
const apps: MockpointApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.mockpoint.deliveries.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A receiver answering 503 to its first request and 200 after; counts what it got. */
async function flaky(): Promise<{ url: string; count: () => number }> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(count === 1 ? 503 : 200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => count };
}

function app(): MockpointApp {
  const made = createApp();
  apps.push(made);
  return made;
}

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await response).json() as Promise<T>;
}

async function deliver(made: MockpointApp, url: string, delaysMs: number[]): Promise<Delivery> {
  const response = await made.request('/api/deliveries', {
    method: 'POST',
    body: JSON.stringify({ url, data: { n: 1 }, retry: { delaysMs } }),
  });
  expect(response.status).toBe(202);
  return response.json() as Promise<Delivery>;
}

/** The delivery once it has `attempts` attempts recorded. */
async function afterAttempts(made: MockpointApp, id: string, attempts: number): Promise<Delivery> {
  await expect
    .poll(async () => (await json<Delivery>(made.request(`/api/deliveries/${id}`))).attempts.length, {
      timeout: 10_000,
    })
    .toBe(attempts);
  return json<Delivery>(made.request(`/api/deliveries/${id}`));
}

async function setClock(made: MockpointApp, body: unknown): Promise<void> {
  expect((await made.request('/api/clock', { method: 'PUT', body: JSON.stringify(body) })).status).toBe(200);
}

describe('delivery retries by the clock', () => {
  it('advancing the clock by a day sends the day-later retry now', async () => {
    const made = app();
    const target = await flaky();
    const sent = await deliver(made, target.url, [86_400_000]);
    const first = await afterAttempts(made, sent.id, 1);
    expect(first.state).toBe('pending');
    expect(Date.parse(first.nextAttemptAt ?? '')).toBeGreaterThan(Date.now() + 86_000_000);
    await setClock(made, { advance: '1d' });
    // Generous: the retry is due at once; without the clock it would wait a day.
    await expect
      .poll(async () => (await json<Delivery>(made.request(`/api/deliveries/${sent.id}`))).state, { timeout: 10_000 })
      .toBe('delivered');
    expect(target.count()).toBe(2);
  });

  it('a frozen clock holds a retry back until it is advanced past it', async () => {
    const made = app();
    const target = await flaky();
    await setClock(made, { freeze: true });
    const sent = await deliver(made, target.url, [300]);
    const first = await afterAttempts(made, sent.id, 1);
    const dueAt = Date.parse(first.nextAttemptAt ?? '');
    // Real time passes the 300 ms, and the worker takes the retry up when due: it finds the frozen
    // clock short of it and moves it on, unsent (twice, so that the one after a hold-back is held too).
    const nextAttemptAt = async () =>
      Date.parse((await json<Delivery>(made.request(`/api/deliveries/${sent.id}`))).nextAttemptAt ?? '');
    await expect.poll(nextAttemptAt, { timeout: 10_000 }).toBeGreaterThanOrEqual(dueAt + 2 * 300);
    const held = await json<Delivery>(made.request(`/api/deliveries/${sent.id}`));
    expect([held.state, held.attempts.length, target.count()]).toEqual(['pending', 1, 1]);
    await setClock(made, { advance: 300 });
    await expect
      .poll(async () => (await json<Delivery>(made.request(`/api/deliveries/${sent.id}`))).state, { timeout: 10_000 })
      .toBe('delivered');
  });

  it('an untouched clock keeps the real schedule', async () => {
    const made = app();
    const target = await flaky();
    const sent = await deliver(made, target.url, [200]);
    await expect
      .poll(async () => (await json<Delivery>(made.request(`/api/deliveries/${sent.id}`))).state, { timeout: 10_000 })
      .toBe('delivered');
    expect(target.count()).toBe(2);
  });
});

describe('delivery-clock', () => {
  const pending: StoredDelivery = {
    id: 'dlv_1',
    url: 'http://127.0.0.1:9/',
    method: 'POST',
    headers: {},
    bodyBase64: '',
    bodyBytes: 0,
    delaysMs: [5000],
    timeoutMs: 1000,
    createdAt: 0,
    state: 'pending',
    attempts: [],
    nextAttemptAt: 15_000,
    version: 1,
  };

  it('keeps the clock time of a retry, and moves its real due time with the clock', () => {
    const real = { ms: 10_000 };
    const clock = new Clock(() => real.ms);
    const timed = withRetryClock(pending, 10_000, 10_000);
    expect(timed.retryClockAt).toBe(15_000);
    expect(clockDue(timed, clock, real.ms)).toBeUndefined(); // real time: the real schedule stands
    clock.advance(4_000);
    expect(clockDue(timed, clock, real.ms)).toBe(11_000);
    clock.freeze(true);
    expect(earlyByClock(timed, clock)).toBe(true);
    clock.advance(1_000);
    expect(earlyByClock(timed, clock)).toBe(false);
    expect(clockDue(timed, clock, real.ms)).toBe(10_000);
    clock.set(0);
    expect(clockDue(timed, clock, real.ms)).toBe(25_000);
    // A clock set far back holds a retry at most the longest retry span.
    expect(clockDue({ ...timed, retryClockAt: 10 * 86_400_000 }, clock, real.ms)).toBe(10_000 + 48 * 60 * 60 * 1000);
    expect(withRetryClock({ ...timed, state: 'delivered' }, 0, 0).retryClockAt).toBeUndefined();
  });
});
