/**
 * carrySession against real servers: an app server (node:http, each handler
 * wrapped by withSession) that, per request, calls a second local server
 * standing in for the daemon, which answers with the `mockpoint-session`
 * header it got. Concurrent requests in different sessions meet at a gate
 * before calling out, so their contexts overlap.
 */
import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { carrySession, NOT_CARRIED_WARNING, publishesCreated } from './carry-session.js';
import { withSession } from './handlers.js';
import { currentSession, runWithSession, sessionHeaders } from './session-context.js';

interface Server {
  url: string;
  close(): Promise<void>;
}

async function listen(listener: http.RequestListener): Promise<Server> {
  const server = http.createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the stand-in upstream saw: the `mockpoint-session` header, or null. */
type Seen = { session: string | null };

/** Answers with the session header it got. */
const echo: http.RequestListener = (req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ session: req.headers['mockpoint-session'] ?? null }));
};

/** A GET by node:http, with extra headers. */
function httpGet(url: string, headers: Record<string, string> = {}): Promise<Seen> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(JSON.parse(body) as Seen));
      })
      .on('error', reject);
  });
}

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

let upstream: Server;
let other: Server;
let app: Server;
/** Set by a test that sends concurrent requests: each handler waits there before calling out. */
let meet: (() => Promise<void>) | undefined;
const warnings: Error[] = [];
const onWarning = (warning: Error) => {
  if ((warning as { code?: string }).code === NOT_CARRIED_WARNING) warnings.push(warning);
};

beforeAll(async () => {
  process.on('warning', onWarning);
  upstream = await listen(echo);
  other = await listen(echo);
  // The app server: `?via=fetch|http`, `&to=other`, `&own=<value>` (a header the app sets itself).
  app = await listen(
    withSession(async (req, res) => {
      // The body read with `await` stays in the session (an 'end' callback would run in the socket's context).
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const query = new URL(req.url ?? '/', 'http://app').searchParams;
      await meet?.();
      const target = query.get('to') === 'other' ? other.url : upstream.url;
      const own = query.get('own');
      const headers: Record<string, string> = own === null ? {} : { 'mockpoint-session': own };
      const seen =
        query.get('via') === 'http'
          ? await httpGet(target, headers)
          : ((await (await fetch(target, { headers })).json()) as Seen);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ...seen, body, inApp: currentSession() ?? null }));
    }),
  );
});

afterAll(async () => {
  process.off('warning', onWarning);
  await Promise.all([upstream?.close(), other?.close(), app?.close()]);
});

let stops: (() => void)[] = [];
afterEach(() => {
  meet = undefined;
  for (const stop of stops) stop();
  stops = [];
});

function carry(options?: Parameters<typeof carrySession>[0]): () => void {
  const stop = carrySession(options);
  stops.push(stop);
  return stop;
}

/** A request to the app server; resolves what the upstream saw. */
async function callApp(query: string, headers: Record<string, string> = {}, body?: string) {
  const response = await fetch(`${app.url}/?${query}`, { method: body === undefined ? 'GET' : 'POST', headers, body });
  expect(response.status).toBe(200);
  return (await response.json()) as Seen & { body: string; inApp: string | null };
}

/** Whether this Node publishes `http.client.request.created` (22.12 and later). */
async function nodePublishesCreated(): Promise<boolean> {
  let published = false;
  const probe = () => {
    published = true;
  };
  subscribe('http.client.request.created', probe);
  try {
    await httpGet(upstream.url);
  } finally {
    unsubscribe('http.client.request.created', probe);
  }
  return published;
}

describe('publishesCreated', () => {
  it('says which Node versions publish http.client.request.created, as this Node shows', async () => {
    expect(['20.20.2', '22.11.0', '23.1.0'].map(publishesCreated)).toEqual([false, false, false]);
    expect(['22.12.0', '23.2.0', '24.0.0', '25.1.3'].map(publishesCreated)).toEqual([true, true, true, true]);
    expect(publishesCreated(process.versions.node)).toBe(await nodePublishesCreated());
  });
});

