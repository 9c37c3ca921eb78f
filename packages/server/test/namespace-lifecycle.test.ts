// A namespace's lifecycle against the built daemon (issue #62): its delete ends every request
// it holds (a route delay, a chaos timeout, native gRPC calls: a delayed unary, a server
// stream between messages, an open bidirectional call) within a second; held work is use,
// so a namespace with an open WebSocket or a long-poll outlives its ttlMs; an idle namespace
// is unloaded and comes back whole (data, queued answers, clock, journal; memory, LevelDB and a
// real redis-server) on its next request; and 1,000 opened namespaces cost next to nothing once
// idle (RSS, memory and LevelDB). 127.0.0.1 only.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Daemon, requestJson, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';
import { CHAT } from './helpers/grpc.js';

useDaemons();

const STORES = [
  ['memory', ['--memory']],
  ['LevelDB', []],
] as const;

async function put(daemon: Daemon, path: string, body: unknown, expected = [200, 201]): Promise<void> {
  const made = await requestJson(`${daemon.url}${path}`, { method: 'PUT', body });
  expect(expected, JSON.stringify(made.body)).toContain(made.status);
}

async function makeNamespace(daemon: Daemon, body: Record<string, unknown>): Promise<void> {
  const made = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body });
  expect(made.status).toBe(201);
}

interface Info {
  usedAt: string;
  loaded?: boolean;
  held?: number;
}

async function info(daemon: Daemon, ns: string): Promise<Info | undefined> {
  const read = await requestJson(`${daemon.url}/api/namespaces/${ns}`);
  return read.status === 200 ? (read.body as Info) : undefined;
}

