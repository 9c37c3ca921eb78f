// The Redis answer queue on a real redis-server: the queue contract, then what
// only a queue shared by replicas has to get right (each use once across
// replicas, pushes seen everywhere before they are acknowledged, hangs released
// by a clear on another replica, catching up after the subscription drops).
import { randomUUID } from 'node:crypto';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAnswerQueueContract } from '../../queue/answer-queue.case.test.js';
import { MockpointError } from '../../registry/errors.js';
import { type QueueConnection, RedisAnswerQueue, type RedisAnswerQueueOptions } from './answer-queue.js';
import { RedisStore } from './index.js';
import { NotSentError } from './not-sent.js';

let redis: TestRedis;
const stores: RedisStore[] = [];
beforeAll(async () => {
  redis = await startTestRedis();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(async () => {
  await redis?.dispose();
});

/** `n` replicas' queues on one fresh key prefix. */
async function replicas(
  n: number,
  options: Omit<RedisAnswerQueueOptions, 'keyPrefix'> = {},
): Promise<{ queues: RedisAnswerQueue[]; keyPrefix: string }> {
  const keyPrefix = `q-${randomUUID()}:`;
  const queues: RedisAnswerQueue[] = [];
  for (let i = 0; i < n; i++) {
    const store = await RedisStore.open({ url: redis.socket, keyPrefix });
    stores.push(store);
    queues.push(await store.openAnswerQueue(options));
  }
  return { queues, keyPrefix };
}

runAnswerQueueContract('RedisAnswerQueue', async (options) => (await replicas(1, options)).queues[0]!);

async function until(check: () => boolean, ms = 5000): Promise<void> {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: ms });
}

describe('RedisAnswerQueue across replicas', () => {
  it('once a push on A has resolved, B and C already know the name has a queue', async () => {
    const { queues } = await replicas(3);
    const [a, b, c] = queues as [RedisAnswerQueue, RedisAnswerQueue, RedisAnswerQueue];
    for (let i = 0; i < 20; i++) {
      const name = `hook-${i}`;
      expect(b.pending(name)).toBe(false);
      await a.push(name, [{ statusCode: 503, times: 1 }]);
      // No waiting: the push resolved only after every replica confirmed it.
      expect([b.pending(name), c.pending(name)]).toEqual([true, true]);
    }
  });

  it('50 concurrent takes spread over three replicas hand out each use exactly once, in queue order', async () => {
    const { queues } = await replicas(3);
    await queues[0]!.push('hook', [
      { statusCode: 500, times: 20 },
      { statusCode: 501, times: 20 },
    ]);
    const taken = await Promise.all(Array.from({ length: 50 }, (_, i) => queues[i % 3]!.take('hook')));
    const statuses = taken.map((t) => t?.answer.statusCode);
    expect(statuses.filter((s) => s === 500)).toHaveLength(20);
    expect(statuses.filter((s) => s === 501)).toHaveLength(20);
    expect(statuses.filter((s) => s === undefined)).toHaveLength(10);
    for (const queue of queues) expect(await queue.list('hook')).toEqual([]);
    // Each replica learns the queue is empty (by taking from it) and stops asking Redis.
    for (const queue of queues) {
      await queue.take('hook');
      expect(queue.pending('hook')).toBe(false);
    }
  });

  it('the bound counts what every replica queued; bytes are given back as uses are taken and queues cleared', async () => {
    const { queues } = await replicas(2, { maxAnswers: 4, maxBytes: 2000 });
    const [a, b] = queues as [RedisAnswerQueue, RedisAnswerQueue];
    await a.push('x', [
      { statusCode: 500, times: 1 },
      { statusCode: 501, times: 1 },
      { statusCode: 502, times: 1 },
    ]);
    expect(await b.push('x', [{ statusCode: 503, times: 1 }]).then(() => 'ok')).toBe('ok');
    const full = await b.push('x', [{ statusCode: 504, times: 1 }]).catch((e: unknown) => e);
    expect(full).toMatchObject({ code: 'QUEUE_FULL', status: 409 });
    expect((full as Error).message).toContain('holds 4 answer(s); at most 4');

    const big = 'y'.repeat(1500);
    await a.push('big', [{ data: big, times: 1 }]);
    const tooBig = await b.push('other', [{ data: big, times: 1 }]).catch((e: unknown) => e);
    expect(tooBig).toMatchObject({ code: 'QUEUE_FULL' });
    expect((tooBig as Error).message).toContain('more than 2000 bytes');
    await b.take('big');
    await b.push('other', [{ data: big, times: 1 }]);
    await a.clear('other');
    await b.push('big', [{ data: big, times: 1 }]);
  });

  it('a hang taken on B is released by a clear on A, by a replace-style clear of the name only', async () => {
    const { queues } = await replicas(2);
    const [a, b] = queues as [RedisAnswerQueue, RedisAnswerQueue];
    await a.push('slow', [{ fault: 'hang', times: 2 }]);
    await a.push('other', [{ fault: 'hang', times: 1 }]);
    const held = await b.take('slow');
    const unrelated = await b.take('other');
    expect(held?.answer).toEqual({ fault: 'hang' });
    await a.clear('slow');
    await until(() => held?.release.aborted === true);
    expect(unrelated?.release.aborted).toBe(false);
    await a.clearAll();
    await until(() => unrelated?.release.aborted === true);
    expect(b.pending('slow')).toBe(false);
  });

  it('a replica whose subscription dropped reloads what it may have missed once it is back', async () => {
    const { queues, keyPrefix } = await replicas(2);
    const [a, b] = queues as [RedisAnswerQueue, RedisAnswerQueue];
    await a.push('held', [{ fault: 'hang', times: 2 }]);
    const held = await b.take('held');

    const admin = createClient({ socket: { path: redis.socket, tls: false } });
    await admin.connect();
    try {
      // What a push and a clear leave in Redis, without their notices: what B misses while cut off.
      await admin.rPush(`${keyPrefix}queue:missed`, '1 {"statusCode":418}');
      await admin.sAdd(`${keyPrefix}queue-names`, 'missed');
      await admin.incr(`${keyPrefix}queue-clears`);
      // A push on A resolves once B has seen its notice, so B has read every notice sent
      // before it too (one channel, in order): none told B about 'missed'.
      await a.push('marker', [{ statusCode: 200, times: 1 }]);
      expect(b.pending('marker')).toBe(true);
      expect(b.pending('missed')).toBe(false);
      expect(held?.release.aborted).toBe(false);
      // Both replicas' subscriptions drop; node-redis reconnects and resubscribes.
      await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    } finally {
      admin.destroy();
    }
    await until(() => b.pending('missed'));
    await until(() => held?.release.aborted === true);
    expect((await b.take('missed'))?.answer).toEqual({ statusCode: 418 });
    expect(b.pending('missed')).toBe(false);
  });
});

