import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import type { JournalEntry } from '../../wire/journal-json.js';
import { RedisStore } from './index.js';
import type { RedisJournal, RedisJournalOptions } from './journal.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.dispose();
});

function request(body: string, target = '/endpoint/hook?x=1', method = 'POST'): RecordedRequest {
  return {
    method,
    target,
    rawHeaders: ['Content-Type', 'application/json', 'X-Trace', 'abc'],
    body: new TextEncoder().encode(body),
    bodyTruncated: false,
  };
}

describe('RedisJournal (shared by replicas on one Redis)', () => {
  const stores: RedisStore[] = [];

  /** `n` replicas' journals on one key prefix. */
  async function replicas(n: number, options: Omit<RedisJournalOptions, 'keyPrefix'> = {}): Promise<RedisJournal[]> {
    const keyPrefix = `j-${randomUUID()}:`;
    const journals: RedisJournal[] = [];
    for (let i = 0; i < n; i++) {
      const store = await RedisStore.open({ url: redis.socket, keyPrefix });
      stores.push(store);
      journals.push(store.openJournal(options));
    }
    return journals;
  }

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it('a request recorded on B is listed by A with the same id, byte for byte', async () => {
    const [a, b] = await replicas(2);
    b!.record('hook', request('{"event":"paid"}'), 200);
    await b!.flushed();
    const page = await a!.wait('hook', 1, 0);
    expect(page.complete).toBe(true);
    expect(page.requests).toEqual([
      {
        id: expect.any(Number),
        method: 'POST',
        path: '/endpoint/hook',
        query: { x: '1' },
        headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
        body: '{"event":"paid"}',
        bodyTruncated: false,
        json: { event: 'paid' },
        receivedAt: expect.any(String),
        statusCode: 200,
      },
    ]);
    expect((await b!.wait('hook', 1, 0)).requests).toEqual(page.requests);
  });

  it('keeps non-UTF-8 bodies exactly (base64)', async () => {
    const [a, b] = await replicas(2);
    const bytes = new Uint8Array([0xff, 0x00, 0xfe, 0x80]);
    a!.record('bin', { ...request(''), body: bytes }, 404);
    await a!.flushed();
    const [entry] = (await b!.wait('bin', 1, 0)).requests;
    expect(entry).toMatchObject({
      body: Buffer.from(bytes).toString('base64'),
      bodyEncoding: 'base64',
      statusCode: 404,
    });
  });

  it('ids increase across replicas, so `after` compares across them', async () => {
    const [a, b, c] = await replicas(3);
    a!.record('n', request('1'), 200);
    await a!.flushed();
    b!.record('n', request('2'), 200);
    await b!.flushed();
    c!.record('n', request('3'), 200);
    await c!.flushed();
    const all = (await a!.wait('n', 3, 0)).requests;
    expect(all.map((e) => e.body)).toEqual(['1', '2', '3']);
    const ids = all.map((e) => e.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect((await c!.wait('n', 1, 0, undefined, ids[0])).requests.map((e) => e.body)).toEqual(['2', '3']);
  });

  it('a long-poll on A is woken by a request recorded on B (not by its timeout)', async () => {
    const [a, b] = await replicas(2);
    const started = Date.now();
    const waiting = a!.wait('wake', 2, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a!.waiterCount).toBe(1);
    b!.record('wake', request('first'), 200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    b!.record('wake', request('second'), 200);
    const page = await waiting;
    expect(page.complete).toBe(true);
    expect(page.requests.map((e) => e.body)).toEqual(['first', 'second']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(a!.waiterCount).toBe(0);
  });

  it('keeps the queued mark and the fault of a request answered from the queue, as every replica lists it', async () => {
    const [a, b] = await replicas(2);
    b!.record('retry', request('{"try":1}'), 503, {});
    b!.record('retry', request('{"try":2}'), 0, { fault: 'reset' });
    b!.record('retry', request('{"try":3}'), 200);
    await b!.flushed();
    const entries = (await a!.wait('retry', 3, 0)).requests;
    expect(entries.map((e) => [e.statusCode, e.queued, e.fault])).toEqual([
      [503, true, undefined],
      [0, true, 'reset'],
      [200, undefined, undefined],
    ]);
    expect(Object.hasOwn(entries[2]!, 'queued')).toBe(false);
  });

  it('a filtered long-poll on A counts only matching requests recorded on B; others do not end it', async () => {
    const [a, b] = await replicas(2);
    const paid = (entry: JournalEntry) =>
      entry.method === 'POST' && (entry.json as { type?: string } | undefined)?.type === 'order.paid';
    let settled = false;
    const waiting = a!.wait('orders', 2, 20_000, undefined, 0, paid).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    b!.record('orders', request('{"type":"order.created"}'), 200);
    b!.record('orders', request('', '/endpoint/orders', 'GET'), 200);
    b!.record('orders', request('{"type":"order.paid","n":1}'), 200);
    await b!.flushed();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false); // one match of two: still waiting
    b!.record('orders', request('{"type":"order.paid","n":2}'), 200);
    const page = await waiting;
    expect(page.complete).toBe(true);
    expect(page.requests.map((e) => e.body)).toEqual(['{"type":"order.paid","n":1}', '{"type":"order.paid","n":2}']);
    expect(a!.waiterCount).toBe(0);
    // Read without waiting, the filter still applies.
    expect((await b!.wait('orders', 1, 0, undefined, 0, paid)).requests).toHaveLength(2);
  });

  it('with `after` a waiter waits for requests newer than the last it saw', async () => {
    const [a, b] = await replicas(2);
    b!.record('seen', request('old'), 200);
    await b!.flushed();
    const [old] = (await a!.wait('seen', 1, 0)).requests;
    const waiting = a!.wait('seen', 1, 20_000, undefined, old!.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    b!.record('seen', request('new'), 200);
    expect((await waiting).requests.map((e) => e.body)).toEqual(['new']);
  });

  it('a wait ends at its timeout with what there is, and at once on abort or releaseWaiters', async () => {
    const [a] = await replicas(1);
    const timedOut = await a!.wait('none', 1, 100);
    expect(timedOut).toMatchObject({ requests: [], complete: false });
    const controller = new AbortController();
    const aborted = a!.wait('none', 1, 20_000, controller.signal);
    controller.abort();
    expect(await aborted).toMatchObject({ complete: false });
    const held = a!.wait('none', 1, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    a!.releaseWaiters();
    expect(await held).toMatchObject({ complete: false });
    expect(a!.waiterCount).toBe(0);
  });

  it('keeps the last `size` requests per name', async () => {
    const [a, b] = await replicas(2, { size: 3 });
    for (let i = 1; i <= 5; i++) {
      const replica = (i % 2 ? a : b)!;
      replica.record('ring', request(String(i)), 200);
      await replica.flushed();
    }
    expect((await a!.wait('ring', 1, 0)).requests.map((e) => e.body)).toEqual(['3', '4', '5']);
  });

  it('keeps at most `maxNames` names, dropping the least recently recorded', async () => {
    const [a] = await replicas(1, { maxNames: 2 });
    for (const name of ['one', 'two', 'three']) a!.record(name, request(name), 200);
    await a!.flushed();
    expect((await a!.wait('one', 1, 0)).requests).toEqual([]);
    expect((await a!.wait('two', 1, 0)).requests).toHaveLength(1);
    expect((await a!.wait('three', 1, 0)).requests).toHaveLength(1);
  });

  it('stays within `maxBytes` by dropping the oldest entries, keeping the newest of the name just written', async () => {
    const [a] = await replicas(1, { maxBytes: 3000 });
    const big = 'x'.repeat(1000);
    for (let i = 0; i < 5; i++) a!.record('old', request(`${i}${big}`), 200);
    a!.record('new', request(`n${'y'.repeat(5000)}`), 200);
    await a!.flushed();
    expect((await a!.wait('old', 1, 0)).requests).toEqual([]);
    expect((await a!.wait('new', 1, 0)).requests).toHaveLength(1);
  });

  it('clear(name) and clearAll() are seen by every replica', async () => {
    const [a, b] = await replicas(2);
    a!.record('x', request('1'), 200);
    a!.record('y', request('2'), 200);
    await a!.flushed();
    await b!.clear('x');
    expect((await a!.wait('x', 1, 0)).requests).toEqual([]);
    expect((await a!.wait('y', 1, 0)).requests).toHaveLength(1);
    await b!.clearAll();
    expect((await a!.wait('y', 1, 0)).requests).toEqual([]);
  });

  it('journalId is shared by every replica, stable, and new once Redis has lost the journal', async () => {
    const [a, b] = await replicas(2);
    await a!.wait('any', 1, 0);
    await b!.wait('any', 1, 0);
    expect(a!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(b!.id).toBe(a!.id);
    const first = a!.id;
    a!.record('any', request('1'), 200);
    await a!.flushed();
    expect(a!.id).toBe(first);
    const raw = createClient({ socket: { path: redis.socket, tls: false } });
    raw.on('error', () => undefined);
    await raw.connect();
    await raw.flushAll();
    raw.destroy();
    await b!.wait('any', 1, 0);
    expect(b!.id).not.toBe(first);
    await a!.wait('any', 1, 0);
    expect(a!.id).toBe(b!.id);
  });
});