/** The daemon's resident memory, in MB. */
function rssMb(daemon: Daemon): number {
  const status = readFileSync(`/proc/${daemon.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** The protobuf bytes of a message whose field 1 is the string `text` (`chat.v1.Ask`). */
function ask(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]);
}

/** When each of `pending` settled (ms, performance.now), or `undefined` for one still open after `deadlineMs`. */
async function settledAt(pending: Promise<unknown>[], deadlineMs: number): Promise<(number | undefined)[]> {
  const at: (number | undefined)[] = pending.map(() => undefined);
  const all = Promise.allSettled(
    pending.map((one, i) =>
      one.finally(() => {
        at[i] = performance.now();
      }),
    ),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, deadlineMs)))]);
  clearTimeout(timer);
  return at;
}

/** Unloads namespace `rests` of `daemon` (idle) and checks its next request finds it whole. */
async function comesBackWhole(daemon: Daemon): Promise<void> {
  await makeNamespace(daemon, { name: 'rests' });
  await put(daemon, '/ns/rests/api/endpoints/user', { data: { id: 1 } });
  await put(daemon, '/ns/rests/api/clock', { freeze: true, set: '2030-01-02T03:04:05Z' });
  expect((await fetch(`${daemon.url}/ns/rests/endpoint/user`)).status).toBe(200);
  const queued = await requestJson(`${daemon.url}/ns/rests/api/endpoints/user/queue`, {
    method: 'POST',
    body: { answers: [{ statusCode: 503, data: { queued: true } }] },
  });
  expect(queued.status).toBe(201);
  const clockBefore = (await requestJson(`${daemon.url}/ns/rests/api/clock`)).body;
  expect(await info(daemon, 'rests')).toMatchObject({ loaded: true, held: 0 });

  await expect.poll(async () => (await info(daemon, 'rests'))?.loaded, { timeout: 10_000 }).toBe(false);
  const first = await requestJson(`${daemon.url}/ns/rests/endpoint/user`);
  expect(first).toEqual({ status: 503, body: { queued: true } });
  expect((await requestJson(`${daemon.url}/ns/rests/endpoint/user`)).body).toEqual({ id: 1 });
  expect((await info(daemon, 'rests'))?.loaded).toBe(true);
  expect((await requestJson(`${daemon.url}/ns/rests/api/clock`)).body).toMatchObject({
    frozen: true,
    now: (clockBefore as { now: string }).now,
  });
  const journal = await requestJson(`${daemon.url}/ns/rests/api/endpoints/user/requests`);
  expect((journal.body as { requests: unknown[] }).requests).toHaveLength(3);
}

/**
 * #71 M1: after an idle unload, the namespace's waits wait as in one never unloaded (the unload
 * used to release the journal and queue for good, and the app made next reuses them): a journal
 * long-poll, a journal SSE stream and a queued `hang` are all still held until what they wait
 * for comes, then answered with it.
 */
async function waitsAfterUnload(daemon: Daemon): Promise<void> {
  await makeNamespace(daemon, { name: 'waits' });
  await put(daemon, '/ns/waits/api/endpoints/hook', { data: { ok: true } });
  await put(daemon, '/ns/waits/api/endpoints/stuck', { data: { ok: true } });
  await expect.poll(async () => (await info(daemon, 'waits'))?.loaded, { timeout: 10_000 }).toBe(false);

  const settled: string[] = [];
  const poll = requestJson(`${daemon.url}/ns/waits/api/endpoints/hook/requests?wait=20000&count=1`).finally(() =>
    settled.push('poll'),
  );
  const stream = await fetch(`${daemon.url}/ns/waits/api/endpoints/hook/requests/stream`);
  expect(stream.status).toBe(200);
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  let streamed = '';
  const streamDone = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      streamed += Buffer.from(value).toString('utf8');
      if (streamed.includes('event: request')) break;
    }
    settled.push('stream');
  })();
  expect(
    (
      await requestJson(`${daemon.url}/ns/waits/api/endpoints/stuck/queue`, {
        method: 'POST',
        body: { answers: [{ fault: 'hang' }] },
      })
    ).status,
  ).toBe(201);
  const hung = fetch(`${daemon.url}/ns/waits/endpoint/stuck`).then(
    (r) => {
      settled.push('hang');
      return r.status;
    },
    () => {
      settled.push('hang');
      return 0;
    },
  );
  // The long-poll and the hang at least are held by the namespace (the stream may be counted too), none answered.
  await expect
    .poll(async () => (await info(daemon, 'waits'))?.held ?? 0, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(2);
  expect(settled).toEqual([]);

  expect((await fetch(`${daemon.url}/ns/waits/endpoint/hook`)).status).toBe(200);
  const polled = await poll;
  expect(polled.status).toBe(200);
  expect((polled.body as { requests: unknown[] }).requests).toHaveLength(1);
  await streamDone;
  expect(streamed).toContain('"path":"/endpoint/hook"');
  await reader.cancel();
  expect(settled).not.toContain('hang');
  // The hang is released when its queue is cleared, as in a namespace never unloaded.
  expect((await fetch(`${daemon.url}/ns/waits/api/endpoints/stuck/queue`, { method: 'DELETE' })).status).toBeLessThan(
    300,
  );
  await hung;
  expect(settled).toContain('hang');
}

describe.each(STORES)("a namespace's delete ends what it holds (%s)", (_store, args) => {
  it('a route delay and a chaos timeout are answered 404 NAMESPACE_NOT_FOUND, gRPC calls end, within a second', async () => {
    const daemon = await startDaemon({ args: [...args] });
    await makeNamespace(daemon, { name: 'held' });
    await put(daemon, '/ns/held/api/endpoints/slow', { data: { late: true }, delay: 20_000 });
    await put(daemon, '/ns/held/api/endpoints/stuck/chaos', { rate: 1, faults: ['timeout'] });
    await put(daemon, '/ns/held/api/endpoints/chat/grpc', { protos: { 'chat.proto': CHAT } });
    await put(daemon, '/ns/held/api/endpoints/chat/routes', {
      routes: [
        { match: { grpc: { method: 'Get' } }, answer: { delay: 20_000, grpc: { message: { text: 'late' } } } },
        {
          match: { grpc: { method: 'Listen' } },
          answer: {
            grpc: { messages: [{ message: { text: 'first' } }, { message: { text: 'late' }, delay: 20_000 }] },
          },
        },
        { match: { grpc: { method: 'Talk' } }, answer: { grpc: { on: [{ send: [{ message: { text: 'echo' } }] }] } } },
      ],
    });

    const delayed = fetch(`${daemon.url}/ns/held/endpoint/slow`).then(async (r) => [r.status, await r.json()]);
    const timedOut = fetch(`${daemon.url}/ns/held/endpoint/stuck`).then(async (r) => [r.status, await r.json()]);
    const client = new grpc.Client(new URL(daemon.url).host, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set('mockpoint-session', 'held');
    const asIs = (bytes: Buffer) => bytes;
    try {
      const unary = new Promise<number>((resolve) => {
        client.makeUnaryRequest('/chat.v1.Chat/Get', asIs, asIs, ask('u'), metadata, (error) =>
          resolve(error?.code ?? grpc.status.OK),
        );
      });
      const listen = client.makeServerStreamRequest('/chat.v1.Chat/Listen', asIs, asIs, ask('s'), metadata);
      const listened: Buffer[] = [];
      listen.on('data', (message: Buffer) => listened.push(message));
      const streamEnded = new Promise<number>((resolve) => {
        listen.on('error', (error: grpc.ServiceError) => resolve(error.code));
        listen.on('end', () => resolve(grpc.status.OK));
      });
      const talk = client.makeBidiStreamRequest('/chat.v1.Chat/Talk', asIs, asIs, metadata);
      const talked: Buffer[] = [];
      talk.on('data', (message: Buffer) => talked.push(message));
      const talkEnded = new Promise<number>((resolve) => {
        talk.on('error', (error: grpc.ServiceError) => resolve(error.code));
        talk.on('end', () => resolve(grpc.status.OK));
      });
      talk.write(ask('hello'));
      await expect.poll(() => talked.length).toBe(1);
      await expect.poll(() => listened.length).toBe(1);
      // Every one of the five is held in the namespace now.
      await expect.poll(async () => (await info(daemon, 'held'))?.held, { timeout: 10_000 }).toBe(5);

      const deleted = await fetch(`${daemon.url}/api/namespaces/held`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      const deletedAt = performance.now();
      const ends = await settledAt([delayed, timedOut, unary, streamEnded, talkEnded], 5000);
      for (const at of ends) expect(at === undefined ? Number.POSITIVE_INFINITY : at - deletedAt).toBeLessThan(1000);

      const notFound = { success: false, error: { code: 'NAMESPACE_NOT_FOUND' } };
      expect(await delayed).toMatchObject([404, notFound]);
      expect(await timedOut).toMatchObject([404, notFound]);
      expect(await unary).toBe(grpc.status.NOT_FOUND);
      expect(await streamEnded).not.toBe(grpc.status.OK);
      expect(listened).toHaveLength(1);
      // The bidirectional call is over: no message is answered after the delete.
      expect(await talkEnded).not.toBe(grpc.status.OK);
      expect(talked).toHaveLength(1);
      expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
    } finally {
      client.close();
    }
  });
});

describe('held work is use (ttlMs)', () => {
  it('a namespace with an open WebSocket and a long-poll outlives its ttlMs; the long-poll is answered', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    await makeNamespace(daemon, { name: 'busy', ttlMs: 1000 });
    await put(daemon, '/ns/busy/api/endpoints/chat/routes', {
      routes: [{ answer: { websocket: { on: [{ send: [{ text: 'pong' }] }] } } }],
    });
    await put(daemon, '/ns/busy/api/endpoints/hook', { data: { ok: true } });
    const socket = new WebSocket(`${daemon.url.replace('http', 'ws')}/ns/busy/endpoint/chat`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed: number[] = [];
    socket.on('close', (code) => closed.push(code));
    const since = Date.now();
    const poll = requestJson(`${daemon.url}/ns/busy/api/endpoints/hook/requests?wait=8000&count=1`);
    await expect.poll(async () => (await info(daemon, 'busy'))?.held, { timeout: 10_000 }).toBe(2);

    // Its use is noted while it holds them, past twice its ttlMs: it is not idle.
    await expect
      .poll(async () => Date.parse((await info(daemon, 'busy'))?.usedAt ?? '0'), { timeout: 10_000 })
      .toBeGreaterThan(since + 2500);
    expect(closed).toEqual([]);
    const answered = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))));
    socket.send('ping');
    expect(await answered).toBe('pong');
    expect((await fetch(`${daemon.url}/ns/busy/endpoint/hook`)).status).toBe(200);
    const polled = await poll;
    expect(polled.status).toBe(200);
    expect((polled.body as { requests: unknown[] }).requests).toHaveLength(1);
    socket.close();
    // Idle at last: deleted once its ttlMs passes.
    await expect.poll(() => info(daemon, 'busy'), { timeout: 10_000 }).toBeUndefined();
  });
});

describe.each(STORES)('idle namespaces are unloaded (%s)', (_store, args) => {
  // One daemon for the three: each uses namespaces of its own names.
  const daemonOf = sharedDaemon({ args: [...args] });

  it('an unloaded namespace comes back whole on its next request: data, queued answer, frozen clock, journal', async () => {
    await comesBackWhole(await daemonOf());
  });

  it('an unloaded namespace waits as before: a long-poll, a journal stream and a queued hang are held', async () => {
    await waitsAfterUnload(await daemonOf());
  });

  it('a namespace whose rate limit is drained stays loaded: its bucket is not refilled by unloading', async () => {
    const daemon = await daemonOf();
    await makeNamespace(daemon, { name: 'limited' });
    await makeNamespace(daemon, { name: 'calm' });
    await put(daemon, '/ns/limited/api/endpoints/api/routes', {
      routes: [{ match: { path: '/x' }, answer: { data: { ok: true } }, rateLimit: { limit: 2, per: '1h' } }],
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${daemon.url}/ns/limited/endpoint/api/x`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // Used after the drained one: once this one is unloaded, the drained one has been idle as long.
    expect((await fetch(`${daemon.url}/ns/calm/endpoint/x`)).status).toBe(404);
    await expect.poll(async () => (await info(daemon, 'calm'))?.loaded, { timeout: 10_000 }).toBe(false);
    expect((await info(daemon, 'limited'))?.loaded).toBe(true);
    expect((await fetch(`${daemon.url}/ns/limited/endpoint/api/x`)).status).toBe(429);
  });

  it('a namespace with a webhook delivery retrying stays loaded, and the retry goes out', async () => {
    let attempts = 0;
    let secondAttempt: () => void = () => {};
    const second = new Promise<void>((resolve) => (secondAttempt = resolve));
    const receiver = createServer((req, res) => {
      req.resume();
      attempts++;
      if (attempts === 2) secondAttempt();
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const daemon = await daemonOf();
      await makeNamespace(daemon, { name: 'sender' });
      await makeNamespace(daemon, { name: 'quiet' });
      const sent = await requestJson(`${daemon.url}/ns/sender/api/deliveries`, {
        method: 'POST',
        body: { url: `http://127.0.0.1:${port}/hook`, data: { paid: true }, retry: { delaysMs: [4000] } },
      });
      expect(sent.status).toBe(202);
      // Used after the delivery was made: once this one is unloaded, the sender has been idle as long.
      expect((await fetch(`${daemon.url}/ns/quiet/endpoint/x`)).status).toBe(404);
      await expect.poll(async () => (await info(daemon, 'quiet'))?.loaded, { timeout: 10_000 }).toBe(false);
      expect((await info(daemon, 'sender'))?.loaded).toBe(true);
      // The retry, 4 s after the first attempt, reaches the receiver with no request to the namespace.
      await second;
      expect(attempts).toBe(2);
    } finally {
      receiver.close();
    }
  }, 20_000);
});

