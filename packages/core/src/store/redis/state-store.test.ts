import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStateStoreContract } from '../../state/state-store.case.test.js';
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

runStateStoreContract(
  'RedisStore state',
  async () => {
    const { stores, close } = await replicas();
    const [a, b] = stores as [RedisStore, RedisStore];
    return { store: a.openStates(), replica: async () => b.openStates(), close };
  },
  { durable: true },
);

describe('RedisStore state across replicas', () => {
  it('of 40 concurrent moves from started spread over two replicas, exactly one lands', async () => {
    const { stores, close } = await replicas();
    try {
      const [a, b] = stores.map((store) => store.openStates());
      const moved = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? a : b)?.move('api', { default: 'started' }, { default: `by-${i}` }),
        ),
      );
      const winners = moved.filter((states) => states !== undefined);
      expect(winners).toHaveLength(1);
      expect(await a?.get('api')).toEqual(winners[0]);
      expect(await b?.get('api')).toEqual(winners[0]);
    } finally {
      await close();
    }
  });

  it('a put, reset, delete and clear on one replica are what the other reads', async () => {
    const { stores, close } = await replicas();
    try {
      const [a, b] = stores.map((store) => store.openStates()) as [
        ReturnType<RedisStore['openStates']>,
        ReturnType<RedisStore['openStates']>,
      ];
      await a.put('api', { default: 'ready' });
      expect(await b.move('api', { default: 'ready' }, { default: 'paid' })).toEqual({ default: 'paid' });
      await a.reset('api');
      expect(await b.get('api')).toEqual({ default: 'ready' });
      // A put of nothing is no state at all (as in memory and on LevelDB): a delete finds none.
      await b.put('empty', { default: 'x' });
      await b.put('empty', {});
      expect(await a.names()).not.toContain('empty');
      expect(await a.delete('empty')).toBe(false);
      await b.move('other', {}, { x: 'y' });
      await a.clear();
      expect(await b.get('api')).toEqual({});
      expect(await b.getStart('api')).toEqual({});
      expect(await b.get('other')).toEqual({});
      expect(await b.delete('other')).toBe(false);
    } finally {
      await close();
    }
  });

  it('keeps its keys under the store prefix, one hash of values and one of the start per name', async () => {
    const keyPrefix = `t-${randomUUID()}:`;
    const store = await RedisStore.open({ url: redis.socket, keyPrefix });
    try {
      const states = store.openStates();
      await states.put('api', { default: 'ready', b: 'one' });
      await states.move('api', {}, { default: 'paid' });
      const admin = createClient({ socket: { path: redis.socket, tls: false } });
      await admin.connect();
      try {
        expect((await admin.keys(`${keyPrefix}*`)).sort()).toEqual([
          `${keyPrefix}state`,
          `${keyPrefix}state:api`,
          `${keyPrefix}state:api:start`,
        ]);
        expect(await admin.hGetAll(`${keyPrefix}state:api`)).toEqual({ default: 'paid', b: 'one' });
        expect(await admin.hGetAll(`${keyPrefix}state:api:start`)).toEqual({ default: 'ready', b: 'one' });
        await states.clear();
        expect(await admin.keys(`${keyPrefix}*`)).toEqual([]);
      } finally {
        admin.destroy();
      }
    } finally {
      await store.close();
    }
  });

  it('refuses states outside the name rule with a rejected promise, before anything is sent', async () => {
    const { stores, close } = await replicas();
    try {
      const states = (stores[0] as RedisStore).openStates();
      const put = states.put('api', { default: 'not ok' });
      await expect(put).rejects.toBeInstanceOf(TypeError);
      await expect(states.move('api', {}, { default: '' })).rejects.toThrow(/1-64 of A-Z/);
      expect(await states.get('api')).toEqual({});
    } finally {
      await close();
    }
  });
});
