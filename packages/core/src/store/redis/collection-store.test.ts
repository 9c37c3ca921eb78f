import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollectionStoreContract } from '../../collections/collection-store.case.test.js';
import { type Item, insertItem, itemOf } from '../../collections/item.js';
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