/**
 * Opens 1,000 namespaces on a daemon of `args`, lets them go idle, then 1,000 more: what the second
 * thousand adds to its RSS, in MB per namespace.
 */
async function idleCostMb(store: string, args: readonly string[]): Promise<number> {
  const daemon = await startDaemon({ args: [...args] });
  // Opened 25 at a time, at most 250 of them loaded at once: before the next 25 are opened, the
  // ones opened 250 before them are unloaded (idle ones are unloaded in the order they were used).
  // The heap's high-water mark is 250 apps, the same in both thousands, so what the second thousand
  // adds is what idle ones cost. (A sliding window: lots of 250, each left to unload before the
  // next, cost eight waits for the sweep per thousand.)
  const GROUP = 25;
  const LOADED = 250;
  const unloaded = async (name: string) =>
    expect.poll(async () => (await info(daemon, name))?.loaded, { timeout: 15_000 }).toBe(false);
  const thousand = async (from: number) => {
    for (let i = from; i < from + 1000; i += GROUP) {
      if (i - LOADED >= from) await unloaded(`n${i - LOADED + GROUP - 1}`);
      const names = Array.from({ length: GROUP }, (_, k) => `n${i + k}`);
      await Promise.all(names.map((name) => makeNamespace(daemon, { name })));
      // One unauthenticated read opens each namespace's app.
      await Promise.all(names.map(async (name) => (await fetch(`${daemon.url}/ns/${name}/endpoint/x`)).text()));
    }
    await unloaded(`n${from + 999}`);
  };
  // The first thousand settle the heap (code, caches); the second thousand must not grow it.
  await thousand(0);
  const settled = rssMb(daemon);
  await thousand(1000);
  const grown = rssMb(daemon) - settled;
  console.info(
    `${store}: RSS ${settled.toFixed(0)} MB after 1,000 idle namespaces, +${grown.toFixed(0)} MB for 1,000 more`,
  );
  return grown / 1000;
}