describe('RedisAnswerQueue on a stalled Redis (SIGSTOP)', () => {
  it('takes that gave up take nothing: once Redis answers again, every queued answer is still there', async () => {
    const own = await startTestRedis();
    try {
      const store = await RedisStore.open({ url: own.socket, operationTimeoutMs: 500, heartbeatMs: 60_000 });
      stores.push(store);
      const queue = await store.openAnswerQueue();
      // The take script is loaded, as on a replica that has served requests.
      await queue.push('warm', [{ statusCode: 201, times: 1 }]);
      expect((await queue.take('warm'))?.answer.statusCode).toBe(201);
      await queue.push('stalled', [{ statusCode: 503, times: 5 }]);

      own.pause();
      const takes = await Promise.allSettled(Array.from({ length: 5 }, () => queue.take('stalled')));
      expect(takes.map((take) => take.status)).toEqual(Array(5).fill('rejected'));
      for (const take of takes)
        expect((take as PromiseRejectedResult).reason).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(store.health().status).toBe('degraded');
      // The five were sent: they wait to be settled. Takes while the stall is known are
      // refused before sending, and leave nothing to settle.
      expect(queue.unsettled).toBe(5);
      const refused = await Promise.allSettled(Array.from({ length: 50 }, () => queue.take('stalled')));
      for (const take of refused) expect((take as PromiseRejectedResult).reason).toBeInstanceOf(NotSentError);
      expect(queue.unsettled).toBe(5);

      // The five takes sent before the stall was known run now, after their callers gave up.
      own.resume();
      await expect.poll(() => store.health().status, { timeout: 10_000 }).toBe('ok');
      await expect.poll(() => queue.unsettled).toBe(0);
      // Commands on one connection run in order: this list runs after those takes.
      expect(await queue.list('stalled')).toEqual([{ statusCode: 503, times: 5 }]);
      for (let i = 0; i < 5; i++) expect((await queue.take('stalled'))?.answer.statusCode).toBe(503);
      expect(await queue.take('stalled')).toBeUndefined();
    } finally {
      await own.dispose();
    }
  });

  it('while redis-server is down (SIGKILL), takes are refused before sending and leave nothing to settle', async () => {
    const own = await startTestRedis();
    try {
      const store = await RedisStore.open({ url: own.socket, operationTimeoutMs: 500, reconnectDelayMs: 50 });
      stores.push(store);
      const queue = await store.openAnswerQueue();
      await queue.push('down', [{ statusCode: 503, times: 3 }]);
      await own.stop('SIGKILL');
      // Until the command connection has seen the kill, a take may still be sent (and is kept to settle).
      await expect.poll(() => queue.take('down').catch((error: unknown) => error)).toBeInstanceOf(NotSentError);
      const before = queue.unsettled;
      const takes = await Promise.allSettled(Array.from({ length: 50 }, () => queue.take('down')));
      for (const take of takes) expect((take as PromiseRejectedResult).reason).toBeInstanceOf(NotSentError);
      expect(queue.unsettled).toBe(before);
    } finally {
      await own.dispose();
    }
  });

  it('closing the store drops what was left to settle; takes after it are refused before sending', async () => {
    const own = await startTestRedis();
    try {
      const store = await RedisStore.open({ url: own.socket, operationTimeoutMs: 500, heartbeatMs: 60_000 });
      stores.push(store);
      const queue = await store.openAnswerQueue();
      await queue.push('closing', [{ statusCode: 503, times: 3 }]);
      own.pause();
      await expect(queue.take('closing')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(queue.unsettled).toBe(1);
      await store.close();
      expect(queue.unsettled).toBe(0);
      await expect(queue.take('closing')).rejects.toBeInstanceOf(NotSentError);
      expect(queue.unsettled).toBe(0);
      own.resume();
    } finally {
      await own.dispose();
    }
  });
});

/**
 * A queue on its own connections to the test's redis-server whose take scripts
 * run, but whose replies are lost when `lose()` says so: the caller sees
 * STORE_UNAVAILABLE, as when Redis dies between running a script and answering.
 */
async function lossyQueue(keyPrefix: string, lose: () => boolean): Promise<RedisAnswerQueue> {
  const client = createClient({ socket: { path: redis.socket, tls: false } });
  client.on('error', () => undefined);
  await client.connect();
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  clients.push(client, subscriber);
  const connection: QueueConnection = {
    async eval(script, keys, args) {
      const reply = await client.eval(script, { keys, arguments: args });
      const isTake = keys.some((key) => key.endsWith('queue-clears')) && args.some((a) => a === 'head' || a === 'pick');
      if (isTake && lose()) throw new MockpointError('STORE_UNAVAILABLE', 'the reply was lost (test)');
      return reply;
    },
    deadline: () => undefined,
    publish: (channel, message) => client.publish(channel, message),
    subscribe: (channel, listener) => subscriber.subscribe(channel, listener),
    live: true,
    onLive: () => undefined,
    origin: randomUUID(),
  };
  const queue = new RedisAnswerQueue(connection, { keyPrefix });
  await queue.start();
  return queue;
}
const clients: Array<{ destroy(): void }> = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});

