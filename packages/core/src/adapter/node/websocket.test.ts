// WebSocket answers over real sockets: serve() with the `ws` client package.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_JSON_DEPTH } from '../../codec/json-text.js';
import {
  createApp,
  createClient,
  type JournalEntry,
  JsonText,
  type MockpointApp,
  type MockpointClient,
} from '../../index.js';
import { type ServedApp, serve } from './index.js';

interface Running {
  app: MockpointApp;
  served: ServedApp;
  url: string;
  ws: string;
  client: MockpointClient;
}

const running: Running[] = [];
const sockets: WebSocket[] = [];

async function start(options: Parameters<typeof createApp>[0] = {}): Promise<Running> {
  const app = createApp(options);
  const served = await serve(app, { port: 0, overrideGlobalObjects: false });
  const r = {
    app,
    served,
    url: served.url,
    ws: served.url.replace('http', 'ws'),
    client: createClient({ baseUrl: served.url }),
  };
  running.push(r);
  return r;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const r of running.splice(0)) await r.served.close();
});

/** A client socket that collects what it receives. */
function connect(url: string, protocols?: string | string[]) {
  const socket = new WebSocket(url, protocols);
  sockets.push(socket);
  const messages: Array<{ data: string; binary: boolean }> = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data, binary) => {
    messages.push({ data: binary ? (data as Buffer).toString('base64') : data.toString(), binary });
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const received = async (count: number): Promise<typeof messages> => {
    while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages;
  };
  return { socket, messages, opened, closed, received };
}

