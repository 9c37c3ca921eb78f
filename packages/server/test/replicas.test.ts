// Several real `mockpoint` daemons sharing one real redis-server (Debian package,
// unix socket, appendonly yes + appendfsync always): shared endpoints, atomic
// creates across processes, cache invalidation across replicas, SIGKILL of a
// replica, and Redis going away and coming back.

import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addEndpoint,
  assertBuilt,
  type Daemon,
  killAll,
  longPollsHeld,
  removeTempDirs,
  requestJson,
  runCli,
  sharedDaemon,
  startDaemon,
} from './helpers/daemon.js';

let redis: TestRedis;

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(async () => {
  await killAll();
  redis.resume();
  if (!redis.running) await redis.start();
});
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

/** Starts `n` daemons on the test's redis-server, each in its own working directory. */
async function replicas(n: number): Promise<Daemon[]> {
  return Promise.all(Array.from({ length: n }, () => startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } })));
}

/** `GET /endpoint/{name}` on a replica: status and body text. */
async function read(daemon: Daemon, name: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${daemon.url}/endpoint/${name}`);
  return { status: response.status, text: await response.text() };
}

/**
 * How long a replica may take to see another's change. A bound on staleness, not a latency claim (the real
 * numbers are in `pnpm bench`): 2 s was tight on a 2-core CI machine running three daemons, Redis and the
 * rest of the suite, where a replica's pub/sub read can wait that long for the CPU. A replica that never
 * drops its cached copy still fails (the cache has no expiry to hide it).
 */
const SEEN_WITHIN_MS = 10_000;

/** Resolves once `check` is true; rejects after `ms`. */
async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  await vi.waitFor(async () => expect(await check()).toBe(true), { timeout: ms, interval: 2 });
}

let unique = 0;
/** A fresh endpoint name: the test file shares one Redis. */
function fresh(label: string): string {
  unique++;
  return `${label}-${process.pid}-${unique}`;
}

describe('three daemons on one redis-server', () => {
  // The tests that read and write names of their own share three replicas (each started on first
  // use, SIGKILLed after the last test); a test that kills a replica starts its own.
  const shared = [0, 1, 2].map(() => sharedDaemon(() => ({ env: { MOCKPOINT_REDIS_URL: redis.socket } })));
  const sharedReplicas = (): Promise<Daemon[]> => Promise.all(shared.map((replica) => replica()));

  it('each names the Redis store in its start-up line and /api/health', async () => {
    const [a] = await sharedReplicas();
    expect(a!.store).toBe(`redis at unix:${redis.socket}, appendfsync always`);
    const health = await requestJson(`${a!.url}/api/health`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', store: 'redis' } });
  });

  it('an endpoint added on A is served byte for byte by B and C, and listed by each', async () => {
    const [a, b, c] = await sharedReplicas();
    const name = fresh('shared');
    const data = { text: 'héllo — 日本語 🎉', list: [1, 2.5, null, true], nested: { deep: ['x'] } };
    expect((await addEndpoint(a!.url, { name, data, statusCode: 202 })).status).toBe(201);
    for (const daemon of [b!, c!, a!]) {
      expect(await read(daemon, name)).toEqual({ status: 202, text: JSON.stringify(data) });
      const listed = await requestJson(`${daemon.url}/api/endpoints?limit=1000`);
      expect(JSON.stringify(listed.body)).toContain(`"${name}"`);
    }
  });

  it('45 concurrent adds of one name spread over the three give exactly one 201, and all serve the winner', async () => {
    const all = await sharedReplicas();
    const name = fresh('race');
    const results = await Promise.all(
      Array.from({ length: 45 }, (_, i) => addEndpoint(all[i % 3]!.url, { name, data: { writer: i } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(44);
    const winner = statuses.indexOf(201);
    for (const daemon of all) expect(await read(daemon, name)).toEqual({ status: 200, text: `{"writer":${winner}}` });
  });

  it('a replace on one replica is served by the others, whose caches held the old answer, every time', async () => {
    const all = await sharedReplicas();
    const name = fresh('replace');
    await addEndpoint(all[0]!.url, { name, data: 0 });
    for (let round = 1; round <= 30; round++) {
      // Every replica has the current answer cached (read twice: the second is a cache hit).
      for (const daemon of all) {
        await read(daemon, name);
        expect(await read(daemon, name)).toEqual({ status: 200, text: String(round - 1) });
      }
      const writer = all[round % 3]!;
      const put = await requestJson(`${writer.url}/api/endpoints/${name}`, { method: 'PUT', body: { data: round } });
      expect(put.status).toBe(200);
      for (const daemon of all) {
        await within(SEEN_WITHIN_MS, async () => (await read(daemon, name)).text === String(round));
      }
    }
  });

  it('routes set on A answer on B and C; each later change (append, remove one, replace, clear) is seen by replicas that had the table cached', async () => {
    const all = await sharedReplicas();
    const [a, b, c] = all as [Daemon, Daemon, Daemon];
    const name = fresh('routes');
    const at = (daemon: Daemon, subpath: string) => read(daemon, `${name}${subpath}`);
    const routes = (daemon: Daemon, method: string, body?: unknown, suffix = '') =>
      requestJson(`${daemon.url}/api/endpoints/${name}/routes${suffix}`, { method, body });
    // B and C cache "no routes" first: a table cached as empty must be dropped too.
    expect((await at(b, '/users/1')).status).toBe(404);
    expect((await at(c, '/users/1')).status).toBe(404);
    // Sent as text: a big integer a double cannot hold, kept exact.
    const put = await fetch(`${a.url}/api/endpoints/${name}/routes`, {
      method: 'PUT',
      body: '{"routes":[{"id":"user","match":{"path":"/users/:id"},"answer":{"data":{"id":12345678901234567890}}}]}',
    });
    expect(put.status).toBe(200);
    const seen = async (subpath: string, expected: { status: number; text?: string }) => {
      for (const daemon of all) {
        await within(SEEN_WITHIN_MS, async () => {
          const got = await at(daemon, subpath);
          return got.status === expected.status && (expected.text === undefined || got.text === expected.text);
        });
      }
    };
    // Exact bytes on every replica (a big integer a double cannot hold).
    await seen('/users/1', { status: 200, text: '{"id":12345678901234567890}' });
    expect(
      (await routes(b, 'POST', { routes: [{ id: 'tea', match: { path: '/tea' }, answer: { statusCode: 418 } }] }))
        .status,
    ).toBe(201);
    await seen('/tea', { status: 418 });
    expect((await routes(c, 'DELETE', undefined, '/user')).status).toBe(204);
    await seen('/users/1', { status: 404 });
    expect((await routes(a, 'PUT', { routes: [{ id: 'all', answer: { body: 'v2' } }] })).status).toBe(200);
    await seen('/tea', { status: 200, text: 'v2' });
    expect((await routes(b, 'DELETE')).status).toBe(204);
    await seen('/tea', { status: 404 });
    for (const daemon of all) expect((await routes(daemon, 'GET')).body).toEqual({ routes: [] });
  });

  it('a POST to B is listed by C and wakes a long-poll held on A; ids compare across replicas', async () => {
    const [a, b, c] = await sharedReplicas();
    const name = fresh('hook');
    await addEndpoint(a!.url, { name, data: { ok: true } });
    const longPoll = requestJson(`${a!.url}/api/endpoints/${name}/requests?wait=20000&count=1`);
    await longPollsHeld([a!.url], 1); // the long-poll is held on A before the webhook arrives at B
    const started = Date.now();
    const hook = await fetch(`${b!.url}/endpoint/${name}?via=b`, { method: 'POST', body: '{"event":"paid"}' });
    expect(hook.status).toBe(200);
    const woken = await longPoll;
    // The bound is the behaviour: woken by the webhook on another replica, not ended by its 20 s wait.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(woken).toMatchObject({
      status: 200,
      body: { complete: true, requests: [{ method: 'POST', query: { via: 'b' }, json: { event: 'paid' } }] },
    });
    const first = (woken.body as { requests: { id: number }[] }).requests[0]!.id;
    const listed = await requestJson(`${c!.url}/api/endpoints/${name}/requests`);
    expect((listed.body as { requests: { id: number }[] }).requests.map((r) => r.id)).toEqual([first]);
    // A second request, to C, is newer than the first by id on every replica.
    await fetch(`${c!.url}/endpoint/${name}`, { method: 'PUT', body: 'second' });
    const after = await requestJson(`${b!.url}/api/endpoints/${name}/requests?after=${first}&wait=10000`);
    expect(after.body).toMatchObject({ complete: true, requests: [{ method: 'PUT', body: 'second' }] });
    // Clearing on one replica clears it for all.
    expect((await requestJson(`${a!.url}/api/endpoints/${name}/requests`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestJson(`${b!.url}/api/endpoints/${name}/requests`)).body).toMatchObject({ requests: [] });
  });

  it('a queue pushed through A is shared: 50 concurrent requests spread over A, B and C get each queued answer exactly once', async () => {
    const all = await sharedReplicas();
    const name = fresh('retry');
    await addEndpoint(all[0]!.url, { name, data: { stored: true } });
    const exact = '{"id":12345678901234567890,"price":1.0}';
    const queued = await fetch(`${all[0]!.url}/api/endpoints/${name}/queue`, {
      method: 'POST',
      body: `{"answers":[{"statusCode":503,"times":20},{"statusCode":202,"data":${exact},"times":20}]}`,
    });
    expect(queued.status).toBe(201);
    // Acknowledged: every replica now takes from the queue, whichever gets the first request.
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const response = await fetch(`${all[i % 3]!.url}/endpoint/${name}`, { method: 'POST', body: `{"n":${i}}` });
        return `${response.status} ${await response.text()}`;
      }),
    );
    const counts = new Map<string, number>();
    for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      '503 {"stored":true}': 20,
      [`202 ${exact}`]: 20,
      '200 {"stored":true}': 10,
    });
    for (const daemon of all)
      expect(await requestJson(`${daemon.url}/api/endpoints/${name}/queue`)).toMatchObject({ body: { answers: [] } });
    // The shared journal lists all 50, the 40 queued ones marked, on every replica.
    const journal = await requestJson(`${all[2]!.url}/api/endpoints/${name}/requests?limit=100`);
    const entries = (journal.body as { requests: { statusCode: number; queued?: true }[] }).requests;
    expect(entries).toHaveLength(50);
    expect(
      entries
        .filter((e) => e.queued)
        .map((e) => e.statusCode)
        .sort(),
    ).toEqual([...Array(20).fill(202), ...Array(20).fill(503)]);
  });

  it('a reset queued on A breaks a request to B; a hang on B is released by clearing the queue on C', async () => {
    const [a, b, c] = await sharedReplicas();
    const name = fresh('fault');
    await addEndpoint(a!.url, { name, data: 'after the hang' });
    const queued = await requestJson(`${a!.url}/api/endpoints/${name}/queue`, {
      method: 'POST',
      body: { answers: [{ fault: 'reset' }, { fault: 'hang' }] },
    });
    expect(queued.status).toBe(201);
    const reset = await fetch(`${b!.url}/endpoint/${name}`).catch(
      (error: Error & { cause?: { code?: string } }) => error,
    );
    expect(reset).toBeInstanceOf(TypeError);
    expect((reset as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');

    let settled = false;
    const hanging = fetch(`${b!.url}/endpoint/${name}`).then(async (response) => {
      settled = true;
      return `${response.status} ${await response.text()}`;
    });
    // The hang has been taken (it is in the journal) ...
    await requestJson(`${a!.url}/api/endpoints/${name}/requests?wait=10000&count=2`);
    // ... and the wait is the behaviour: it answers nothing, here for 100 ms, until the queue is cleared.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    expect((await requestJson(`${c!.url}/api/endpoints/${name}/queue`, { method: 'DELETE' })).status).toBe(204);
    expect(await hanging).toBe('200 "after the hang"');
    const journal = await requestJson(`${a!.url}/api/endpoints/${name}/requests`);
    expect(journal.body).toMatchObject({
      requests: [
        { queued: true, fault: 'reset' },
        { queued: true, fault: 'hang' },
      ],
    });
  });

  it('a delete on C is a 404 on every replica, including those that had it cached', async () => {
    const [a, b, c] = await sharedReplicas();
    const name = fresh('gone');
    await addEndpoint(a!.url, { name, data: 'here' });
    for (const daemon of [a!, b!, c!]) {
      await read(daemon, name);
      expect((await read(daemon, name)).status).toBe(200);
    }
    expect((await requestJson(`${c!.url}/api/endpoints/${name}`, { method: 'DELETE' })).status).toBe(204);
    for (const daemon of [a!, b!, c!]) {
      await within(SEEN_WITHIN_MS, async () => (await read(daemon, name)).status === 404);
      expect((await requestJson(`${daemon.url}/api/endpoints/${name}`)).status).toBe(404);
    }
  });

  it('a replica killed with SIGKILL restarts on the same Redis and serves everything; the others never stopped', async () => {
    const [a, b] = await replicas(2);
    const names = Array.from({ length: 10 }, () => fresh('kill'));
    for (const name of names) expect((await addEndpoint(a!.url, { name, data: name })).status).toBe(201);
    await a!.stop('SIGKILL');
    expect((await addEndpoint(b!.url, { name: `${names[0]}-b`, data: 'while A was down' })).status).toBe(201);
    const [again] = await replicas(1);
    for (const name of names) expect(await read(again!, name)).toEqual({ status: 200, text: JSON.stringify(name) });
    expect((await read(again!, `${names[0]}-b`)).text).toBe('"while A was down"');
  });

  it('Redis stopped: writes and uncached reads answer 503 STORE_UNAVAILABLE; Redis back: writes succeed, nothing acknowledged is lost', async () => {
    const all = await sharedReplicas();
    const acknowledged = new Map<string, string>();
    for (let i = 0; i < 15; i++) {
      const name = fresh('fault');
      expect((await addEndpoint(all[i % 3]!.url, { name, data: i })).status).toBe(201);
      acknowledged.set(name, String(i));
    }
    // Cached on every replica before Redis goes away.
    const cached = [...acknowledged.keys()][0]!;
    for (const daemon of all) {
      await read(daemon, cached);
      expect((await read(daemon, cached)).status).toBe(200);
    }
    await redis.stop('SIGKILL');
    for (const daemon of all) {
      const started = Date.now();
      const add = await requestJson(`${daemon.url}/api/endpoint/add`, {
        method: 'PUT',
        body: { name: fresh('during'), data: 1 },
      });
      expect(add.status).toBe(503);
      expect(add.body).toMatchObject({ success: false, error: { code: 'STORE_UNAVAILABLE' } });
      expect((add.body as { error: { message: string } }).error.message).toContain('Redis at unix:');
      const missing = await requestJson(`${daemon.url}/endpoint/${fresh('uncached')}`);
      expect(missing).toMatchObject({ status: 503, body: { error: { code: 'STORE_UNAVAILABLE' } } });
      // Bounded: answered, not held until Redis returns.
      expect(Date.now() - started).toBeLessThan(10_000);
      await within(5000, async () => {
        const health = await requestJson(`${daemon.url}/api/health`);
        return (health.body as { status: string }).status === 'unavailable';
      });
      // A replica that lost Redis may miss invalidations: it empties its cache rather than serve stale answers.
      expect(await requestJson(`${daemon.url}/endpoint/${cached}`)).toMatchObject({
        status: 503,
        body: { error: { code: 'STORE_UNAVAILABLE' } },
      });
    }
    await redis.start();
    for (const daemon of all) {
      await within(10_000, async () => {
        const health = await requestJson(`${daemon.url}/api/health`);
        return (health.body as { status: string }).status === 'ok';
      });
      expect((await addEndpoint(daemon.url, { name: fresh('after'), data: 'back' })).status).toBe(201);
    }
    for (const [name, text] of acknowledged) {
      for (const daemon of all) expect(await read(daemon, name)).toEqual({ status: 200, text });
    }
  });

  it('start-up with an unreachable MOCKPOINT_REDIS_URL fails with one line after a bounded wait', async () => {
    const started = Date.now();
    const run = await runCli({ args: ['--port', '0'], env: { MOCKPOINT_REDIS_URL: `${redis.dir}/no-such.sock` } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^mockpoint: error: MOCKPOINT_REDIS_URL: cannot reach Redis at unix:\S+no-such\.sock within 5000 ms: /,
    );
    // The bound is the behaviour: the start-up gives up after its 5 s connect timeout, not never; generous.
    expect(Date.now() - started).toBeLessThan(14_000);
  });
});