/** Uses queued for `name`, all answers together. */
async function usesLeft(queue: RedisAnswerQueue, name: string): Promise<number> {
  return (await queue.list(name)).reduce((sum, answer) => sum + answer.times, 0);
}

describe('RedisAnswerQueue when a take ran but its reply was lost', () => {
  it('the use goes back first in line: nothing acknowledged is consumed without being served', async () => {
    let lost = 0;
    // Every third take loses its reply (the script ran: the use was taken in Redis).
    let takes = 0;
    const queue = await lossyQueue(`q-${randomUUID()}:`, () => {
      takes++;
      if (takes % 3 !== 0) return false;
      lost++;
      return true;
    });
    await queue.push('hook', [
      { statusCode: 500, times: 10 },
      { statusCode: 501, times: 10 },
    ]);
    const served: number[] = [];
    // Bounded: 20 uses, every third take failing, so at most 30 takes plus a few.
    for (let i = 0; i < 60 && served.length < 20; i++) {
      try {
        const taken = await queue.take('hook');
        if (taken !== undefined) served.push(taken.answer.statusCode ?? 0);
      } catch (error) {
        expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
        // The failed take's use is back before the next take is made.
        await expect.poll(() => usesLeft(queue, 'hook')).toBe(20 - served.length);
      }
    }
    expect(lost).toBeGreaterThan(5);
    expect(served).toEqual([...Array(10).fill(500), ...Array(10).fill(501)]);
    expect(await queue.list('hook')).toEqual([]);
  });
});

