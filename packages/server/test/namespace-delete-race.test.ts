// Writes racing the delete of their namespace, against the built daemon on LevelDB, memory and
// Redis: 20 writers keep writing (records, routes, chaos: each a new name) until their namespace
// is gone; each write answers what it did (201/200) or 404 NAMESPACE_NOT_FOUND, never 503
// STORE_UNAVAILABLE, and no answer names the data directory.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

let redis: TestRedis | undefined;

useDaemons();
afterAll(() => redis?.dispose());

const ADMIN = 'race-admin-token';
const admin = { authorization: `Bearer ${ADMIN}` };
const WRITERS = 20;

/** Write `n` to namespace `ns`: a record, routes or chaos, each of a new name. */
function write(daemon: Daemon, ns: string, n: number): Promise<{ status: number; body: unknown }> {
  const base = `${daemon.url}/ns/${ns}/api`;
  if (n % 3 === 0) {
    return requestJson(`${base}/endpoint/add`, { method: 'PUT', body: { name: `r${n}`, data: n }, headers: admin });
  }
  if (n % 3 === 1) {
    return requestJson(`${base}/endpoints/t${n}/routes`, {
      method: 'PUT',
      body: { routes: [{ match: { path: '/x' }, answer: { data: n } }] },
      headers: admin,
    });
  }
  return requestJson(`${base}/endpoints/c${n}/chaos`, {
    method: 'PUT',
    body: { rate: 0.5, faults: ['503'] },
    headers: admin,
  });
}

/** Rounds of: writers writing until their namespace is deleted under them; every answer checked. */
async function race(daemon: Daemon, dataDir: string | undefined): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let round = 0; round < 5; round++) {
    const ns = `race${round}`;
    const made = await requestJson(`${daemon.url}/api/namespaces`, {
      method: 'POST',
      body: { name: ns },
      headers: admin,
    });
    expect(made.status).toBe(201);
    let next = 0;
    let written = 0;
    let enough: () => void = () => undefined;
    const hundred = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const writer = async (): Promise<void> => {
      // Bounded: each writer stops at its namespace's 404, or after 2000 writes.
      for (let i = 0; i < 2000; i++) {
        const answer = await write(daemon, ns, next++);
        const { error } = (answer.body ?? {}) as { error?: { code: string; message: string } };
        const key = `${answer.status} ${error?.code ?? ''}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        expect([200, 201, 404], JSON.stringify(answer.body)).toContain(answer.status);
        if (dataDir !== undefined) expect(JSON.stringify(answer.body)).not.toContain(dataDir);
        if (answer.status === 404) {
          expect(error?.code).toBe('NAMESPACE_NOT_FOUND');
          return;
        }
        if (++written === 100) enough();
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await hundred;
    const deleted = await requestJson(`${daemon.url}/api/namespaces/${ns}`, { method: 'DELETE', headers: admin });
    expect(deleted.status).toBe(204);
    await Promise.all(writers);
  }
  return seen;
}

describe('writes racing a namespace delete', () => {
  it('LevelDB: 201/200 or 404 NAMESPACE_NOT_FOUND, never 503 nor the data directory', async () => {
    const cwd = await makeTempDir();
    const daemon = await startDaemon({ cwd, env: { MOCKPOINT_ADMIN_TOKEN: ADMIN } });
    const seen = await race(daemon, cwd);
    expect(seen.get('404 NAMESPACE_NOT_FOUND')).toBe(5 * WRITERS);
  });

  it('memory: the same', async () => {
    const daemon = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_ADMIN_TOKEN: ADMIN } });
    expect((await race(daemon, undefined)).get('404 NAMESPACE_NOT_FOUND')).toBe(5 * WRITERS);
  });

  it('Redis: the same', async () => {
    redis = await startTestRedis();
    const daemon = await startDaemon({ env: { MOCKPOINT_REDIS_URL: redis.socket, MOCKPOINT_ADMIN_TOKEN: ADMIN } });
    expect((await race(daemon, undefined)).get('404 NAMESPACE_NOT_FOUND')).toBe(5 * WRITERS);
  });
});
