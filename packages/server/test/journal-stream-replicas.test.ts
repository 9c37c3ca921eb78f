// The live journal across replicas: two real `mockpoint` daemons on one real
// redis-server. A stream on one replica carries the webhooks that land on the
// other, and a client that reconnects to the other replica with Last-Event-ID
// resumes without a gap or a duplicate.

import { createClient, type JournalEvent } from '@mockpoint/core';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Daemon, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

let redis: TestRedis;

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

async function post(daemon: Daemon, name: string, body: string): Promise<void> {
  const response = await fetch(`${daemon.url}/endpoint/${name}`, { method: 'POST', body });
  await response.arrayBuffer();
}

describe('journal stream on two daemons sharing one redis-server', () => {
  it('a stream on A carries the webhooks that land on B; reconnecting to B with Last-Event-ID resumes without gap or duplicate', async () => {
    const [a, b] = await Promise.all([
      startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } }),
      startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } }),
    ]);
    const name = `live-${process.pid}`;
    // The client talks to whichever replica is current; a connection can be cut from outside.
    const state = { target: a as Daemon, cut: new AbortController() };
    const client = createClient({
      baseUrl: 'http://replicas.test',
      fetch: (request) => {
        const url = new URL(request.url);
        state.cut = new AbortController();
        return fetch(`${state.target.url}${url.pathname}${url.search}`, {
          headers: request.headers,
          signal: AbortSignal.any([request.signal, state.cut.signal]),
        });
      },
    });
    const journals: JournalEvent[] = [];
    const bodies: string[] = [];
    const ids: number[] = [];
    const stop = new AbortController();
    const watching = (async () => {
      for await (const request of client.watchRequests(name, {
        signal: stop.signal,
        onJournal: (event) => journals.push(event),
      })) {
        bodies.push(request.body);
        ids.push(request.id);
        if (bodies.length === 20) {
          // Cut the link to A and move to B; ten more land (on both replicas) meanwhile.
          state.target = b as Daemon;
          state.cut.abort();
          for (let i = 20; i < 30; i++) await post(i % 2 ? (a as Daemon) : (b as Daemon), name, String(i));
        }
        if (bodies.length === 40) stop.abort();
      }
    })();
    await expect.poll(() => journals.length).toBe(1);
    for (let i = 0; i < 20; i++) await post(i % 2 ? (a as Daemon) : (b as Daemon), name, String(i));
    await expect.poll(() => bodies.length, { timeout: 10_000 }).toBe(30);
    for (let i = 30; i < 40; i++) await post(i % 2 ? (a as Daemon) : (b as Daemon), name, String(i));
    await watching;
    // Each exactly once; in id order (a replica assigns ids when it writes to Redis, so
    // two requests to two replicas a moment apart may get their ids in either order).
    expect([...bodies].sort((x, y) => Number(x) - Number(y))).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(new Set(ids).size).toBe(40);
    // Both replicas name the same shared journal.
    expect(journals).toHaveLength(2);
    expect(journals[1]).toMatchObject({ journalId: journals[0]?.journalId, reset: false, after: ids[19] });
  });
});
