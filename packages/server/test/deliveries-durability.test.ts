// Outgoing deliveries outlive their daemon: a pending retry survives SIGKILL and
// a restart on the same LevelDB directory, and with two real daemons on one real
// redis-server each attempt is made by exactly one of them (and the survivor
// carries on when the other is killed). The receiver is a real node:http server.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';

const SECRET = `whsec_${Buffer.from('durable deliveries test key').toString('base64')}`;

interface Attempted {
  id: string;
  headers: IncomingMessage['headers'];
}

/** A receiver that answers `status(request)` and records each request's webhook-id. */
async function receiver(status: (seen: Attempted, all: Attempted[]) => number) {
  const received: Attempted[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const seen = { id: String(req.headers['webhook-id']), headers: req.headers };
      received.push(seen);
      res.writeHead(status(seen, received)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

interface DeliveryBody {
  id: string;
  state: string;
  webhookId: string;
  attempts: { n: number; status?: number; error?: { code: string } }[];
}

/** A receiver that holds every request unanswered until `open()`, then answers 200 (also the held ones). */
async function holdingReceiver() {
  const received: Attempted[] = [];
  const held: Array<() => void> = [];
  let opened = false;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), headers: req.headers });
      if (opened) res.writeHead(200).end();
      else held.push(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    open() {
      opened = true;
      for (const drop of held.splice(0)) drop();
    },
  };
}

/** What each attempt of the history says: its number and its status or error code. */
function history(delivery: DeliveryBody): Array<[number, number | string | undefined]> {
  return delivery.attempts.map((a) => [a.n, a.status ?? a.error?.code]);
}

async function deliver(base: string, body: Record<string, unknown>): Promise<DeliveryBody> {
  const answer = await requestJson(`${base}/api/deliveries`, {
    method: 'POST',
    body: { data: { event: 'test' }, sign: { scheme: 'standard', secret: SECRET }, ...body },
  });
  expect(answer.status).toBe(202);
  return answer.body as DeliveryBody;
}

async function waitDone(base: string, id: string): Promise<DeliveryBody> {
  return (await requestJson(`${base}/api/deliveries/${id}?wait=30000`)).body as DeliveryBody;
}

async function attemptsOf(base: string, id: string): Promise<number> {
  return ((await requestJson(`${base}/api/deliveries/${id}`)).body as DeliveryBody).attempts.length;
}

