// Host mappings set through the admin API are kept in the store, like routes:
// against the built daemon on LevelDB, every acknowledged mapping survives
// SIGKILL (curl with a Host header reaches the endpoint after the restart), a
// deleted endpoint's mappings stay gone; on one real redis-server, two replicas
// see each other's mappings, removals and resets, and a replica started later
// loads them.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { curl } from './helpers/curl.js';
import { type Daemon, makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

let redis: TestRedis | undefined;

useDaemons();
afterAll(() => redis?.dispose());

const REPO_ROUTE = {
  routes: [
    {
      match: { path: '/repos/:owner/:repo' },
      answer: { data: { full_name: '{{params.owner}}/{{params.repo}}' }, template: true },
    },
  ],
};

/** An endpoint with the repo route and `hosts` mapped to it through the API. */
async function mapped(daemon: Daemon, name: string, hosts: string[]): Promise<void> {
  const routes = await requestJson(`${daemon.url}/api/endpoints/${name}/routes`, { method: 'PUT', body: REPO_ROUTE });
  expect(routes.status).toBe(200);
  const put = await requestJson(`${daemon.url}/api/endpoints/${name}/hosts`, { method: 'PUT', body: { hosts } });
  expect(put.status).toBe(200);
}

/** `GET /repos/a/b` with `Host: host` on the daemon. */
function byHost(daemon: Daemon, host: string): Promise<{ status: number; body: string }> {
  return curl(['-H', `Host: ${host}`, `http://127.0.0.1:${daemon.port}/repos/a/b`]);
}

async function hostTable(daemon: Daemon): Promise<unknown> {
  return (await requestJson(`${daemon.url}/api/hosts`)).body;
}

describe('host mappings across SIGKILL (LevelDB)', () => {
  it('every acknowledged mapping survives SIGKILL; a deleted endpoint and removed hosts stay unmapped', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    await mapped(first, 'github', ['api.github.com', '*.githubusercontent.com']);
    await mapped(first, 'gone', ['gone.example']);
    await mapped(first, 'unmapped', ['unmapped.example']);
    expect(await byHost(first, 'gone.example')).toEqual({ status: 200, body: '{"full_name":"a/b"}' });
    // The endpoint deleted (routes, hosts and all), and one endpoint's hosts removed.
    expect((await requestJson(`${first.url}/api/endpoints/gone`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestJson(`${first.url}/api/endpoints/unmapped/hosts`, { method: 'DELETE' })).status).toBe(204);

    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd });
    expect(await byHost(second, 'api.github.com')).toEqual({ status: 200, body: '{"full_name":"a/b"}' });
    expect(await byHost(second, 'raw.githubusercontent.com')).toEqual({ status: 200, body: '{"full_name":"a/b"}' });
    expect(await hostTable(second)).toEqual({
      hosts: [
        { host: '*.githubusercontent.com', name: 'github', source: 'api' },
        { host: 'api.github.com', name: 'github', source: 'api' },
      ],
    });
    // Unmapped now: the Host check of a name nobody maps refuses it, as for any unknown host.
    expect((await byHost(second, 'gone.example')).status).toBe(403);
    expect((await byHost(second, 'unmapped.example')).status).toBe(403);
    // Still taken after the restart, and still removable.
    const taken = await requestJson(`${second.url}/api/endpoints/other/hosts`, {
      method: 'PUT',
      body: { hosts: ['api.github.com'] },
    });
    expect([taken.status, (taken.body as { error: { code: string } }).error.code]).toEqual([409, 'HOST_TAKEN']);
    expect((await requestJson(`${second.url}/api/endpoints`, { method: 'DELETE' })).status).toBe(204);

    expect(await second.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const third = await startDaemon({ cwd, args: ['--hosts', 'api.github.com=settings-name'] });
    // The reset was durable too; the setting's mapping is there, as always.
    expect(await hostTable(third)).toEqual({
      hosts: [{ host: 'api.github.com', name: 'settings-name', source: 'settings' }],
    });
  });

  it('a stored mapping the setting now gives another endpoint: the setting wins, the stored one is left out', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    await mapped(first, 'github', ['api.github.com', 'uploads.github.com']);
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd, args: ['--hosts', 'api.github.com=octo'] });
    expect(await hostTable(second)).toEqual({
      hosts: [
        { host: 'api.github.com', name: 'octo', source: 'settings' },
        { host: 'uploads.github.com', name: 'github', source: 'api' },
      ],
    });
  });
});

describe('host mappings shared by replicas on one redis-server', () => {
  it('a mapping set, removed with its endpoint or reset on one replica is seen by the other; a late replica loads them', async () => {
    // Each wait below is for a change to reach another replica through Redis: 10 s bounds it on a busy 2-core machine.
    redis = await startTestRedis();
    const env = { MOCKPOINT_REDIS_URL: redis.socket };
    const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
    const name = `replica-hosts-${process.pid}`;
    await mapped(a as Daemon, name, ['api.replica.example']);
    await vi.waitFor(
      async () =>
        expect(await byHost(b as Daemon, 'api.replica.example')).toEqual({ status: 200, body: '{"full_name":"a/b"}' }),
      { timeout: 10_000, interval: 20 },
    );
    const late = await startDaemon({ env });
    expect(await byHost(late, 'api.replica.example')).toEqual({ status: 200, body: '{"full_name":"a/b"}' });

    // Deleted on b: a and the late replica drop the mapping.
    expect((await requestJson(`${(b as Daemon).url}/api/endpoints/${name}`, { method: 'DELETE' })).status).toBe(204);
    for (const replica of [a as Daemon, late]) {
      await vi.waitFor(async () => expect(await hostTable(replica)).toEqual({ hosts: [] }), {
        timeout: 10_000,
        interval: 20,
      });
    }

    // Set on the late replica, reset on a: every replica ends with none.
    await mapped(late, name, ['again.replica.example']);
    await vi.waitFor(async () => expect((await byHost(b as Daemon, 'again.replica.example')).status).toBe(200), {
      timeout: 10_000,
      interval: 20,
    });
    expect((await requestJson(`${(a as Daemon).url}/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
    for (const replica of [b as Daemon, late]) {
      await vi.waitFor(async () => expect(await hostTable(replica)).toEqual({ hosts: [] }), {
        timeout: 10_000,
        interval: 20,
      });
    }
  });
});