/** Whether a script call is a take's settlement (GIVE_BACK: its fourth key is the take's own). */
function isGiveBack(keys: string[]): boolean {
  return keys.length === 5 && keys[3]!.includes('queue-taken:');
}

/**
 * A queue on its own connections whose calls the "store" refuses before sending
 * while `refusing()` says so (as RedisStore does while closed or stalled), and
 * whose take replies are lost when `lose()` says so. Counts the settlements
 * (GIVE_BACK) tried, how many were in flight at most at once, and how many
 * failed in Redis itself.
 */
async function refusingQueue(
  keyPrefix: string,
  refusing: (giveBack: boolean) => boolean,
  lose: () => boolean = () => false,
  options: Omit<RedisAnswerQueueOptions, 'keyPrefix'> = {},
): Promise<{ queue: RedisAnswerQueue; giveBacks: { tried: number; inFlight: number; most: number; failed: number } }> {
  const client = createClient({ socket: { path: redis.socket, tls: false } });
  client.on('error', () => undefined);
  await client.connect();
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  clients.push(client, subscriber);
  const giveBacks = { tried: 0, inFlight: 0, most: 0, failed: 0 };
  const connection: QueueConnection = {
    async eval(script, keys, args) {
      const giveBack = isGiveBack(keys);
      if (giveBack) giveBacks.tried++;
      if (refusing(giveBack)) throw new NotSentError('Redis is stalled (test): nothing was sent');
      if (giveBack) giveBacks.most = Math.max(giveBacks.most, ++giveBacks.inFlight);
      try {
        const reply = await client.eval(script, { keys, arguments: args }).catch((error: unknown) => {
          if (giveBack) giveBacks.failed++;
          throw error;
        });
        const isTake =
          keys.some((key) => key.endsWith('queue-clears')) && args.some((a) => a === 'head' || a === 'pick');
        if (isTake && lose()) throw new MockpointError('STORE_UNAVAILABLE', 'the reply was lost (test)');
        return reply;
      } finally {
        if (giveBack) giveBacks.inFlight--;
      }
    },
    deadline: () => undefined,
    publish: (channel, message) => client.publish(channel, message),
    subscribe: (channel, listener) => subscriber.subscribe(channel, listener),
    live: true,
    onLive: () => undefined,
    origin: randomUUID(),
  };
  const queue = new RedisAnswerQueue(connection, { ...options, keyPrefix });
  await queue.start();
  return { queue, giveBacks };
}