const servers: Server[] = [];
let redis: TestRedis;
beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(async () => {
  await killAll();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

describe('deliveries on LevelDB', () => {
  it('a pending retry survives SIGKILL: the restarted daemon keeps attempting, with the same webhook-id', async () => {
    let open = false;
    const target = await receiver(() => (open ? 200 : 503));
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const accepted = await deliver(first.url, { url: target.url, retry: { delaysMs: Array(20).fill(200) } });
    // At least one attempt made (and answered 503) before the kill.
    await expect.poll(() => target.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const before = target.received.length;
    open = true;

    const second = await startDaemon({ cwd });
    const done = await waitDone(second.url, accepted.id);
    expect(done.state).toBe('delivered');
    expect(target.received.length).toBeGreaterThan(before);
    expect(done.attempts.at(-1)?.status).toBe(200);
    expect(new Set(target.received.map((r) => r.id))).toEqual(new Set([accepted.webhookId]));
  });

  it('an accepted delivery not yet due survives SIGKILL and is sent after the restart', async () => {
    const target = await receiver(() => 500);
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    // First attempt fails; the retry is due 1.5 s later, after the kill.
    const accepted = await deliver(first.url, { url: target.url, retry: { delaysMs: [1500] } });
    // Killed once the first attempt is recorded (a kill mid-attempt would have it made again).
    await expect.poll(() => attemptsOf(first.url, accepted.id), { timeout: 15_000, interval: 20 }).toBe(1);
    await first.stop('SIGKILL');
    const second = await startDaemon({ cwd });
    const done = await waitDone(second.url, accepted.id);
    expect(done.attempts.map((a) => a.status)).toEqual([500, 500]);
    expect(target.received).toHaveLength(2);
  });
});

describe('an attempt sent by a daemon killed before it recorded the result', () => {
  it('on LevelDB: the restarted daemon records it as INTERRUPTED before the next attempt (none sent is missing)', async () => {
    const target = await holdingReceiver();
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const accepted = await deliver(first.url, { url: target.url, timeoutMs: 60_000 });
    // The request is out (the receiver holds it); the daemon dies before any answer.
    await expect.poll(() => target.received.length, { timeout: 15_000 }).toBe(1);
    await first.stop('SIGKILL');
    target.open();

    const second = await startDaemon({ cwd });
    const done = await waitDone(second.url, accepted.id);
    expect(done.state).toBe('delivered');
    expect(history(done)).toEqual([
      [1, 'INTERRUPTED'],
      [2, 200],
    ]);
    // Every request the receiver got is in the history.
    expect(done.attempts).toHaveLength(target.received.length);
  });

  it('on Redis: the replica that takes it over records it as INTERRUPTED before the next attempt', async () => {
    const target = await holdingReceiver();
    const env = { MOCKPOINT_REDIS_URL: redis.socket };
    const first = await startDaemon({ env });
    // A 3 s timeout: the lease (timeout + 5 s) runs out 8 s after the claim.
    const accepted = await deliver(first.url, { url: target.url, timeoutMs: 3000 });
    await expect.poll(() => target.received.length, { timeout: 15_000 }).toBe(1);
    await first.stop('SIGKILL');
    target.open();

    const second = await startDaemon({ env });
    const done = await waitDone(second.url, accepted.id);
    expect(done.state).toBe('delivered');
    expect(history(done)).toEqual([
      [1, 'INTERRUPTED'],
      [2, 200],
    ]);
    expect(done.attempts).toHaveLength(target.received.length);
  });
});

describe('deliveries at shutdown', () => {
  it('SIGTERM stops sending at once, mid-attempt, and the restarted daemon makes that attempt again', async () => {
    let open = false;
    const held: Array<() => void> = [];
    // The first attempt is held unanswered (its timeout is a minute); after the restart, 200.
    const received: Attempted[] = [];
    const hold = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ id: String(req.headers['webhook-id']), headers: req.headers });
        if (open) res.writeHead(200).end();
        else held.push(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => hold.listen(0, '127.0.0.1', resolve));
    servers.push(hold);
    const url = `http://127.0.0.1:${(hold.address() as AddressInfo).port}/hook`;
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const accepted = await deliver(first.url, { url, timeoutMs: 60_000 });
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);

    const stopping = Date.now();
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    // Promptly: not after the attempt's minute-long timeout.
    expect(Date.now() - stopping).toBeLessThan(20_000);
    for (const drop of held) drop();
    open = true;

    const second = await startDaemon({ cwd });
    const done = await waitDone(second.url, accepted.id);
    expect(done.state).toBe('delivered');
    // The attempt cut short is in the history (no result: INTERRUPTED), then the one made after the restart.
    expect(history(done)).toEqual([
      [1, 'INTERRUPTED'],
      [2, 200],
    ]);
    expect(received.map((r) => r.id)).toEqual([accepted.webhookId, accepted.webhookId]);
  });
});

describe('deliveries on two replicas sharing one redis-server', () => {
  it('each attempt is made by exactly one replica', async () => {
    // Every delivery fails twice, then succeeds: three attempts each, counted by webhook-id.
    const target = await receiver((seen, all) => (all.filter((r) => r.id === seen.id).length <= 2 ? 503 : 200));
    const env = { MOCKPOINT_REDIS_URL: redis.socket };
    const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
    const count = 20;
    const accepted = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        deliver((i % 2 === 0 ? a : b).url, { url: target.url, retry: { delaysMs: [20, 20, 20] } }),
      ),
    );
    const done = await Promise.all(accepted.map((d, i) => waitDone((i % 2 === 0 ? b : a).url, d.id)));
    expect(done.map((d) => d.state)).toEqual(accepted.map(() => 'delivered'));
    for (const delivery of done) {
      expect(delivery.attempts.map((x) => [x.n, x.status])).toEqual([
        [1, 503],
        [2, 503],
        [3, 200],
      ]);
    }
    // Exactly three requests per delivery reached the receiver: no attempt was made twice.
    expect(target.received).toHaveLength(count * 3);
  });

  it('when the replica that took a delivery is killed, the other makes its remaining attempts', async () => {
    let open = false;
    const target = await receiver(() => (open ? 200 : 503));
    const env = { MOCKPOINT_REDIS_URL: redis.socket };
    const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
    const accepted = await deliver(a.url, { url: target.url, retry: { delaysMs: Array(20).fill(1000) } });
    // Killed once the first attempt is recorded, while the next waits for its due time.
    await expect
      .poll(
        async () =>
          ((await requestJson(`${b.url}/api/deliveries/${accepted.id}`)).body as DeliveryBody).attempts.length,
        {
          timeout: 15_000,
          interval: 20,
        },
      )
      .toBeGreaterThan(0);
    await a.stop('SIGKILL');
    open = true;
    const done = await waitDone(b.url, accepted.id);
    expect(done.state).toBe('delivered');
    expect(done.attempts.length).toBe(target.received.length);
  });
});