describe('idle namespaces are unloaded (memory and LevelDB)', () => {
  it('1,000 opened namespaces cost under 0.25 MB of RSS each once idle (0.6 MB when they were never unloaded)', async () => {
    // The two stores at once, each on a daemon of its own (their RSS are their own): most of a
    // thousand is waiting for the sweep to unload what was opened.
    const costs = await Promise.all(
      STORES.map(async ([store, args]) => [store, await idleCostMb(store, args)] as const),
    );
    // RSS follows the garbage collector (0.03-0.16 MB measured per idle namespace; 0.017 MB of heap after a
    // full GC, in process): the bound is generous, and still a quarter of what never unloading costs.
    for (const [store, mb] of costs) expect(mb, store).toBeLessThan(0.25);
  }, 180_000);
});

describe('idle namespaces are unloaded (Redis)', () => {
  let redis: TestRedis | undefined;
  afterAll(() => redis?.dispose());
  // One daemon for the two, as on the other stores: each uses namespaces of its own names.
  const daemonOf = sharedDaemon(async () => {
    redis ??= await startTestRedis();
    return { env: { MOCKPOINT_REDIS_URL: redis.socket } };
  });

  it('an unloaded namespace comes back whole: data, queued answer, the shared clock, journal', async () => {
    await comesBackWhole(await daemonOf());
  });

  it('an unloaded namespace waits as before: a long-poll, a journal stream and a queued hang are held', async () => {
    await waitsAfterUnload(await daemonOf());
  });
});
