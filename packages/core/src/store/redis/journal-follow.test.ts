import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collector, request, runJournalFollowContract } from '../../journal/journal-follow.case.test.js';
import { RedisStore } from './index.js';
import type { RedisJournal } from './journal.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.dispose();
});

describe('RedisJournal: follow and since, across replicas', () => {
  const stores: RedisStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  async function replicas(keyPrefix = `jf-${randomUUID()}:`): Promise<[RedisJournal, RedisJournal]> {
    const journals: RedisJournal[] = [];
    for (let i = 0; i < 2; i++) {
      const store = await RedisStore.open({ url: redis.socket, keyPrefix });
      stores.push(store);
      journals.push(store.openJournal());
    }
    return journals as [RedisJournal, RedisJournal];
  }

  runJournalFollowContract(async () => {
    const [writer, reader] = await replicas();
    return { writer, reader, settle: () => writer.flushed() };
  });

  it('a journal that started anew in Redis (its keys gone) is handed on under its new id, ids from 1 again', async () => {
    const keyPrefix = `jf-${randomUUID()}:`;
    const [writer, reader] = await replicas(keyPrefix);
    const follow = collector();
    reader.follow(follow.follower);
    writer.record('hook', request('before'), 200);
    await follow.until(1);
    const direct = createClient({ socket: { path: redis.socket, tls: false } });
    await direct.connect();
    for (const key of await direct.keys(`${keyPrefix}journal:*`)) await direct.del(key);
    await direct.quit();
    writer.record('hook', request('after'), 200);
    await follow.until(2);
    expect(follow.seen.map((e) => [e.entry.body, e.entry.id])).toEqual([
      ['before', 1],
      ['after', 1],
    ]);
    expect(follow.journalIds[1]).not.toBe(follow.journalIds[0]);
  });
});
