// What a session costs in requests of the plugin's own, against a real server (createMockServer,
// as the run's instance, with an admin token): one to open it, one to end it, whose delete also
// answers what nothing answered in it (DELETE /api/namespaces/{ns}?unhandled=true). The verdict
// is the same as when the read was a request of its own: the test with an unhandled request fails
// naming it, a clean one passes, 'off' reads nothing; every namespace is gone after its test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from './create-mock-server.js';
import { currentSession, runInSession, type SessionSettings } from './session.js';

const ADMIN = 'session-end-admin';
let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ adminToken: ADMIN });
});
afterAll(() => mock.close());

/** The plugin's settings, its calls (method, path and query) written down as they go to the real server. */
function counted(over: Partial<SessionSettings> = {}): { settings: SessionSettings; calls: string[] } {
  const calls: string[] = [];
  const settings: SessionSettings = {
    url: mock.url,
    token: ADMIN,
    ttlMs: 60_000,
    onUnhandledRequest: 'error',
    hosts: {},
    fetch: (request) => {
      const { pathname, search } = new URL(request.url);
      calls.push(`${request.method} ${pathname}${search}`);
      return fetch(request);
    },
    ...over,
  };
  return { settings, calls };
}

async function namespacesLeft(): Promise<unknown[]> {
  const listed = await fetch(`${mock.url}/api/namespaces`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return ((await listed.json()) as { namespaces: unknown[] }).namespaces;
}

/** A test body: adds `user` in its session, reads it, and reads `misses` names nothing answers. */
function body(misses: string[]) {
  return async () => {
    const session = await currentSession();
    const user = await session.add({ name: 'user', data: { id: 1 } });
    expect(await (await fetch(user.url)).json()).toEqual({ id: 1 });
    for (const name of misses) expect((await fetch(`${session.url}/endpoint/${name}/x`)).status).toBe(404);
  };
}

describe('a session’s requests of the plugin’s own (real server)', () => {
  it('a clean test: opened and ended, two requests besides its own add', async () => {
    const { settings, calls } = counted();
    await runInSession(settings, body([]));
    expect(calls.filter((call) => !call.startsWith('PUT '))).toEqual([
      'POST /api/namespaces',
      expect.stringMatching(/^DELETE \/api\/namespaces\/[\w-]+\?unhandled=true$/),
    ]);
    expect(await namespacesLeft()).toEqual([]);
  });

  it("'error': the test with unhandled requests fails naming them, from the same request that ended it", async () => {
    const { settings, calls } = counted();
    await expect(runInSession(settings, body(['nobody', 'ghost']))).rejects.toMatchObject({
      code: 'UNHANDLED_REQUEST',
      message: expect.stringMatching(/2 requests .*\n {2}1\. GET nobody \/x → 404.*\n {2}2\. GET ghost \/x → 404/s),
    });
    expect(calls.filter((call) => !call.startsWith('PUT '))).toHaveLength(2);
    expect(await namespacesLeft()).toEqual([]);
  });

  it("'off': ended by a plain delete, nothing read; tests at once each end their own", async () => {
    const { settings, calls } = counted({ onUnhandledRequest: 'off' });
    await Promise.all([runInSession(settings, body(['nobody'])), runInSession(settings, body([]))]);
    const ends = calls.filter((call) => call.startsWith('DELETE '));
    expect(ends).toHaveLength(2);
    for (const end of ends) expect(end).toMatch(/^DELETE \/api\/namespaces\/[\w-]+$/);
    expect(calls.filter((call) => call.startsWith('GET '))).toEqual([]);
    expect(await namespacesLeft()).toEqual([]);
  });
});