describe('carrySession with global fetch', () => {
  it('concurrent requests in different sessions each carry their own', async () => {
    carry();
    const sessions = Array.from({ length: 12 }, (_, i) => `session-${i}`);
    meet = gate(sessions.length);
    const results = await Promise.all(sessions.map((s) => callApp('via=fetch', { 'mockpoint-session': s })));
    expect(results.map((r) => r.session)).toEqual(sessions);
    expect(results.map((r) => r.inApp)).toEqual(sessions);
  });

  it('a request outside a session gets no header, inside the app and in the caller', async () => {
    carry();
    expect(await callApp('via=fetch')).toMatchObject({ session: null, inApp: null });
    expect(await (await fetch(upstream.url)).json()).toEqual({ session: null });
  });

  it('reads the baggage form, and ignores an invalid session', async () => {
    carry();
    expect((await callApp('via=fetch', { baggage: 'user=1,mockpoint-session=from-baggage;p=1' })).session).toBe(
      'from-baggage',
    );
    expect((await callApp('via=fetch', { 'mockpoint-session': 'not/valid' })).session).toBeNull();
  });

  it('keeps a header the caller set', async () => {
    carry();
    expect((await callApp('via=fetch&own=mine', { 'mockpoint-session': 'theirs' })).session).toBe('mine');
  });

  it('keeps the session across a request body read with await', async () => {
    carry();
    expect(await callApp('via=fetch', { 'mockpoint-session': 'posted' }, 'x'.repeat(100_000))).toMatchObject({
      session: 'posted',
      body: 'x'.repeat(100_000),
    });
  });

  it('only: the destinations it accepts get the header, the others none', async () => {
    const origins: string[] = [];
    carry({
      only: (url) => {
        origins.push(url.origin);
        return url.origin === upstream.url;
      },
    });
    expect((await callApp('via=fetch', { 'mockpoint-session': 'a' })).session).toBe('a');
    expect((await callApp('via=fetch&to=other', { 'mockpoint-session': 'a' })).session).toBeNull();
    expect(origins).toEqual([upstream.url, other.url]);
  });

  it('a filter that throws refuses, and the request still goes', async () => {
    carry({
      only: () => {
        throw new Error('boom');
      },
    });
    expect((await callApp('via=fetch', { 'mockpoint-session': 'a' })).session).toBeNull();
  });

  it('stop() ends carrying; with two carriers on, each stop ends its own', async () => {
    const first = carry();
    const second = carry();
    first();
    expect((await callApp('via=fetch', { 'mockpoint-session': 'a' })).session).toBe('a');
    second();
    second();
    expect((await callApp('via=fetch', { 'mockpoint-session': 'a' })).session).toBeNull();
  });

  it('runWithSession carries in the caller too, and refuses an invalid name', async () => {
    carry();
    const seen = await runWithSession('direct', async () => (await fetch(upstream.url)).json());
    expect(seen).toEqual({ session: 'direct' });
    expect(() => runWithSession('no way', () => 1)).toThrow(
      expect.objectContaining({ code: 'MOCKPOINT_INVALID_SESSION' }),
    );
    expect(runWithSession('s', () => sessionHeaders())).toEqual({ 'mockpoint-session': 's' });
    expect(sessionHeaders()).toEqual({});
  });
});

describe('withSession on a Fetch-style handler (a Next.js route handler)', () => {
  it('runs each request in its session: the handler and what it fetches', async () => {
    carry();
    const GET = withSession(async (_request: Request, context: { tag: string }) => {
      const seen = (await (await fetch(upstream.url)).json()) as Seen;
      return Response.json({ ...seen, inHandler: currentSession() ?? null, tag: context.tag });
    });
    const answers = await Promise.all(
      ['n-1', 'n-2', undefined].map(async (session) => {
        const headers: Record<string, string> = session ? { baggage: `mockpoint-session=${session}` } : {};
        return (await GET(new Request('http://app/api/user', { headers }), { tag: 't' })).json();
      }),
    );
    expect(answers).toEqual([
      { session: 'n-1', inHandler: 'n-1', tag: 't' },
      { session: 'n-2', inHandler: 'n-2', tag: 't' },
      { session: null, inHandler: null, tag: 't' },
    ]);
  });
});

