// A file's sessions opened in batches (session-pool.ts), against a real server (createMockServer
// with an admin token, as the run's instance): 20 tests one after another, then 20 at once, cost
// a handful of opening requests instead of 40, each test still in a namespace of its own that no
// other test had, and the namespaces no test took are deleted after the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from './create-mock-server.js';
import { currentSession, runInSession, type SessionSettings } from './session.js';
import { MAX_BATCH, NamespacePool } from './session-pool.js';

const ADMIN = 'session-pool-admin';
let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ adminToken: ADMIN });
});
afterAll(() => mock.close());

async function namespacesLeft(): Promise<unknown[]> {
  const listed = await fetch(`${mock.url}/api/namespaces`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return ((await listed.json()) as { namespaces: unknown[] }).namespaces;
}

describe('sessions opened in batches (real server)', () => {
  it('opens 40 sessions in a few requests, each its own, and deletes what was left after the file', async () => {
    const opens: string[] = [];
    const settings: SessionSettings = {
      url: mock.url,
      token: ADMIN,
      ttlMs: 60_000,
      onUnhandledRequest: 'error',
      hosts: {},
      fetch: (request) => {
        if (request.method === 'POST') opens.push(new URL(request.url).pathname);
        return fetch(request);
      },
    };
    settings.pool = new NamespacePool(settings, settings.ttlMs);
    const seen = new Set<string>();
    const test = (i: number) => async () => {
      const session = await currentSession();
      expect(seen.has(session.name)).toBe(false);
      seen.add(session.name);
      // Fresh: nothing of an earlier test's in it.
      await expect(session.get('user')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const user = await session.add({ name: 'user', data: { i } });
      expect(await (await fetch(user.url)).json()).toEqual({ i });
    };
    for (let i = 0; i < 20; i++) await runInSession(settings, test(i));
    await Promise.all(Array.from({ length: 20 }, (_, i) => runInSession(settings, test(20 + i))));
    expect(seen.size).toBe(40);
    // Batches of 1, 2, 4, then 8: at most 1 + 2 + 4 + 5 × 8 namespaces for 40 tests.
    expect(opens.length).toBeLessThanOrEqual(3 + Math.ceil((40 - 7) / MAX_BATCH) + 1);
    expect(opens.every((path) => path === '/api/namespaces')).toBe(true);
    const left = (await namespacesLeft()).length;
    expect(left).toBeLessThan(MAX_BATCH);
    await settings.pool.drain();
    expect(await namespacesLeft()).toEqual([]);
  });

  it('deletes a namespace that waited half its ttlMs in the pool instead of handing it out', async () => {
    let now = 0;
    const settings: SessionSettings = {
      url: mock.url,
      token: ADMIN,
      ttlMs: 60_000,
      onUnhandledRequest: 'error',
      hosts: {},
    };
    const pool = new NamespacePool(settings, settings.ttlMs, () => now);
    const first = await pool.take(); // a batch of one
    const second = await pool.take(); // a batch of two: one waits
    const names = (await namespacesLeft()).map((ns) => (ns as { name: string }).name);
    const waiting = names.find((name) => name !== first.name && name !== second.name);
    expect(names).toHaveLength(3);
    now += 30_000;
    const third = await pool.take();
    expect(third.name).not.toBe(waiting);
    // The stale one goes (its delete is not awaited by take): gone once the list no longer has it.
    await expect
      .poll(async () => (await namespacesLeft()).map((ns) => (ns as { name: string }).name))
      .not.toContain(waiting);
    await pool.drain();
    for (const { name } of [first, second, third]) {
      await fetch(`${mock.url}/api/namespaces/${name}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${ADMIN}` },
      });
    }
    expect(await namespacesLeft()).toEqual([]);
  });

  it('refuses a batch past the cap as a whole, leaving none of it', async () => {
    const capped = await createMockServer({ adminToken: ADMIN, maxNamespaces: 3 });
    try {
      const headers = { authorization: `Bearer ${ADMIN}` };
      const refused = await fetch(`${capped.url}/api/namespaces`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ count: 5 }),
      });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_NAMESPACES');
      const listed = await fetch(`${capped.url}/api/namespaces`, { headers });
      expect(((await listed.json()) as { namespaces: unknown[] }).namespaces).toEqual([]);
      const both = await fetch(`${capped.url}/api/namespaces`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ count: 2, name: 'x' }),
      });
      expect(((await both.json()) as { error: { code: string } }).error.code).toBe('INVALID_BODY');
    } finally {
      await capped.close();
    }
  });
});
