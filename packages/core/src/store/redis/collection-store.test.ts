import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollectionStoreContract } from '../../collections/collection-store.case.test.js';
import { collectionText, type Item, insertItem, itemOf } from '../../collections/item.js';
import { rolling } from '../../twin/twin-idempotency.js';
import { RedisStore } from './index.js';

let redis: TestRedis;

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await redis?.dispose();
});

/** Two stores on one key prefix: two replicas of one deployment. */
async function replicas(): Promise<{ stores: RedisStore[]; close: () => Promise<void> }> {
  const keyPrefix = `t-${randomUUID()}:`;
  const stores = [
    await RedisStore.open({ url: redis.socket, keyPrefix }),
    await RedisStore.open({ url: redis.socket, keyPrefix }),
  ];
  return { stores, close: async () => void (await Promise.all(stores.map((store) => store.close()))) };
}

runCollectionStoreContract(
  'RedisStore collections',
  async () => {
    const { stores, close } = await replicas();
    const [a, b] = stores as [RedisStore, RedisStore];
    return { store: a.openCollections(), replica: async () => b.openCollections(), close };
  },
  { durable: true },
);

describe('RedisStore collections across replicas', () => {
  it('50 concurrent inserts spread over two replicas get 50 distinct ids, and all 50 are kept', async () => {
    const { stores, close } = await replicas();
    try {
      const [a, b] = stores.map((store) => store.openCollections());
      await a?.seed('api', new Map([['users', []]]));
      const ids = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? a : b)?.update('api', 'users', (items) => {
            const inserted = insertItem(items ?? [], itemOf(`{"n":${i}}`), 'id');
            if (!('item' in inserted)) throw new Error('taken');
            return { edit: { append: inserted.item }, result: inserted.item.value.id };
          }),
        ),
      );
      expect(new Set(ids).size).toBe(50);
      for (const store of [a, b]) {
        const users = (await store?.get('api'))?.get('users') as Item[];
        expect(users.map((user) => user.value.n).sort((x, y) => Number(x) - Number(y))).toEqual(
          Array.from({ length: 50 }, (_, i) => i),
        );
      }
    } finally {
      await close();
    }
  });

  it("a replica sees the other replica's change at once (its parsed copy is per version), and a delete", async () => {
    const { stores, close } = await replicas();
    try {
      const [a, b] = stores.map((store) => store.openCollections());
      await a?.seed('api', new Map([['users', [itemOf('{"id":1}')]]]));
      expect((await b?.get('api'))?.get('users')?.length).toBe(1);
      await a?.update('api', 'users', () => ({ edit: { append: itemOf('{"id":2}') }, result: undefined }));
      expect(await b?.update('api', 'users', (items) => ({ result: items?.map((item) => item.text) }))).toEqual([
        '{"id":1}',
        '{"id":2}',
      ]);
      await a?.delete('api');
      expect(await b?.update('api', 'users', (items) => ({ result: items }))).toBeUndefined();
    } finally {
      await close();
    }
  });
});

/** A raw client on the test's redis-server, for what the store sends and for what earlier versions wrote. */
async function rawClient() {
  const raw = createClient({ socket: { path: redis.socket, tls: false } });
  await raw.connect();
  return raw;
}