describe('websocket answers on Node', () => {
  it('accepts the upgrade, plays onOpen, replies to a matching message and journals every frame both ways', async () => {
    const { client, ws } = await start();
    await client.setRoutes('chat', [
      {
        match: { path: '/room/:id' },
        answer: {
          websocket: {
            protocols: ['chat.v2', 'chat.v1'],
            onOpen: [
              { json: new JsonText('{"type":"welcome","big":12345678901234567890}') },
              { text: 'second', delay: 20 },
            ],
            on: [
              { match: { body: { type: 'ping' } }, send: [{ json: { type: 'pong' } }, { bytes: 'AAEC/w==' }] },
              { match: { body: 'bye' }, close: { code: 4000, reason: 'see you' } },
            ],
          },
        },
      },
    ]);
    const c = connect(`${ws}/endpoint/chat/room/7?x=1`, ['chat.v1', 'other']);
    await c.opened;
    expect(c.socket.protocol).toBe('chat.v1');
    const first = await c.received(2);
    expect(first).toEqual([
      { data: '{"type":"welcome","big":12345678901234567890}', binary: false },
      { data: 'second', binary: false },
    ]);
    c.socket.send(JSON.stringify({ type: 'ping', n: 1 }));
    const replies = await c.received(4);
    expect(replies.slice(2)).toEqual([
      { data: '{"type":"pong"}', binary: false },
      { data: 'AAEC/w==', binary: true },
    ]);
    c.socket.send('bye');
    expect(await c.closed).toEqual({ code: 4000, reason: 'see you' });

    const entries: JournalEntry[] = await client.requests('chat');
    const shown = entries.map((e) => [e.method, e.statusCode, e.websocket?.direction, e.body, e.bodyEncoding]);
    expect(shown).toEqual([
      ['GET', 101, undefined, '', undefined],
      ['MESSAGE', 0, 'out', '{"type":"welcome","big":12345678901234567890}', undefined],
      ['MESSAGE', 0, 'out', 'second', undefined],
      ['MESSAGE', 0, 'in', '{"type":"ping","n":1}', undefined],
      ['MESSAGE', 0, 'out', '{"type":"pong"}', undefined],
      ['MESSAGE', 0, 'out', 'AAEC/w==', 'base64'],
      ['MESSAGE', 0, 'in', 'bye', undefined],
      ['CLOSE', 0, 'out', 'see you', undefined],
    ]);
    const connection = entries[1]?.websocket?.connection;
    expect(connection).toMatch(/^[0-9a-f]{12}$/);
    expect(entries.slice(1).every((e) => e.websocket?.connection === connection)).toBe(true);
    expect(entries[7]?.websocket?.code).toBe(4000);
    expect(entries[3]?.subpath).toBe('/room/7');
    expect(entries[3]?.json).toEqual({ type: 'ping', n: 1 });
    expect(entries[1]?.answeredBy).toEqual({
      route: entries[0]?.answeredBy && (entries[0].answeredBy as { route: string }).route,
    });

    const incoming = await client.requests('chat', {
      match: { websocket: { direction: 'in' }, body: { type: 'ping' } },
    });
    expect(incoming.map((e) => e.body)).toEqual(['{"type":"ping","n":1}']);
  });

  it("sends the route's headers on the 101, each with the subprotocol chosen for its own handshake", async () => {
    const { client, ws } = await start();
    await client.setRoutes('hello', [
      {
        answer: {
          headers: { 'x-room': 'seven', 'x-tag': ['a', 'b'] },
          websocket: { protocols: ['v2', 'v1'], onOpen: [{ text: 'hi' }] },
        },
      },
    ]);
    const heads = ['v1', 'v2', undefined].map((offer) => {
      const c = connect(`${ws}/endpoint/hello`, offer);
      const head = new Promise<Record<string, string | string[] | undefined>>((resolve) =>
        c.socket.once('upgrade', (res) => resolve(res.headers)),
      );
      return Promise.all([head, c.opened.then(() => c.socket.protocol)]);
    });
    const seen = await Promise.all(heads);
    expect(seen.map(([, protocol]) => protocol)).toEqual(['v1', 'v2', '']);
    for (const [headers] of seen) {
      expect(headers['x-room']).toBe('seven');
      expect(headers['x-tag']).toBe('a, b');
    }
  });

  it('matches a message nested deeper than MAX_JSON_DEPTH by its text only, as the journal keeps it', async () => {
    const { client, ws } = await start();
    await client.setRoutes('deep', [
      { answer: { websocket: { on: [{ match: { body: { type: 'ping' } }, send: [{ text: 'pong' }] }] } } },
    ]);
    const c = connect(`${ws}/endpoint/deep`);
    await c.opened;
    const deep = `{"type":"ping","deep":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`;
    c.socket.send(deep);
    c.socket.send('{"type":"ping"}');
    // Messages are taken in order: the answer to the second comes after the first was judged.
    expect(await c.received(1)).toEqual([{ data: 'pong', binary: false }]);
    c.socket.send('{"type":"ping"}');
    expect(await c.received(2)).toHaveLength(2);
    const entries = await client.requests('deep', { match: { websocket: { direction: 'in' } } });
    expect(entries.find((e) => e.body === deep)?.json).toBeUndefined();
  });

  it('answers a plain request to a websocket route with 426 WEBSOCKET_REQUIRED', async () => {
    const { client, url } = await start();
    await client.setRoutes('plain', [{ answer: { websocket: { onOpen: [{ text: 'hi' }] } } }]);
    const response = await fetch(`${url}/endpoint/plain`);
    expect(response.status).toBe(426);
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('WEBSOCKET_REQUIRED');
  });

  it('refuses an upgrade with the status of a route that is not a websocket, and 404 outside /endpoint/', async () => {
    const { client, ws } = await start();
    await client.setRoutes('refuse', [{ answer: { statusCode: 403, data: { no: true } } }]);
    const status = (url: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url);
        sockets.push(socket);
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('error', () => undefined);
      });
    expect(await status(`${ws}/endpoint/refuse`)).toBe(403);
    expect(await status(`${ws}/api/health`)).toBe(404);
  });

  it('delays the handshake, closes after onOpen, and drops without a close frame', async () => {
    const { client, ws } = await start();
    await client.setRoutes('faults', [
      {
        match: { path: '/slow' },
        answer: { delay: 150, websocket: { onOpen: [{ text: 'late' }], close: { code: 1001 } } },
      },
      {
        match: { path: '/drop' },
        answer: { websocket: { onOpen: [{ text: 'x' }], close: { drop: true, delay: 10 } } },
      },
    ]);
    const started = Date.now();
    const slow = connect(`${ws}/endpoint/faults/slow`);
    await slow.opened;
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect((await slow.closed).code).toBe(1001);
    expect(slow.messages.map((m) => m.data)).toEqual(['late']);
    const dropped = connect(`${ws}/endpoint/faults/drop`);
    expect((await dropped.closed).code).toBe(1006);
  });

  it('lists open connections, sends to one or all, closes them with a code', async () => {
    const { client, ws, served } = await start();
    await client.setRoutes('admin', [{ answer: { websocket: {} } }]);
    const a = connect(`${ws}/endpoint/admin/a`);
    const b = connect(`${ws}/endpoint/admin/b`);
    await Promise.all([a.opened, b.opened]);
    expect(served.port).toBeGreaterThan(0);
    const sockets = await client.sockets('admin');
    expect(sockets.map((s) => s.subpath).sort()).toEqual(['/a', '/b']);
    const idOfA = sockets.find((s) => s.subpath === '/a')?.id as string;
    expect(await client.sendSocket('admin', { json: { all: true } })).toBe(2);
    expect(await client.sendSocket('admin', { text: 'only a' }, { connection: idOfA })).toBe(1);
    expect((await a.received(2)).map((m) => m.data)).toEqual(['{"all":true}', 'only a']);
    expect((await b.received(1)).map((m) => m.data)).toEqual(['{"all":true}']);
    await expect(client.sendSocket('admin', { text: 'x' }, { connection: 'nope' })).rejects.toMatchObject({
      code: 'SOCKET_NOT_FOUND',
    });
    expect(await client.closeSockets('admin', { code: 4001, reason: 'bye' })).toBe(2);
    expect(await a.closed).toEqual({ code: 4001, reason: 'bye' });
    expect((await b.closed).code).toBe(4001);
  });

  it('refuses a handshake past the open sockets per name (503) and closes a client past the frame size (1009)', async () => {
    const { client, ws } = await start({ maxSocketsPerName: 1, maxSocketFrameBytes: 1000 });
    await client.setRoutes('lim', [{ answer: { websocket: {} } }]);
    const first = connect(`${ws}/endpoint/lim`);
    await first.opened;
    const second = new WebSocket(`${ws}/endpoint/lim`);
    sockets.push(second);
    const status = await new Promise<number>((resolve) => {
      second.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      second.on('error', () => undefined);
    });
    expect(status).toBe(503);
    first.socket.send('x'.repeat(2000));
    expect((await first.closed).code).toBe(1009);
  });

  it('open WebSockets take at most nine tenths of the connection cap: health still connects, one more handshake is 503', async () => {
    const app = createApp();
    // Set in-process: no HTTP connection of the test's own to count against the cap.
    const put = await app.request('/api/endpoints/cap/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { websocket: {} } }] }),
    });
    expect(put.status).toBe(200);
    const served = await serve(app, { port: 0, overrideGlobalObjects: false, maxConnections: 3 });
    running.push({ app, served, url: served.url, ws: '', client: createClient({ baseUrl: served.url }) });
    const url = served.url;
    const ws = url.replace('http', 'ws');
    const a = connect(`${ws}/endpoint/cap/a`);
    const b = connect(`${ws}/endpoint/cap/b`);
    await Promise.all([a.opened, b.opened]);
    // A third socket would fill the cap: refused, so that the API keeps its connection.
    const third = new WebSocket(`${ws}/endpoint/cap/c`);
    sockets.push(third);
    const refusal = await new Promise<{ status: number; body: string }>((resolve) => {
      third.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      third.on('error', () => undefined);
    });
    expect(refusal.status).toBe(503);
    expect(JSON.parse(refusal.body).error.code).toBe('TOO_MANY_SOCKETS');
    const health = await fetch(`${url}/api/health`, { headers: { connection: 'close' } });
    expect(health.status).toBe(200);
    // The cap never evicts an open WebSocket as idle.
    expect([a.socket.readyState, b.socket.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
  });

  it('closes a connection idle for MOCKPOINT_SOCKET_IDLE_TIMEOUT_MS with 1001; a message either way postpones it', async () => {
    const { client, ws } = await start({ socketIdleTimeoutMs: 400 });
    await client.setRoutes('idle', [{ answer: { websocket: { on: [{ send: [{ text: 'ok' }] }] } } }]);
    const quiet = connect(`${ws}/endpoint/idle/quiet`);
    const busy = connect(`${ws}/endpoint/idle/busy`);
    await Promise.all([quiet.opened, busy.opened]);
    const opened = Date.now();
    const chatting = setInterval(() => busy.socket.send('hi'), 100);
    const quietClose = await quiet.closed;
    expect(quietClose).toEqual({ code: 1001, reason: 'idle for 400 ms' });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(350);
    expect(busy.socket.readyState).toBe(WebSocket.OPEN);
    clearInterval(chatting);
    expect((await busy.closed).code).toBe(1001);
    const closes = await client.requests('idle', { match: { method: 'CLOSE' } });
    expect(closes.map((e) => [e.websocket?.direction, e.websocket?.code, e.body])).toEqual([
      ['out', 1001, 'idle for 400 ms'],
      ['out', 1001, 'idle for 400 ms'],
    ]);
  });

  it('counts pings and pongs with the messages: a client that floods pings is closed with 1008', async () => {
    const { client, ws } = await start();
    await client.setRoutes('pings', [{ answer: { websocket: {} } }]);
    const c = connect(`${ws}/endpoint/pings`);
    await c.opened;
    for (let i = 0; i < 1200; i++) c.socket.ping();
    const closed = await c.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('pings and pongs count');
  });

  it('closes a client whose message stays unfinished past MOCKPOINT_SOCKET_MESSAGE_TIMEOUT_MS (1008), pings between its fragments or not', async () => {
    const { client, ws } = await start({ socketMessageTimeoutMs: 300 });
    await client.setRoutes('parts', [{ answer: { websocket: {} } }]);
    const c = connect(`${ws}/endpoint/parts`);
    await c.opened;
    const started = Date.now();
    c.socket.send('first half ', { fin: false });
    const pinging = setInterval(() => c.socket.ping(), 50);
    const closed = await c.closed;
    clearInterval(pinging);
    expect(closed).toEqual({ code: 1008, reason: 'a message was not finished within 300 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // A message finished in time is taken whole.
    const whole = connect(`${ws}/endpoint/parts`);
    await whole.opened;
    whole.socket.send('first ', { fin: false });
    whole.socket.send('second', { fin: true });
    const [entry] = await client.waitForRequests('parts', { count: 1, match: { body: 'first second' } });
    expect(entry?.websocket?.direction).toBe('in');
    expect(whole.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('bounds the bytes of unfinished messages all connections hold (16 MiB): past it a client is closed with 1013', async () => {
    const { app, client, ws } = await start();
    await client.setRoutes('held', [{ answer: { websocket: {} } }]);
    const part = Buffer.alloc(1024 * 1024 - 1024, 0x61);
    const codes: number[] = [];
    const clients = await Promise.all(
      Array.from({ length: 24 }, async () => {
        const c = connect(`${ws}/endpoint/held`);
        await c.opened;
        void c.closed.then((closed) => codes.push(closed.code));
        c.socket.send(part, { fin: false, binary: false });
        return c;
      }),
    );
    // Settled: every client was closed, or the server holds the whole of its part (the bytes held are
    // the open clients' parts, no fewer). Nothing more is on its way, so those open stay open.
    const { sockets } = app.mockpoint;
    await expect
      .poll(() => sockets.heldTotal === (clients.length - codes.length) * part.length, { timeout: 15_000 })
      .toBe(true);
    // 16 of them fit under the bound; the others were closed as they crossed it.
    expect(codes.filter((code) => code === 1013).length).toBeGreaterThanOrEqual(4);
    expect(codes.every((code) => code === 1013)).toBe(true);
    const open = clients.filter((c) => c.socket.readyState === WebSocket.OPEN);
    expect(open.length).toBeGreaterThanOrEqual(12);
    expect(open.length + codes.length).toBe(clients.length);
  }, 20_000);

  it('a queued answer takes an upgrade first: a status refuses the handshake, a reset breaks it', async () => {
    const { client, ws } = await start();
    await client.setRoutes('queued', [{ answer: { websocket: { onOpen: [{ text: 'hi' }] } } }]);
    await client.queue('queued', [{ statusCode: 503, data: { busy: true } }, { fault: 'reset' }]);
    const outcome = (url: string) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(url);
        sockets.push(socket);
        socket.on('unexpected-response', (_req, res) => resolve(`status ${res.statusCode}`));
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
        socket.on('open', () => resolve('open'));
      });
    expect(await outcome(`${ws}/endpoint/queued`)).toBe('status 503');
    expect(await outcome(`${ws}/endpoint/queued`)).toBe('error ECONNRESET');
    expect(await outcome(`${ws}/endpoint/queued`)).toBe('open');
    const entries = await client.requests('queued', { match: { method: 'GET' } });
    expect(entries.map((e) => [e.statusCode, e.queued ?? false, e.fault ?? null])).toEqual([
      [503, true, null],
      [0, true, 'reset'],
      [101, false, null],
    ]);
  });

  it('answers pings with pongs', async () => {
    const { client, ws } = await start();
    await client.setRoutes('ping', [{ answer: { websocket: {} } }]);
    const c = connect(`${ws}/endpoint/ping`);
    await c.opened;
    const pong = new Promise<string>((resolve) => c.socket.once('pong', (data) => resolve(data.toString())));
    c.socket.ping('hello');
    expect(await pong).toBe('hello');
  });
});
