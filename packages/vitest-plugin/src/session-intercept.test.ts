// The intercepted requests of tests running at once each find their own test's session: the
// interceptors' listener runs in the async context of the request's caller, for the global fetch
// and for node:https alike (what the plugin's intercept relies on to send the session header).
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { startIntercept } from './intercept.js';
import { currentSession, runInSession, type SessionSettings, sessionOfRequest } from './session.js';

function fakeDaemon() {
  let next = 0;
  return async (request: Request): Promise<Response> => {
    if (request.method === 'POST') {
      next += 1;
      return Response.json({ name: `n${next}`, token: `t${next}`, createdAt: 'now' }, { status: 201 });
    }
    if (request.method === 'GET') return Response.json({ requests: [] });
    return new Response(null, { status: 204 });
  };
}

function httpsGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('intercepted requests of concurrent tests', () => {
  it('each carry their own test’s session, by fetch and by https.get', async () => {
    const stop = startIntercept(['https://api.session.test'], async () =>
      Response.json({ session: (await sessionOfRequest())?.name ?? null }),
    );
    try {
      const settings: SessionSettings = {
        url: 'http://daemon.test',
        fetch: fakeDaemon(),
        ttlMs: 1000,
        onUnhandledRequest: 'off',
        hosts: {},
      };
      const seen: string[] = [];
      const body = (wait: number) => async () => {
        const own = (await currentSession()).name;
        for (let i = 0; i < 3; i++) {
          await tick(wait);
          const fetched = (await (await fetch('https://api.session.test/a')).json()) as { session: string };
          const got = JSON.parse(await httpsGet('https://api.session.test/b')) as { session: string };
          seen.push(`${own} fetch:${fetched.session} get:${got.session}`);
        }
      };
      await Promise.all([
        runInSession(settings, body(5)),
        runInSession(settings, body(2)),
        runInSession(settings, body(9)),
      ]);
      expect(new Set(seen)).toEqual(new Set(['n1 fetch:n1 get:n1', 'n2 fetch:n2 get:n2', 'n3 fetch:n3 get:n3']));
      expect(seen).toHaveLength(9);
    } finally {
      stop();
    }
  });
});
