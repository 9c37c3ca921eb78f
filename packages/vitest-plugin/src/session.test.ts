// Sessions against a fake daemon: opened on first use only, one per test also when tests run at
// once (AsyncLocalStorage), the host mappings applied, onUnhandledRequest applied after the test,
// and the namespace deleted whatever happened.
import { describe, expect, it, vi } from 'vitest';
import { currentSession, enableSessions, runInSession, type SessionSettings, sessionOfRequest } from './session.js';

/** A daemon that knows namespaces n1, n2, …; `unhandled` is what each reports. */
function fakeDaemon(unhandled: Record<string, unknown[]> = {}) {
  const calls: string[] = [];
  let next = 0;
  const fetch = async (request: Request): Promise<Response> => {
    const { pathname, search } = new URL(request.url);
    const body = request.method === 'PUT' ? ` ${await request.text()}` : '';
    calls.push(`${request.method} ${pathname}${search}${body}`);
    if (request.method === 'POST' && pathname === '/api/namespaces') {
      next += 1;
      return Response.json({ name: `n${next}`, token: `t${next}`, createdAt: 'now' }, { status: 201 });
    }
    const ns = /^\/ns\/([^/]+)\/api\/requests\/unhandled$/.exec(pathname);
    if (ns) return Response.json({ requests: unhandled[ns[1] as string] ?? [] });
    const ended = /^\/api\/namespaces\/([^/]+)$/.exec(pathname);
    if (request.method === 'DELETE' && ended && search === '?unhandled=true') {
      return Response.json({ requests: unhandled[ended[1] as string] ?? [] });
    }
    if (request.method === 'PUT') return Response.json({ hosts: [] });
    return new Response(null, { status: 204 });
  };
  return { calls, fetch };
}

