// Which writes take a place under a namespace's cap on names (--max-endpoints-per-namespace), against
// the built daemon on memory, LevelDB and Redis (its ledger is a Lua script): a route delete on a name
// that holds nothing takes none (it answers 404 and writes nothing); queued answers make a name that
// counts, as every other part does; and a delete racing writes to the same name never leaves a name
// that holds something uncounted (the namespace never holds more names than its cap), on one daemon
// and between two replicas of one Redis.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type CliOptions,
  type Daemon,
  killAll,
  makeTempDir,
  removeTempDirs,
  sharedDaemon,
  startDaemon,
} from './helpers/daemon.js';

let redis: TestRedis | undefined;

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

const CAP = 2;

type Store = 'memory' | 'LevelDB' | 'Redis';

/** How a daemon on `store` with the cap starts. */
async function optionsOn(store: Store): Promise<CliOptions> {
  const cap = ['--max-endpoints-per-namespace', String(CAP)];
  if (store === 'memory') return { args: ['--memory', ...cap] };
  if (store === 'LevelDB') return { args: ['--data-dir', await makeTempDir('mockpoint-cap-'), ...cap] };
  redis ??= await startTestRedis();
  return { args: ['--redis-url', redis.socket, ...cap] };
}

let namespaces = 0;

/** A new namespace of `daemon`: its admin API's base URL. */
async function namespaceOf(daemon: Daemon): Promise<string> {
  const name = `cap${++namespaces}`;
  const made = await fetch(`${daemon.url}/api/namespaces`, { method: 'POST', body: JSON.stringify({ name }) });
  expect(made.status).toBe(201);
  return `${daemon.url}/ns/${name}/api`;
}

async function send(url: string, method: string, body?: unknown): Promise<{ status: number; code?: string }> {
  const response = await fetch(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  const code = response.ok || text === '' ? undefined : (JSON.parse(text) as { error: { code: string } }).error.code;
  return code === undefined ? { status: response.status } : { status: response.status, code };
}

/** The names the namespace lists as holding something. */
async function listed(api: string): Promise<string[]> {
  const page = (await (await fetch(`${api}/endpoints?summary=true&limit=1000`)).json()) as {
    endpoints: { name: string }[];
  };
  return page.endpoints.map((entry) => entry.name).sort();
}

const FULL = { status: 429, code: 'TOO_MANY_ENDPOINTS' };

describe.each<Store>(['memory', 'LevelDB', 'Redis'])('the cap on names, on %s', (store) => {
  // The cap is a namespace's: each test works in a new namespace of the store's one daemon.
  const daemonOn = sharedDaemon(() => optionsOn(store));

  it('a route delete on names that hold nothing takes no place', async () => {
    const api = await namespaceOf(await daemonOn());
    for (const name of ['a', 'b', 'c']) {
      expect(await send(`${api}/endpoints/${name}/routes/r1`, 'DELETE')).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    expect(await send(`${api}/endpoints/x`, 'PUT', { data: 1 })).toEqual({ status: 201 });
    const routes = { routes: [{ id: 'r1', answer: { data: 2 } }] };
    expect(await send(`${api}/endpoints/y/routes`, 'PUT', routes)).toEqual({ status: 200 });
    expect(await send(`${api}/endpoints/z`, 'PUT', { data: 3 })).toEqual(FULL);
    // A name that has routes still counts once they are deleted one by one (until the name is deleted).
    expect(await send(`${api}/endpoints/y/routes/r1`, 'DELETE')).toEqual({ status: 204 });
    expect(await send(`${api}/endpoints/z`, 'PUT', { data: 3 })).toEqual(FULL);
    expect(await listed(api)).toEqual(['x']);
  });

  it('queued answers make a name that counts, and a delete frees it', async () => {
    const api = await namespaceOf(await daemonOn());
    const queued = { answers: [{ data: 1 }] };
    expect(await send(`${api}/endpoints/q1/queue`, 'POST', queued)).toEqual({ status: 201 });
    expect(await send(`${api}/endpoints/q2/queue`, 'POST', queued)).toEqual({ status: 201 });
    expect(await send(`${api}/endpoints/q3/queue`, 'POST', queued)).toEqual(FULL);
    expect(await send(`${api}/endpoints/r`, 'PUT', { data: 1 })).toEqual(FULL);
    // More answers for a name that counts already are no new name.
    expect(await send(`${api}/endpoints/q1/queue`, 'POST', queued)).toEqual({ status: 201 });
    expect(await listed(api)).toEqual(['q1', 'q2']);
    expect(await send(`${api}/endpoints/q2`, 'DELETE')).toEqual({ status: 204 });
    expect(await send(`${api}/endpoints/r`, 'PUT', { data: 1 })).toEqual({ status: 201 });
  });

  it('deletes racing writes of one name never leave it holding something uncounted', async () => {
    const api = await namespaceOf(await daemonOn());
    // 100 rounds of a write and a delete of `r` at once: whichever lands last, `r` either holds its
    // record and counts, or holds nothing.
    for (let round = 0; round < 100; round++) {
      await Promise.all([send(`${api}/endpoints/r`, 'PUT', { data: round }), send(`${api}/endpoints/r`, 'DELETE')]);
    }
    // Fill the namespace: with `r` counted (or gone) it holds exactly the cap, never more.
    for (const name of ['n1', 'n2', 'n3']) await send(`${api}/endpoints/${name}`, 'PUT', { data: 1 });
    const names = await listed(api);
    expect(names.length, names.join(', ')).toBe(CAP);
  }, 60_000);
});

describe('the cap on names, on Redis with two replicas', () => {
  it('deletes on one replica racing writes on the other never leave a name uncounted', async () => {
    redis ??= await startTestRedis();
    const args = ['--redis-url', redis.socket, '--max-endpoints-per-namespace', String(CAP)];
    const [one, two] = await Promise.all([startDaemon({ args }), startDaemon({ args })]);
    const api = await namespaceOf(one as Daemon);
    const other = api.replace((one as Daemon).url, (two as Daemon).url);
    for (let round = 0; round < 200; round++) {
      await Promise.all([send(`${api}/endpoints/r`, 'PUT', { data: round }), send(`${other}/endpoints/r`, 'DELETE')]);
    }
    for (const name of ['n1', 'n2', 'n3']) await send(`${api}/endpoints/${name}`, 'PUT', { data: 1 });
    const names = await listed(api);
    expect(names.length, names.join(', ')).toBe(CAP);
  }, 60_000);
});