describe('RedisStore collections write what changed', () => {
  /** The bytes Redis has received from every client so far (INFO stats). */
  async function received(raw: Awaited<ReturnType<typeof rawClient>>): Promise<number> {
    const info = await raw.info('stats');
    return Number(/total_net_input_bytes:(\d+)/.exec(info)?.[1]);
  }

  it('an append, a set, a remove and a rolling put of a 4 MB collection each send about one item, not the collection', async () => {
    const { stores, close } = await replicas();
    const raw = await rawClient();
    try {
      const [a, b] = stores.map((store) => store.openCollections());
      const big = (n: number) => itemOf(JSON.stringify({ id: n, text: 'x'.repeat(1_000_000) }));
      // Before: every change sent its whole collection (8 changes of a 4-5 MB collection, 37 MB);
      // now each sends its item (at most 1 MB and a little).
      const sent: Record<string, number> = {};
      const measure = async (label: string, run: () => Promise<unknown> | undefined) => {
        const before = await received(raw);
        await run();
        sent[label] = (await received(raw)) - before;
      };
      for (let n = 1; n <= 4; n++) {
        await measure(`append ${n}`, () => a?.update('api', 'big', () => ({ edit: { append: big(n) }, result: 0 })));
      }
      await measure('set', () => a?.update('api', 'big', () => ({ edit: { set: 1, item: big(22) }, result: 0 })));
      await measure('remove', () => a?.update('api', 'big', () => ({ edit: { remove: 0 }, result: 0 })));
      // The rolling put of events and idempotency answers: the oldest dropped, the newest added.
      await measure('rolling', () =>
        a?.update('api', 'big', (items) =>
          rolling(items, big(5), 3, { maxCollectionBytes: 3_100_000, maxCollectionItems: 100 }),
        ),
      );
      await measure('small append', () =>
        a?.update('api', 'big', () => ({ edit: { append: itemOf('{"id":6}') }, result: 0 })),
      );
      for (const [label, bytes] of Object.entries(sent)) {
        expect(bytes, `${label}: ${JSON.stringify(sent)}`).toBeLessThan(
          label === 'remove' || label === 'small append' ? 10_000 : 1_100_000,
        );
      }
      // What was written is what the other replica reads, in order.
      const ids = (await b?.get('api'))?.get('big')?.map((item) => item.value.id);
      expect(ids).toEqual([3, 4, 5, 6]);
      expect((await a?.get('api'))?.get('big')?.map((item) => item.value.id)).toEqual([3, 4, 5, 6]);
    } finally {
      await raw.quit();
      await close();
    }
  });

  it('reads a collection as an earlier version wrote it (one JSON array), changes it, resets it to its seed', async () => {
    const keyPrefix = `t-${randomUUID()}:`;
    const raw = await rawClient();
    // What every version before the lists wrote for a seeded name with one change.
    const seed = collectionText([itemOf('{"id":1,"n":"a"}'), itemOf('{"id":2,"n":"b"}')]);
    const changed = collectionText([
      itemOf('{"id":1,"n":"a"}'),
      itemOf('{"id":2,"n":"b"}'),
      itemOf('{"id":3,"n":"c"}'),
    ]);
    await raw.hSet(`${keyPrefix}collections:api`, 'users', changed);
    await raw.hSet(`${keyPrefix}collections:api:version`, 'users', '2');
    await raw.hSet(`${keyPrefix}collections:api:seed`, 'users', seed);
    await raw.sAdd(`${keyPrefix}collections`, 'api');
    const store = await RedisStore.open({ url: redis.socket, keyPrefix });
    try {
      const collections = store.openCollections();
      const texts = async () => (await collections.get('api')).get('users')?.map((item) => item.text);
      expect(await texts()).toEqual(['{"id":1,"n":"a"}', '{"id":2,"n":"b"}', '{"id":3,"n":"c"}']);
      expect(await collections.names()).toEqual(['api']);
      await collections.update('api', 'users', () => ({ edit: { remove: 1 }, result: undefined }));
      expect(await texts()).toEqual(['{"id":1,"n":"a"}', '{"id":3,"n":"c"}']);
      // Written as a list now: the earlier text is gone, not read again.
      expect(await raw.hGet(`${keyPrefix}collections:api`, 'users')).toBeNull();
      expect(await raw.lRange(`${keyPrefix}collections:api:items:users`, 0, -1)).toEqual([
        '{"id":1,"n":"a"}',
        '{"id":3,"n":"c"}',
      ]);
      await collections.update('api', 'users', () => ({ edit: { append: itemOf('{"id":4}') }, result: undefined }));
      await collections.reset('api');
      expect(await texts()).toEqual(['{"id":1,"n":"a"}', '{"id":2,"n":"b"}']);
      expect(await raw.exists(`${keyPrefix}collections:api:items:users`)).toBe(0);
      await collections.update('api', 'users', () => ({ edit: { append: itemOf('{"id":5}') }, result: undefined }));
      expect(await texts()).toEqual(['{"id":1,"n":"a"}', '{"id":2,"n":"b"}', '{"id":5}']);
      expect(await collections.delete('api')).toBe(true);
      expect((await collections.get('api')).size).toBe(0);
      expect(await raw.keys(`${keyPrefix}collections:api*`)).toEqual([`${keyPrefix}collections:api:version`]);
    } finally {
      await raw.quit();
      await store.close();
    }
  });
});