function settings(fetch: SessionSettings['fetch'], over: Partial<SessionSettings> = {}): SessionSettings {
  return { url: 'http://daemon.test', fetch, ttlMs: 60_000, onUnhandledRequest: 'error', hosts: {}, ...over };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const MISSED = {
  id: 9,
  name: 'users',
  method: 'GET',
  subpath: '/users/7',
  receivedAt: 'now',
  statusCode: 404,
  message: 'no route matched; nearest: GET /users/:id/orders',
};

describe('test sessions', () => {
  it('outside a test: NO_SESSION, saying sessions are off until the setup file turned them on', async () => {
    await expect(currentSession()).rejects.toMatchObject({
      code: 'NO_SESSION',
      message: /mockpoint\(\{ sessions: true \}\)/,
    });
    enableSessions();
    await expect(currentSession()).rejects.toMatchObject({ code: 'NO_SESSION', message: /belongs to one test/ });
    expect(await sessionOfRequest()).toBeUndefined();
  });

  it('a test that never asks opens no namespace', async () => {
    const daemon = fakeDaemon();
    await runInSession(settings(daemon.fetch), async () => {});
    expect(daemon.calls).toEqual([]);
  });

  it('tests running at once each get their own namespace, the same one all through a test', async () => {
    const daemon = fakeDaemon();
    const seen: Record<string, string[]> = { a: [], b: [] };
    const body = (key: 'a' | 'b', wait: number) => async () => {
      for (let i = 0; i < 3; i++) {
        const session = await currentSession();
        seen[key]?.push(`${session.name} ${session.url} ${session.headers['mockpoint-session']} ${session.token}`);
        await tick(wait);
      }
    };
    await Promise.all([
      runInSession(settings(daemon.fetch), body('a', 7)),
      runInSession(settings(daemon.fetch), body('b', 3)),
    ]);
    const a = new Set(seen.a);
    const b = new Set(seen.b);
    expect([a.size, b.size]).toEqual([1, 1]);
    expect([...a, ...b].sort()).toEqual(['n1 http://daemon.test/ns/n1 n1 t1', 'n2 http://daemon.test/ns/n2 n2 t2']);
    // Each: created once, checked and deleted after its test.
    expect(daemon.calls.filter((call) => call.startsWith('POST'))).toHaveLength(2);
    expect(daemon.calls.filter((call) => call.startsWith('DELETE')).sort()).toEqual([
      'DELETE /api/namespaces/n1?unhandled=true',
      'DELETE /api/namespaces/n2?unhandled=true',
    ]);
  });

  it("maps the run's hosts in every session, grouped by endpoint", async () => {
    const daemon = fakeDaemon();
    const hosts = { 'api.github.com': 'github', 'uploads.github.com': 'github', 'api.stripe.com': 'stripe' };
    await runInSession(settings(daemon.fetch, { hosts }), async () => {
      await currentSession();
    });
    expect(daemon.calls.slice(0, 3)).toEqual([
      'POST /api/namespaces',
      'PUT /ns/n1/api/endpoints/github/hosts {"hosts":["api.github.com","uploads.github.com"]}',
      'PUT /ns/n1/api/endpoints/stripe/hosts {"hosts":["api.stripe.com"]}',
    ]);
  });

  it("'error': a test whose session has unhandled requests fails with UNHANDLED_REQUEST naming them; still deleted", async () => {
    const daemon = fakeDaemon({ n1: [MISSED] });
    const run = runInSession(settings(daemon.fetch), async () => {
      await currentSession();
    });
    await expect(run).rejects.toMatchObject({
      name: 'MockServerError',
      code: 'UNHANDLED_REQUEST',
      message: expect.stringContaining('1. GET users /users/7 → 404: no route matched; nearest: GET /users/:id/orders'),
    });
    // Read and deleted in one request.
    expect(daemon.calls.slice(1)).toEqual(['DELETE /api/namespaces/n1?unhandled=true']);
  });

  it('a daemon from before the ending query (204) is an error, not a session with nothing unhandled', async () => {
    const daemon = fakeDaemon({ n1: [MISSED] });
    const older = async (request: Request): Promise<Response> => {
      const answer = await daemon.fetch(request);
      return request.method === 'DELETE' ? new Response(null, { status: 204 }) : answer;
    };
    const run = runInSession(settings(older), async () => {
      await currentSession();
    });
    await expect(run).rejects.toThrow(/answered 204 .*predates that query.*Run a daemon of the plugin's version/);
  });

  it("'warn' prints the same and passes; 'off' does not look", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const daemon = fakeDaemon({ n1: [MISSED], n2: [MISSED] });
      const open = async () => {
        await currentSession();
      };
      await runInSession(settings(daemon.fetch, { onUnhandledRequest: 'warn' }), open);
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/^mockpoint: 1 request .*'warn'.*\n {2}1\. GET users \/users\/7/s),
      );
      await runInSession(settings(daemon.fetch, { onUnhandledRequest: 'off' }), open);
      expect(daemon.calls.filter((call) => call.includes('/ns/n2/'))).toEqual([]);
      expect(daemon.calls.at(-1)).toBe('DELETE /api/namespaces/n2');
    } finally {
      warn.mockRestore();
    }
  });

  it('a body that throws: its error passes through, and the namespace is still deleted', async () => {
    const daemon = fakeDaemon({ n1: [MISSED] });
    const boom = new Error('boom');
    const run = runInSession(settings(daemon.fetch), async () => {
      await currentSession();
      throw boom;
    });
    await expect(run).rejects.toBe(boom);
    expect(daemon.calls).toEqual(['POST /api/namespaces', 'DELETE /api/namespaces/n1']);
  });

  it('a request from outside every test context: the one running test’s session; with two, NO_SESSION', async () => {
    const daemon = fakeDaemon();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const one = runInSession(settings(daemon.fetch), () => held);
    expect((await sessionOfRequest())?.name).toBe('n1');
    const two = runInSession(settings(daemon.fetch), () => held);
    await expect(sessionOfRequest()).rejects.toMatchObject({ code: 'NO_SESSION', message: /2 tests run at once/ });
    release();
    await Promise.all([one, two]);
    expect(await sessionOfRequest()).toBeUndefined();
  });

  it('asked for after its test ended (work the test left): NO_SESSION, and no namespace is made', async () => {
    const daemon = fakeDaemon();
    let late: Promise<unknown> | undefined;
    let fired = () => {};
    const firing = new Promise<void>((resolve) => {
      fired = resolve;
    });
    // Left behind by the test, in its context; set off once the test has ended (an event, not a time).
    let setOff = () => {};
    const ended = new Promise<void>((resolve) => {
      setOff = resolve;
    });
    await runInSession(settings(daemon.fetch), async () => {
      void ended.then(() => {
        late = currentSession();
        fired();
      });
    });
    setOff();
    await firing;
    await expect(late).rejects.toMatchObject({ code: 'NO_SESSION', message: /ended/ });
    expect(daemon.calls).toEqual([]);
  });
});
