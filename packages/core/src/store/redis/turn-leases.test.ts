// Turns taken in one real redis-server by two stores (two replicas): a key's steps never overlap
// across them, a lease is renewed while its step runs longer than it, a turn left by a holder that
// is gone is taken once its lease ends, a waiter gives up after its bound with TURN_BUSY, and a
// holder that lost its lease never gives back the turn another took since.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from './index.js';
import type { TurnLeaseTimes } from './turn-leases.js';

let redis: TestRedis;
const opened: RedisStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  for (const store of opened) await store.close();
  await redis?.dispose();
});

/** Two stores on one key prefix (two replicas of one deployment), and that prefix. */
async function replicas(): Promise<{ stores: [RedisStore, RedisStore]; keyPrefix: string }> {
  const keyPrefix = `turn-${randomUUID()}:`;
  const stores: [RedisStore, RedisStore] = [
    await RedisStore.open({ url: redis.socket, keyPrefix }),
    await RedisStore.open({ url: redis.socket, keyPrefix }),
  ];
  opened.push(...stores);
  return { stores, keyPrefix };
}

async function redisCli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-s', redis.socket, ...args]);
  return stdout.trim();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RedisTurnLeases', () => {
  it("runs one key's steps one at a time across replicas, other keys' at once", async () => {
    const { stores } = await replicas();
    const turns = stores.map((store) => store.openTurns());
    let inside = 0;
    let most = 0;
    const step = async () => {
      inside++;
      most = Math.max(most, inside);
      await pause(2);
      inside--;
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => turns[i % 2]?.run('twin:a', step)));
    expect(most).toBe(1);

    // Two keys: one's step runs while the other's holds its turn.
    let release: () => void = () => undefined;
    const held = turns[0]?.run('twin:x', () => new Promise<void>((resolve) => (release = resolve)));
    await turns[1]?.run('twin:y', async () => undefined);
    release();
    await held;
  });

  it('renews the lease of a step that outlasts it', async () => {
    const { stores, keyPrefix } = await replicas();
    const key = `${keyPrefix}turn:twin:n`;
    const leaseMs = 500;
    const times: TurnLeaseTimes = { leaseMs, renewMs: 50 };
    const [a, b] = stores.map((store) => store.openTurns(times));
    const order: string[] = [];
    let taken: () => void = () => undefined;
    const expiresAt = async () => Number(await redisCli('PEXPIRETIME', key));
    const first = a?.run('twin:n', async () => {
      taken();
      order.push('a in');
      // The step lasts until Redis shows its lease renewed after the end the lease had when the step
      // began (no key: -2): unrenewed, the turn would have lapsed by then and B would have taken it.
      const leaseEnd = await expiresAt();
      await expect.poll(expiresAt, { timeout: 10_000 }).toBeGreaterThan(leaseEnd + leaseMs);
      order.push('a out');
    });
    await new Promise<void>((resolve) => (taken = resolve));
    await b?.run('twin:n', async () => void order.push('b'));
    await first;
    expect(order).toEqual(['a in', 'a out', 'b']);
  });

  it('takes a turn whose holder is gone once its lease ends, and gives up past its wait bound', async () => {
    const { stores, keyPrefix } = await replicas();
    const key = `${keyPrefix}turn:twin:n`;
    // As a replica that was SIGKILLed holding the turn leaves it.
    expect(await redisCli('SET', key, 'gone', 'PX', '400')).toBe('OK');
    let ran = false;
    await stores[0].openTurns().run('twin:n', async () => {
      expect(await redisCli('PTTL', key)).not.toBe('-2');
      ran = true;
    });
    expect(ran).toBe(true);
    expect(await redisCli('EXISTS', key)).toBe('0');

    expect(await redisCli('SET', key, 'held', 'PX', '60000')).toBe('OK');
    const busy = stores[1].openTurns({ waitMs: 200 }).run('twin:n', async () => 'ran');
    await expect(busy).rejects.toMatchObject({ code: 'TURN_BUSY', message: expect.stringMatching(/^twin:n: /) });
    expect(await redisCli('GET', key)).toBe('held');
  });

  it('gives the turn back after a step that failed, and never one another took since its lease lapsed', async () => {
    const { stores, keyPrefix } = await replicas();
    const key = `${keyPrefix}turn:twin:n`;
    const failing = stores[0].openTurns().run('twin:n', async () => {
      throw new Error('the flow failed');
    });
    await expect(failing).rejects.toThrow('the flow failed');
    expect(await redisCli('EXISTS', key)).toBe('0');

    // A's lease lapses while its step runs (no renewal within it): B takes the turn, and A's step ends after.
    const a = stores[0].openTurns({ leaseMs: 100, renewMs: 60_000 });
    const b = stores[1].openTurns();
    let bTaken: () => void = () => undefined;
    let bRelease: () => void = () => undefined;
    const taken = new Promise<void>((resolve) => (bTaken = resolve));
    let aIn: () => void = () => undefined;
    const aTaken = new Promise<void>((resolve) => (aIn = resolve));
    const aDone = a.run('twin:n', () => {
      aIn();
      return taken;
    });
    await aTaken;
    const bDone = b.run('twin:n', async () => {
      bTaken();
      await new Promise<void>((resolve) => (bRelease = resolve));
    });
    await aDone;
    // A gave back its own turn only: B's is still B's.
    expect(await redisCli('EXISTS', key)).toBe('1');
    bRelease();
    await bDone;
    expect(await redisCli('EXISTS', key)).toBe('0');
  });
});