describe('RedisAnswerQueue settling takes whose reply never came', () => {
  it('takes the store refused before sending leave nothing to settle: no GIVE_BACK is tried', async () => {
    let refusing = false;
    const { queue, giveBacks } = await refusingQueue(`q-${randomUUID()}:`, () => refusing);
    await queue.push('polled', [{ statusCode: 503, times: 3 }]);
    refusing = true;
    // A client polling a queued name while Redis is stalled: 200 requests, each a 503.
    const takes = await Promise.allSettled(Array.from({ length: 200 }, () => queue.take('polled')));
    for (const take of takes) expect((take as PromiseRejectedResult).reason).toBeInstanceOf(NotSentError);
    expect(giveBacks.tried).toBe(0);
    expect(queue.unsettled).toBe(0);
    refusing = false;
    expect(await queue.list('polled')).toEqual([{ statusCode: 503, times: 3 }]);
  });

  it('sent takes whose reply was lost are settled by one loop, one GIVE_BACK at a time, once Redis takes calls again', async () => {
    let refusing = false;
    let losing = false;
    const { queue, giveBacks } = await refusingQueue(
      `q-${randomUUID()}:`,
      () => refusing,
      () => losing,
    );
    await queue.push('lost', [{ statusCode: 500, times: 30 }]);
    losing = true;
    // 20 takes ran in Redis, all at once, and none of their replies came back.
    const takes = await Promise.allSettled(Array.from({ length: 20 }, () => queue.take('lost')));
    expect(takes.every((take) => take.status === 'rejected')).toBe(true);
    losing = false;
    // Settled in order, one at a time: the uses go back.
    await expect.poll(() => usesLeft(queue, 'lost')).toBe(30);
    expect(giveBacks.most).toBe(1);
    expect(queue.unsettled).toBe(0);

    // Ten more takes run, then Redis stalls before replying: their settlements are refused, and retried by the one loop.
    losing = true;
    const tried = giveBacks.tried;
    const sent = Array.from({ length: 10 }, () => queue.take('lost'));
    refusing = true; // every take above was sent (a call is refused, or sent, at once)
    const stalled = await Promise.allSettled(sent);
    expect(stalled.every((take) => take.status === 'rejected')).toBe(true);
    expect(queue.unsettled).toBe(10);
    // Each round stops at the first refused settlement, so tries grow by one a round, not by one per take.
    await expect.poll(() => giveBacks.tried).toBeGreaterThanOrEqual(tried + 2);
    expect(giveBacks.tried).toBeLessThanOrEqual(tried + 5);
    refusing = false;
    await expect.poll(() => queue.unsettled).toBe(0);
    expect(await usesLeft(queue, 'lost')).toBe(30);
    expect(giveBacks.most).toBe(1);
    expect(giveBacks.failed).toBe(0);
  });

  it('keeps at most maxUnsettled takes to settle: past it the oldest is dropped, with a warning', async () => {
    let refusing = false;
    const { queue } = await refusingQueue(
      `q-${randomUUID()}:`,
      (giveBack) => giveBack && refusing,
      () => true,
      { maxUnsettled: 100 },
    );
    await queue.push('many', [{ statusCode: 500, times: 101 }]);
    refusing = true;
    const warnings: string[] = [];
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => {
      warnings.push(String(warning));
    });
    try {
      // 101 takes ran and lost their replies while every settlement is refused.
      await Promise.allSettled(Array.from({ length: 101 }, () => queue.take('many')));
      expect(queue.unsettled).toBe(100);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('"many"');
      expect(warnings[0]).toContain('more than 100 takes were waiting to be settled');
    } finally {
      warn.mockRestore();
    }
    refusing = false;
    // The 100 kept are put back; the dropped one's use is gone.
    await expect.poll(() => queue.unsettled).toBe(0);
    expect(await usesLeft(queue, 'many')).toBe(100);
  });
});

describe('RedisAnswerQueue while redis-server is SIGKILLed mid-load', () => {
  it('every acknowledged use is served exactly once or still queued after three kills and restarts', async () => {
    const own = await startTestRedis();
    try {
      const keyPrefix = `q-${randomUUID()}:`;
      const store = await RedisStore.open({
        url: own.socket,
        keyPrefix,
        operationTimeoutMs: 1000,
        reconnectDelayMs: 50,
      });
      stores.push(store);
      const total = 900;
      const queue = await store.openAnswerQueue({ maxAnswers: total });
      // Each answer is queued once (times 1), with its number as its body: a use served twice, or lost, shows.
      for (let chunk = 0; chunk < total / 100; chunk++) {
        await queue.push(
          'load',
          Array.from({ length: 100 }, (_, i) => ({
            statusCode: 200,
            times: 1,
            body: String(chunk * 100 + i),
          })),
        );
      }
      const served: string[] = [];
      let failed = 0;
      let stop = false;
      // Eight takers in a loop, as eight requests at a time; a failed take is a 503 to its request.
      const takers = Array.from({ length: 8 }, async () => {
        while (!stop) {
          try {
            const taken = await queue.take('load');
            if (taken === undefined) return;
            served.push(String(taken.answer.body));
          } catch {
            failed++;
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
      });
      // Kill redis-server three times mid-load (each after another 150 uses were served), restarting it at once.
      for (let kill = 1; kill <= 3; kill++) {
        await expect.poll(() => served.length, { timeout: 60_000, interval: 5 }).toBeGreaterThanOrEqual(kill * 150);
        await own.stop('SIGKILL');
        await own.start();
      }
      await Promise.race([
        Promise.all(takers),
        expect.poll(() => served.length + failed, { timeout: 120_000 }).toBeGreaterThan(total * 10),
      ]);
      stop = true;
      await Promise.all(takers);
      // Uses whose take failed are put back once Redis answers: wait for them, then take what is left.
      await expect
        .poll(async () => served.length + (await usesLeft(queue, 'load').catch(() => -1)), { timeout: 30_000 })
        .toBe(total);
      for (;;) {
        const taken = await queue.take('load');
        if (taken === undefined) break;
        served.push(String(taken.answer.body));
      }
      expect(failed).toBeGreaterThan(0);
      expect(served).toHaveLength(total);
      expect(new Set(served).size).toBe(total);
    } finally {
      await own.dispose();
    }
  }, 240_000);
});
