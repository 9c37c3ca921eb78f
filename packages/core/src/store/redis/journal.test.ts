import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJournalContract } from '../../journal/journal.case.test.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import { RedisStore } from './index.js';
import { RedisJournal, type RedisJournalOptions } from './journal.js';

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

  it('a page of every name fetches only that page from Redis, not every entry past the cursor', async () => {
    const raw = createClient({ socket: { path: redis.socket, tls: false } });
    raw.on('error', () => undefined);
    await raw.connect();
    /** Entries each script call answered with (the SINCE script's flat name/id/payload triples). */
    const returned: number[] = [];
    const journal = new RedisJournal(
      {
        eval: async (script, keys, args) => {
          const reply = await raw.eval(script, { keys, arguments: args });
          if (script.includes('ZRANGEBYSCORE')) returned.push(((reply as unknown[])[2] as unknown[]).length / 3);
          return reply;
        },
        onRecorded: () => undefined,
        newId: () => randomUUID(),
      },
      { keyPrefix: `jp-${randomUUID()}:`, size: 50 },
    );
    try {
      for (let round = 0; round < 30; round++) {
        for (let n = 0; n < 20; n++) journal.record(`n${n}`, request(`${round}`), 200);
      }
      await journal.flushed();
      const page = await journal.since(0, undefined, 10);
      expect(page.entries.map((e) => e.entry.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const next = await journal.since(595, undefined, 10);
      expect(next.entries.map((e) => e.entry.id)).toEqual([596, 597, 598, 599, 600]);
      const one = await journal.since(0, 'n1', 3);
      expect(one.entries.map((e) => e.entry.id)).toEqual([2, 22, 42]);
      // 20 names × 30 entries past the cursor: only the page asked for comes back.
      expect(returned).toEqual([10, 5, 3]);
    } finally {
      raw.destroy();
    }
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
