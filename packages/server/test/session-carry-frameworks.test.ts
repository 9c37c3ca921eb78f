/**
 * @mockpoint/core/session in the app servers people start for e2e tests:
 * Express (sessionMiddleware), Fastify (fastifySession) and the undici
 * package, each in process against a stand-in upstream that answers with the
 * `mockpoint-session` header it got. Concurrent requests in different
 * sessions meet at a gate before calling out, so their contexts overlap.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { carrySession, fastifySession, runWithSession, sessionMiddleware, withSession } from '@mockpoint/core/session';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { fetch as undiciFetch, request as undiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

type Seen = { session: string | null };

let upstream: { url: string; server: http.Server };
let stopCarrying: () => void;
/** Set by a test that sends concurrent requests: each handler waits there before calling out. */
let meet: (() => Promise<void>) | undefined;

/** Resolves once `count` callers are waiting in it. */
function gate(count: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === count) open();
    return opened;
  };
}

async function listen(server: http.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: http.Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** What the upstream saw when called with global fetch. */
async function viaFetch(): Promise<Seen> {
  await meet?.();
  return (await (await fetch(upstream.url)).json()) as Seen;
}

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ session: req.headers['mockpoint-session'] ?? null }));
  });
  upstream = { url: await listen(server), server };
  stopCarrying = carrySession();
});

afterAll(async () => {
  stopCarrying?.();
  await close(upstream?.server);
});

afterEach(() => {
  meet = undefined;
});

/** Sends one request per session at once (and one without), and expects each to carry its own. */
async function expectEachCarried(url: string, init: RequestInit = {}): Promise<void> {
  const sessions = Array.from({ length: 10 }, (_, i) => `s-${i}`);
  meet = gate(sessions.length + 1);
  const answers = await Promise.all(
    [...sessions, undefined].map(async (session) => {
      const headers = {
        ...(init.headers as Record<string, string>),
        ...(session ? { 'mockpoint-session': session } : {}),
      };
      const response = await fetch(url, { ...init, headers });
      expect(response.status).toBe(200);
      return (await response.json()) as Seen;
    }),
  );
  expect(answers.map((a) => a.session)).toEqual([...sessions, null]);
}

describe('Express with sessionMiddleware()', () => {
  let server: http.Server | undefined;
  let url: string;

  beforeAll(async () => {
    const app = express();
    app.use(sessionMiddleware());
    app.use(express.json());
    app.get('/call', async (_req, res) => {
      res.json(await viaFetch());
    });
    // The body is parsed by express.json() after the middleware: the handler still runs in the session.
    app.post('/call', async (req, res) => {
      res.json({ ...(await viaFetch()), echoed: req.body });
    });
    server = http.createServer(app);
    url = await listen(server);
  });

  afterAll(() => close(server));

  it('concurrent GETs each carry their own session, and none without one', async () => {
    await expectEachCarried(`${url}/call`);
  });

  it('a POST whose JSON body express.json() parsed carries it too', async () => {
    await expectEachCarried(`${url}/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ big: 'y'.repeat(50_000) }),
    });
  });

  it('the baggage form, and an invalid value ignored', async () => {
    const bag = await fetch(`${url}/call`, { headers: { baggage: 'mockpoint-session=from-bag' } });
    expect(await bag.json()).toEqual({ session: 'from-bag' });
    const bad = await fetch(`${url}/call`, { headers: { 'mockpoint-session': 'a b' } });
    expect(await bad.json()).toEqual({ session: null });
  });
});

describe('Fastify with fastifySession', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    app = Fastify();
    await app.register(fastifySession);
    app.get('/call', async () => viaFetch());
    app.post('/call', async (request) => ({ ...(await viaFetch()), echoed: request.body }));
    // A route in an encapsulated plugin: the plugin is not encapsulated, so it covers this one too.
    await app.register(async (child) => {
      child.post('/inner/call', async () => viaFetch());
    });
    // A hook that calls out before the handler: it runs in the session as well.
    app.addHook('preHandler', async (request) => {
      if (request.headers['x-check-hook'] === '1') {
        const seen = (await (await fetch(upstream.url)).json()) as Seen;
        if (seen.session !== (request.headers['mockpoint-session'] ?? null)) throw new Error('hook not in session');
      }
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('concurrent GETs each carry their own session, and none without one', async () => {
    await expectEachCarried(`${url}/call`);
  });

  it('a POST with a parsed JSON body carries it, in a preHandler hook too', async () => {
    await expectEachCarried(`${url}/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-check-hook': '1' },
      body: JSON.stringify({ big: 'z'.repeat(50_000) }),
    });
  });

  it('routes registered in an encapsulated plugin are covered', async () => {
    await expectEachCarried(`${url}/inner/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  });
});

describe('the undici package', () => {
  let server: http.Server | undefined;
  let url: string;

  beforeAll(async () => {
    server = http.createServer(
      withSession(async (req, res) => {
        await meet?.();
        const how = new URL(req.url ?? '/', 'http://app').pathname;
        const seen =
          how === '/request'
            ? ((await (await undiciRequest(upstream.url)).body.json()) as Seen)
            : ((await (await undiciFetch(upstream.url)).json()) as Seen);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(seen));
      }),
    );
    url = await listen(server);
  });

  afterAll(() => close(server));

  it('undici.request: concurrent sessions each carry their own', async () => {
    await expectEachCarried(`${url}/request`);
  });

  it('undici.fetch: concurrent sessions each carry their own', async () => {
    await expectEachCarried(`${url}/fetch`);
  });

  it('undici.request keeps a header the caller set', async () => {
    const seen = await runWithSession('ours', async () =>
      (await undiciRequest(upstream.url, { headers: { 'mockpoint-session': 'mine' } })).body.json(),
    );
    expect(seen).toEqual({ session: 'mine' });
  });
});
