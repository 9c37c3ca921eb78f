// Signature checks across two replicas on one real Redis: the check set on one
// applies on the other, the journal keeps each outcome, and a delivery replayed
// to the other replica is told as `replayed` (the ids are shared, and expire).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { runReplayGuardContract } from '../../webhook/replay-guard.case.test.js';
import { RedisStore } from './index.js';

let redis: TestRedis;
const opened: RedisStore[] = [];
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const store of opened) await store.close();
  await redis?.dispose();
});

async function replica(keyPrefix: string): Promise<MockpointApp> {
  const store = await RedisStore.open({ url: redis.socket, keyPrefix });
  opened.push(store);
  return createApp({
    store,
    journal: store.openJournal(),
    queue: await store.openAnswerQueue(),
    replays: store.openReplayGuard(),
  });
}

// One redis-server for the file; every guard gets keys of its own.
runReplayGuardContract('RedisReplayGuard', async () => {
  const store = await RedisStore.open({ url: redis.socket, keyPrefix: `t-${randomUUID()}:` });
  return { guard: store.openReplayGuard(), close: () => store.close() };
});

const KEY = randomBytes(32);
const BODY = '{"type":"ping"}';

function signed(id: string): Record<string, string> {
  const ts = Math.floor(Date.now() / 1000);
  const mac = createHmac('sha256', KEY).update(`${id}.${ts}.${BODY}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${mac}` };
}

describe('signature checks on Redis replicas', () => {
  it('a check set on one replica applies on the other; a replay to the other replica is replayed', async () => {
    const keyPrefix = `sig-${randomUUID()}:`;
    const [a, b] = [await replica(keyPrefix), await replica(keyPrefix)];
    // b learns that the name has no check (and remembers it) before a sets one.
    expect((await b.request('/endpoint/hook', { method: 'POST', body: BODY })).status).toBe(404);
    const put = await a.request('/api/endpoints/hook/signature', {
      method: 'PUT',
      body: JSON.stringify({ scheme: 'standard', secret: `whsec_${KEY.toString('base64')}`, enforce: true }),
    });
    expect(put.status).toBe(200);
    // The change reaches b over the store's change channel.
    await expect.poll(async () => (await b.request('/endpoint/hook', { method: 'POST', body: BODY })).status).toBe(401);

    const headers = signed('msg_shared');
    expect((await a.request('/endpoint/hook', { method: 'POST', body: BODY, headers })).status).toBe(404);
    const replayed = await b.request('/endpoint/hook', { method: 'POST', body: BODY, headers });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error: { message: string } }).error.message).toContain(
      'delivery id "msg_shared" arrived before',
    );

    // Both outcomes are in the shared journal, read from either replica.
    await expect
      .poll(async () => {
        const page = (await (await a.request('/api/endpoints/hook/requests')).json()) as {
          requests: { signature?: { status: string } }[];
        };
        return page.requests.map((entry) => entry.signature?.status).slice(-2);
      })
      .toEqual(['valid', 'replayed']);
  });

  it('ids expire with the tolerance: the key Redis keeps has a TTL of at most toleranceSec', async () => {
    const keyPrefix = `sig-${randomUUID()}:`;
    const store = await RedisStore.open({ url: redis.socket, keyPrefix });
    opened.push(store);
    const guard = store.openReplayGuard();
    await guard.seen('hook\nstandard\nmsg_1', 7);
    await guard.seen('other\nstandard\nmsg_1', 7);
    const raw = createClient({ socket: { path: redis.socket, tls: false } });
    await raw.connect();
    try {
      const keys = await raw.keys(`${keyPrefix}replay:*`);
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        const ttl = await raw.ttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(7);
      }
    } finally {
      raw.destroy();
    }
  });
});
