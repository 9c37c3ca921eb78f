// Namespace batches share the room (issue #71 M3), against the built daemon on memory, LevelDB and
// a real redis-server: with --max-namespaces 100, four concurrent `POST /api/namespaces {count: 30}`
// make 90 (three batches; the fourth is refused whole, at once), and a client looping refused
// batches never makes another client's single create fail while there is room.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

let redis: TestRedis | undefined;
afterAll(() => redis?.dispose());

const STORES = [
  ['memory', async () => ({ args: ['--memory', '--max-namespaces', '100'] })],
  ['LevelDB', async () => ({ args: ['--max-namespaces', '100'] })],
  [
    'Redis',
    async () => {
      redis ??= await startTestRedis();
      return { args: ['--max-namespaces', '100'], env: { MOCKPOINT_REDIS_URL: redis.socket } };
    },
  ],
] as const;

describe.each(STORES)('namespace batches share the room (%s)', (_store, options) => {
  it('four concurrent batches of 30 make 90; refused batches leave single creates their room', async () => {
    const daemon = await startDaemon(await options());
    const batch = () => requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { count: 30 } });
    const answers = await Promise.all([batch(), batch(), batch(), batch()]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 429]);
    const refused = answers.find((a) => a.status !== 201);
    expect(refused?.body).toMatchObject({ error: { code: 'TOO_MANY_NAMESPACES' } });
    const listed = await requestJson(`${daemon.url}/api/namespaces`);
    expect((listed.body as { namespaces: unknown[] }).namespaces).toHaveLength(90);

    // Ten left: a client loops batches of 30 (each refused) while another makes ten single ones.
    let looping = true;
    const loop = (async () => {
      let refusedCount = 0;
      while (looping) {
        const answer = await batch();
        expect(answer.status).toBe(429);
        refusedCount++;
      }
      return refusedCount;
    })();
    const singles = [];
    for (let i = 0; i < 10; i++) {
      singles.push(
        (await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: `one-${i}` } })).status,
      );
    }
    looping = false;
    expect(await loop).toBeGreaterThan(0);
    expect(singles).toEqual(Array(10).fill(201));
  }, 30_000);
});
