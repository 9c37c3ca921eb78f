// The delivery store on a real redis-server (unix socket), through the shared contract.
import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll } from 'vitest';
import { runDeliveryStoreContract } from '../../webhook/delivery-store.case.test.js';
import { RedisStore } from './index.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.dispose();
});

// One redis-server for the file; every store gets keys of its own.
runDeliveryStoreContract('RedisDeliveryStore', async () => {
  // A generous operation timeout: 200 fsynced scripts at once on a shared machine are slow, not failed.
  const store = await RedisStore.open({
    url: redis.socket,
    keyPrefix: `t-${randomUUID()}:`,
    operationTimeoutMs: 20_000,
  });
  return { store: store.openDeliveries(), close: () => store.close() };
});