describe('carrySession with node:http', () => {
  it(`carries each concurrent session on this Node (${process.version}), with no warning`, async () => {
    // Node 22.12 and later: the created channel; Node 20 and 22 before 22.12: the ClientRequest interceptor.
    carry();
    const sessions = Array.from({ length: 8 }, (_, i) => `h-${i}`);
    meet = gate(sessions.length);
    const results = await Promise.all(sessions.map((s) => callApp('via=http', { 'mockpoint-session': s })));
    expect(results.map((r) => r.session)).toEqual(sessions);
    expect(warnings).toEqual([]);
    // Adding sessionHeaders() by hand works too.
    expect(await runWithSession('manual', () => httpGet(upstream.url, sessionHeaders()))).toEqual({
      session: 'manual',
    });
  });

  it('no header outside a session; a header the caller set is kept', async () => {
    carry();
    expect((await callApp('via=http')).session).toBeNull();
    expect((await callApp('via=http&own=mine', { 'mockpoint-session': 'theirs' })).session).toBe('mine');
  });

  it('only: applies to node:http too; after the last stop() the http functions are the originals', async () => {
    const original = { request: http.request, get: http.get };
    const stop = carry({ only: (url) => url.origin === other.url });
    expect((await callApp('via=http', { 'mockpoint-session': 'o-1' })).session).toBeNull();
    expect((await callApp('via=http&to=other', { 'mockpoint-session': 'o-1' })).session).toBe('o-1');
    stop();
    expect(http.request).toBe(original.request);
    expect(http.get).toBe(original.get);
    expect((await callApp('via=http&to=other', { 'mockpoint-session': 'o-1' })).session).toBeNull();
  });
});

describe('undici’s request shapes', () => {
  /** A request as undici 5 (headers as text) or 6 and 7 (a list) publish it, with what was added. */
  function fake(headers: string | string[]) {
    const added: [string, string][] = [];
    return {
      added,
      request: {
        origin: upstream.url,
        path: '/x',
        headers,
        addHeader(name: string, value: string) {
          added.push([name, value]);
        },
      },
    };
  }

  it('adds to either shape in a session, and never where the caller set the header', () => {
    carry();
    const publish = (message: ReturnType<typeof fake>) => channel('undici:request:create').publish(message);
    const shapes = {
      text: fake('accept: */*\r\n'),
      list: fake(['accept', '*/*']),
      textOwn: fake('accept: */*\r\nMockpoint-Session: mine\r\n'),
      listOwn: fake(['Mockpoint-Session', 'mine']),
      outside: fake(['accept', '*/*']),
    };
    runWithSession('s1', () => {
      for (const key of ['text', 'list', 'textOwn', 'listOwn'] as const) publish(shapes[key]);
    });
    publish(shapes.outside);
    expect(shapes.text.added).toEqual([['mockpoint-session', 's1']]);
    expect(shapes.list.added).toEqual([['mockpoint-session', 's1']]);
    expect(shapes.textOwn.added).toEqual([]);
    expect(shapes.listOwn.added).toEqual([]);
    expect(shapes.outside.added).toEqual([]);
  });
});

describe('one store per process', () => {
  it('a second copy of the module sees the first copy’s session', async () => {
    // @ts-expect-error: a query makes Vite load the module again, as a bundler's second chunk would
    const copy = (await import('./session-context.js?copy')) as typeof import('./session-context.js');
    expect(copy.runWithSession).not.toBe(runWithSession);
    expect(runWithSession('shared', () => copy.currentSession())).toBe('shared');
  });
});
