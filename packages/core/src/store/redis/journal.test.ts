import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJournalContract } from '../../journal/journal.case.test.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
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

// Two replicas on one key prefix: recorded on one, read on the other.
runJournalContract('RedisJournal', async (options) => {
  const keyPrefix = `jc-${randomUUID()}:`;
  const [writerStore, readerStore] = [
    await RedisStore.open({ url: redis.socket, keyPrefix }),
    await RedisStore.open({ url: redis.socket, keyPrefix }),
  ];
  const writer = writerStore.openJournal(options);
  return {
    writer,
    reader: readerStore.openJournal(options),
    flushed: () => writer.flushed(),
    close: async () => {
      await writerStore.close();
      await readerStore.close();
    },
  };
});

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
