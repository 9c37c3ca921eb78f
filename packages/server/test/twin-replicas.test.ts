// #71 M2 across replicas: two built daemons on one real redis-server serve one Stripe twin, and its
// read-modify-write flows are one step across both: ten concurrent POST /v1/customers with one
// Idempotency-Key split over the two make one customer, ten concurrent refunds of 600 on one 1,000
// charge split over the two make one refund. A replica SIGKILLed while it holds the twin's turn in
// Redis leaves it to its lease, after which the other goes on. Every process listens on 127.0.0.1.
import { execFile } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeTempDir, startDaemon } from './helpers/daemon.js';
import { twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
const AUTH = { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' };

async function post(root: string, path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${root}${path}`, { method: 'POST', headers: { ...AUTH, ...headers }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function get(root: string, path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${root}${path}`, { headers: AUTH });
  return (await response.json()) as Record<string, unknown>;
}

/** Runs `redis-cli` on the test's redis-server and answers its output, trimmed. */
async function redisCli(socket: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-s', socket, ...args]);
  return stdout.trim();
}

/**
 * A pass-through to the redis-server on a unix socket of its own, for one daemon. Once armed with a
 * text, the connection that sends it is cut off right after that command: Redis runs it, and nothing
 * the daemon sends on that connection afterwards reaches Redis (its process as good as frozen there).
 */
async function redisPassage(socket: string) {
  const path = join(await makeTempDir('mockpoint-passage-'), 'redis.sock');
  const sockets = new Set<Socket>();
  let armed: { text: string; cut: () => void } | undefined;
  const server = createServer((client) => {
    const redis = connect(socket);
    sockets.add(client).add(redis);
    let cut = false;
    let tail = '';
    client.on('data', (chunk: Buffer) => {
      if (cut) return;
      redis.write(chunk);
      // A text split between two chunks is found too.
      const seen = tail + chunk.toString('latin1');
      tail = seen.slice(-256);
      if (armed !== undefined && seen.includes(armed.text)) {
        cut = true;
        armed.cut();
        armed = undefined;
      }
    });
    redis.pipe(client);
    for (const end of [client, redis]) end.on('error', () => undefined).on('close', () => end.destroy());
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    /** Resolves once a connection sent `text` and was cut off after it. */
    cutAfter(text: string): Promise<void> {
      return new Promise((resolve) => {
        armed = { text, cut: resolve };
      });
    },
    close() {
      for (const one of sockets) one.destroy();
      server.close();
    },
  };
}

/** Two daemons on the file's redis-server, one twin: A (made it, reached through `passage`) and B. */
async function twoReplicas(passage?: string) {
  const redis = await twinRedis.redis();
  const a = await twinDaemon('stripe', { redis: passage ?? redis.socket });
  const b = await startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } });
  return { a, b, roots: [a.root, `${b.url}/endpoint/${a.name}`] as const, socket: redis.socket };
}

describe('a Stripe twin on two replicas of one Redis', () => {
  it('makes one customer for one Idempotency-Key and one refund past which none fits, across both', async () => {
    const { roots } = await twoReplicas();
    // Each replica loads the twin's model on its first request: both warm, so that their writes meet.
    for (const root of roots) expect((await get(root, '/v1/customers')).data).toEqual([]);
    const creates = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(roots[i % 2] as string, '/v1/customers', 'email=a%40example.com', { 'idempotency-key': 'one-key' }),
      ),
    );
    expect(creates.map((one) => one.status)).toEqual(Array(10).fill(200));
    expect(new Set(creates.map((one) => one.body.id)).size).toBe(1);
    for (const root of roots) expect((await get(root, '/v1/customers?limit=100')).data).toHaveLength(1);

    const paid = await post(
      roots[0],
      '/v1/payment_intents',
      'amount=1000&currency=usd&payment_method=pm_card_visa&confirm=true',
    );
    expect(paid.status).toBe(200);
    const charge = paid.body.latest_charge as string;
    const refunds = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(roots[i % 2] as string, '/v1/refunds', `charge=${charge}&amount=600`)),
    );
    expect(refunds.map((one) => one.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    for (const root of roots) expect((await get(root, `/v1/charges/${charge}`)).amount_refunded).toBe(600);
  });

  it("goes on once a SIGKILLed replica's turn has run out its lease", async () => {
    const redis = await twinRedis.redis();
    const passage = await redisPassage(redis.socket);
    try {
      const { a, roots, socket } = await twoReplicas(passage.path);
      const paid = await post(
        roots[1],
        '/v1/payment_intents',
        'amount=1000&currency=usd&payment_method=pm_card_visa&confirm=true',
      );
      const charge = paid.body.latest_charge as string;
      const turn = `turn:twin:${a.name}\r\n`;
      const cut = passage.cutAfter(turn);
      // A takes the twin's turn in Redis for this refund, then reaches Redis no more.
      void post(roots[0], '/v1/refunds', `charge=${charge}&amount=600`).catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        cut,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`replica A never took ${turn.trim()} in Redis`)), 10_000);
        }),
      ]).finally(() => clearTimeout(timer));
      const key = `mockpoint:${turn.trim()}`;
      expect(Number(await redisCli(socket, 'PTTL', key))).toBeGreaterThan(0);
      await a.daemon.stop('SIGKILL');

      const refund = await post(roots[1], '/v1/refunds', `charge=${charge}&amount=600`);
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      expect((await get(roots[1], `/v1/charges/${charge}`)).amount_refunded).toBe(600);
      expect(await redisCli(socket, 'EXISTS', key)).toBe('0');
    } finally {
      passage.close();
    }
  });
});
