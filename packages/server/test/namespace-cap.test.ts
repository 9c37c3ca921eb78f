// The cap on the names of a namespace (--max-endpoints-per-namespace), against the built daemon
// on memory, LevelDB and Redis (two replicas on one redis-server): 200 PUTs at once of new names,
// of mixed kinds (records, routes, GraphQL schemas), make exactly the cap; every other one is
// 429 TOO_MANY_ENDPOINTS, and the namespace lists exactly the cap's names.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, startDaemon, useDaemons } from './helpers/daemon.js';

let redis: TestRedis | undefined;

useDaemons();
afterAll(() => redis?.dispose());

const CAP = 50;
const ARGS = ['--max-endpoints-per-namespace', String(CAP)];

/** PUT of a new name `n{i}` in namespace `ns`: a record, routes or a GraphQL schema. */
async function putNew(daemon: Daemon, ns: string, i: number): Promise<{ status: number; code?: string }> {
  const base = `${daemon.url}/ns/${ns}/api`;
  const name = `n${i}`;
  const [path, body] =
    i % 3 === 0
      ? [`${base}/endpoint/add`, JSON.stringify({ name, data: i })]
      : i % 3 === 1
        ? [
            `${base}/endpoints/${name}/routes`,
            JSON.stringify({ routes: [{ match: { path: '/x' }, answer: { data: i } }] }),
          ]
        : [`${base}/endpoints/${name}/graphql`, 'type Query { n: Int }'];
  const response = await fetch(path, { method: 'PUT', body });
  const text = await response.text();
  const code = response.ok ? undefined : (JSON.parse(text) as { error: { code: string } }).error.code;
  return { status: response.status, code };
}

/** 200 PUTs of new names at once, spread over `daemons`; then what the namespace lists. */
async function fill(daemons: Daemon[], ns: string): Promise<void> {
  const made = await fetch(`${daemons[0]?.url}/api/namespaces`, { method: 'POST', body: JSON.stringify({ name: ns }) });
  expect(made.status).toBe(201);
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => putNew(daemons[i % daemons.length] as Daemon, ns, i)),
  );
  const done = answers.filter((answer) => answer.status === 200 || answer.status === 201);
  expect(
    done,
    JSON.stringify(answers.filter((answer) => answer.status !== 429 && !done.includes(answer))),
  ).toHaveLength(CAP);
  expect(answers.filter((answer) => answer.code === 'TOO_MANY_ENDPOINTS')).toHaveLength(200 - CAP);
  for (const daemon of daemons) {
    const listed = (await (await fetch(`${daemon.url}/ns/${ns}/api/endpoints?limit=1000`)).json()) as {
      endpoints: unknown[];
      total: number;
    };
    expect([listed.endpoints.length, listed.total]).toEqual([CAP, CAP]);
  }
  // A deleted name frees its place; the next new one takes it, the one after is refused.
  const [first] = daemons as [Daemon];
  const { endpoints } = (await (await fetch(`${first.url}/ns/${ns}/api/endpoints?limit=1`)).json()) as {
    endpoints: { name: string }[];
  };
  const deleted = await fetch(`${first.url}/ns/${ns}/api/endpoints/${endpoints[0]?.name}`, { method: 'DELETE' });
  expect(deleted.status).toBe(204);
  expect((await putNew(first, ns, 999)).status).toBe(201);
  expect(await putNew(first, ns, 1002)).toEqual({ status: 429, code: 'TOO_MANY_ENDPOINTS' });
}

describe('the per-namespace cap on names', () => {
  it('memory: 200 mixed PUTs at once make exactly the cap', async () => {
    const daemon = await startDaemon({ args: ['--memory', ...ARGS] });
    await fill([daemon], 'capped');
  });

  it('memory: collections, state, chaos and hosts make names that count, and a delete frees one', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--max-endpoints-per-namespace', '4'] });
    const made = await fetch(`${daemon.url}/api/namespaces`, {
      method: 'POST',
      body: JSON.stringify({ name: 'kinds' }),
    });
    expect(made.status).toBe(201);
    const api = `${daemon.url}/ns/kinds/api/endpoints`;
    const send = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${api}/${path}`, { method, body: JSON.stringify(body) });
      const text = await response.text();
      return [response.status, response.ok ? undefined : (JSON.parse(text) as { error: { code: string } }).error.code];
    };
    expect(await send('PUT', 'a/state', { checkout: 'paid' })).toEqual([200, undefined]);
    expect(await send('POST', 'b/collections/users/items', { id: 1 })).toEqual([201, undefined]);
    expect(await send('PUT', 'c/collections', { users: [] })).toEqual([200, undefined]);
    expect(await send('PUT', 'd/chaos', { rate: 0.5, faults: ['503'] })).toEqual([200, undefined]);
    for (const [method, path, body] of [
      ['PUT', 'e/state', { checkout: 'paid' }],
      ['POST', 'e/collections/users/items', { id: 1 }],
      ['PUT', 'e/collections/users', []],
      ['PUT', 'e/hosts', { hosts: ['e.example.test'] }],
      ['PUT', 'e/chaos', { rate: 0.5, faults: ['503'] }],
    ] as const) {
      expect(await send(method, path, body), path).toEqual([429, 'TOO_MANY_ENDPOINTS']);
    }
    // Names held take more; a deleted one frees its place.
    expect(await send('PUT', 'a/collections/users', [])).toEqual([200, undefined]);
    expect((await fetch(`${api}/b`, { method: 'DELETE' })).status).toBe(204);
    expect(await send('PUT', 'e/state', { checkout: 'paid' })).toEqual([200, undefined]);
  });

  it('LevelDB: the same, and it holds after a restart', async () => {
    const cwd = await makeTempDir();
    const daemon = await startDaemon({ cwd, args: ARGS });
    await fill([daemon], 'capped');
    await daemon.stop();
    const again = await startDaemon({ cwd, args: ARGS });
    expect(await putNew(again, 'capped', 2001)).toEqual({ status: 429, code: 'TOO_MANY_ENDPOINTS' });
  });

  it('Redis: two replicas writing at once make exactly the cap between them', async () => {
    redis = await startTestRedis();
    const env = { MOCKPOINT_REDIS_URL: redis.socket };
    const daemons = await Promise.all([startDaemon({ env, args: ARGS }), startDaemon({ env, args: ARGS })]);
    await fill(daemons, `capped-${process.pid}`);
  });
});
