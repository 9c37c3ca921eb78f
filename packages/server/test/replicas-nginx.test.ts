// The "Running several replicas" example (docs/replicas.md) with real parts: a real
// nginx (Debian) round-robin in front of three real daemons on one real redis-server.
// The nginx block is taken from docs/replicas.md itself, so the documented config
// is the tested one.
import { readFileSync } from 'node:fs';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Daemon, killAll, longPollsHeld, removeTempDirs, startDaemon } from './helpers/daemon.js';
import { startNginx, type TestNginx } from './helpers/nginx.js';

const REPLICAS_DOC = readFileSync(new URL('../../../docs/replicas.md', import.meta.url), 'utf8');

/** The first ```nginx block of docs/replicas.md ("Running several replicas"). */
function docNginxBlock(): string {
  const match = /```nginx\n([\s\S]*?)```/.exec(REPLICAS_DOC);
  if (!match) throw new Error('docs/replicas.md has no ```nginx block');
  return match[1] as string;
}

let redis: TestRedis;
let nginx: TestNginx;
let replicas: Daemon[];

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
  replicas = await Promise.all([0, 1, 2].map(() => startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket } })));
  const block = docNginxBlock();
  nginx = await startNginx((port) => {
    let config = block.replace(/listen 16540;/, `listen 127.0.0.1:${port};`);
    replicas.forEach((daemon, i) => {
      config = config.replace(`server 127.0.0.1:1654${i + 1};`, `server 127.0.0.1:${daemon.port};`);
    });
    if (/1654\d/.test(config)) throw new Error(`the nginx block of docs/replicas.md changed shape:\n${config}`);
    return config;
  });
});

afterAll(async () => {
  await nginx?.dispose();
  await killAll();
  await redis?.dispose();
  await removeTempDirs();
});

/** A request through nginx: status, body text and which replica answered. */
async function through(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string; replica: string }> {
  const response = await fetch(`${nginx.url}${path}`, init);
  return {
    status: response.status,
    text: await response.text(),
    replica: response.headers.get('x-mockpoint-replica') ?? '',
  };
}

describe('nginx round-robin in front of three replicas (the docs/replicas.md example)', () => {
  it('add through nginx, read through every replica, replace anywhere, delete anywhere', async () => {
    const add = await through('/api/endpoint/add', { method: 'PUT', body: '{"name":"hook","data":{"ok":true}}' });
    expect(add.status).toBe(201);

    const reads = [];
    for (let i = 0; i < 6; i++) reads.push(await through('/endpoint/hook'));
    for (const read of reads) expect(read).toMatchObject({ status: 200, text: '{"ok":true}' });
    // Round-robin: all three replicas answered, each from its own cache after its first read.
    expect(new Set(reads.map((r) => r.replica))).toEqual(new Set(replicas.map((d) => `127.0.0.1:${d.port}`)));

    const replace = await through('/api/endpoints/hook', { method: 'PUT', body: '{"data":{"ok":false}}' });
    expect(replace.status).toBe(200);
    for (let i = 0; i < 6; i++) {
      const read = await through('/endpoint/hook');
      // Generous: the invalidation is sent before the replace is acknowledged, but the
      // replica applies it on its next turn of the event loop.
      if (read.text !== '{"ok":false}') {
        await expect.poll(async () => (await through('/endpoint/hook')).text).toBe('{"ok":false}');
      }
    }

    const del = await through('/api/endpoints/hook', { method: 'DELETE' });
    expect(del.status).toBe(204);
    // Once three reads in a row (one per replica, round-robin) say 404, every
    // replica has applied the invalidation: from then on every read must.
    await expect
      .poll(async () =>
        [await through('/endpoint/hook'), await through('/endpoint/hook'), await through('/endpoint/hook')].map(
          (r) => r.status,
        ),
      )
      .toEqual([404, 404, 404]);
    for (let i = 0; i < 6; i++) expect((await through('/endpoint/hook')).status).toBe(404);
  });

  it('a long-poll through nginx is answered by a different replica than the one that got the webhook', async () => {
    expect((await through('/api/endpoint/add', { method: 'PUT', body: '{"name":"pay","data":1}' })).status).toBe(201);
    // Long-polls first (round-robin spreads them over the replicas), then one webhook.
    const polls = [0, 1, 2].map(() => through('/api/endpoints/pay/requests?wait=20000&count=1'));
    await longPollsHeld(
      replicas.map((daemon) => daemon.url),
      3,
    );
    const hook = await through('/endpoint/pay', { method: 'POST', body: '{"event":"paid"}' });
    expect(hook.status).toBe(200);
    const answers = await Promise.all(polls);
    for (const answer of answers) {
      expect(JSON.parse(answer.text)).toMatchObject({ complete: true, requests: [{ json: { event: 'paid' } }] });
    }
    const pollers = new Set(answers.map((a) => a.replica));
    expect(pollers.size).toBe(3);
    expect([...pollers].filter((replica) => replica !== hook.replica).length).toBeGreaterThanOrEqual(2);
  });

  it('/api/health through nginx names the Redis store on every replica', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const health = await through('/api/health');
      expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', store: 'redis' });
      seen.add(health.replica);
    }
    expect(seen.size).toBe(3);
  });
});
