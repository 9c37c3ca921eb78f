// A mock file wins for the hosts it maps (docs/https.md "Which wins", docs/files.md):
// against the built daemon on LevelDB, a host the store holds for another endpoint
// (mapped through the API by an earlier run) moves to the file's endpoint at start,
// with one line on stderr, is written to the store before the daemon listens (it
// survives SIGKILL and a start without the file), and curl with its Host reaches
// the file's endpoint; on one real redis-server a replica started with the file
// moves it and a running replica sees the move; a --watch reload moves one too
// (and a rename inside the file), and takes back on the next reload a host the API
// took from an endpoint whose text did not change; `mockpoint apply` shows the move in its diff; a
// host MOCKPOINT_HOSTS maps elsewhere stops start-up with one line and writes
// nothing, and on a reload is refused with the last good version kept. Then a
// seeded fuzz of random code points as the file's host: every line the daemon
// prints stays one line, and each move line names a parsed pattern.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { curl } from './helpers/curl.js';
import { type Daemon, makeTempDir, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

let redis: TestRedis | undefined;

useDaemons();
afterAll(() => redis?.dispose());

/** A file that maps `hosts` to `name`, whose route answers who it is. */
function fileFor(name: string, hosts = '[api.github.com]'): string {
  return `version: 1
endpoints:
  - name: ${name}
    hosts: ${hosts}
    routes:
      - match: { path: /zen }
        answer: { data: { from: ${name} } }
`;
}

/** The file maps api.github.com to `github` (renamed from `gh`). */
const FILE = fileFor('github');

/** Writes a file the way editors save: a new file renamed over the old one. */
function save(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** `GET /zen` with `Host: host` on the daemon. */
function zen(daemon: Daemon, host = 'api.github.com'): Promise<{ status: number; body: string }> {
  return curl(['-H', `Host: ${host}`, `http://127.0.0.1:${daemon.port}/zen`]);
}

async function hostTable(daemon: Daemon): Promise<unknown> {
  return (await requestJson(`${daemon.url}/api/hosts`)).body;
}

/** Maps `hosts` to `name` through the API (without moving: as any client does), with a /zen route. */
async function mapThroughApi(daemon: Daemon, name: string, hosts: string[]): Promise<void> {
  const routes = await requestJson(`${daemon.url}/api/endpoints/${name}/routes`, {
    method: 'PUT',
    body: { routes: [{ match: { path: '/zen' }, answer: { data: { from: name } } }] },
  });
  expect(routes.status).toBe(200);
  const put = await requestJson(`${daemon.url}/api/endpoints/${name}/hosts`, { method: 'PUT', body: { hosts } });
  expect(put.status).toBe(200);
}

/** The lines of `text` that say a host moved. */
function moveLines(text: string): string[] {
  return text.split('\n').filter((line) => line.includes(' moved from endpoint '));
}

describe('--config maps a host the store holds for another endpoint (LevelDB)', () => {
  it('starts, moves the host durably with one line, and curl reaches the file’s endpoint', async () => {
    const cwd = await makeTempDir();
    const path = join(cwd, 'mockpoint.yaml');
    writeFileSync(path, FILE);
    const first = await startDaemon({ cwd, args: ['--data-dir', 'data'] });
    await mapThroughApi(first, 'gh', ['api.github.com', 'gist.github.com']);
    expect(await zen(first)).toEqual({ status: 200, body: '{"from":"gh"}' });
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const second = await startDaemon({ cwd, args: ['--data-dir', 'data', '--config', 'mockpoint.yaml'] });
    expect(moveLines(second.stderr)).toEqual([
      `mockpoint: api.github.com moved from endpoint "gh" to "github" (${path} maps it)`,
    ]);
    expect(await zen(second)).toEqual({ status: 200, body: '{"from":"github"}' });
    // gh keeps what the file does not map.
    expect(await zen(second, 'gist.github.com')).toEqual({ status: 200, body: '{"from":"gh"}' });
    const table = {
      hosts: [
        { host: 'api.github.com', name: 'github', source: 'api' },
        { host: 'gist.github.com', name: 'gh', source: 'api' },
      ],
    };
    expect(await hostTable(second)).toEqual(table);

    // Written before the daemon listened: killed, and started without the file, github still holds it.
    expect(await second.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const third = await startDaemon({ cwd, args: ['--data-dir', 'data'] });
    expect(await hostTable(third)).toEqual(table);
    expect(await zen(third)).toEqual({ status: 200, body: '{"from":"github"}' });
    // The API's default is unchanged: another endpoint is still refused the host.
    const taken = await requestJson(`${third.url}/api/endpoints/gh/hosts`, {
      method: 'PUT',
      body: { hosts: ['api.github.com'] },
    });
    expect([taken.status, (taken.body as { error: { code: string } }).error.code]).toEqual([409, 'HOST_TAKEN']);
    expect(await third.stop()).toEqual({ code: 0, signal: null });

    // Started with the file again: it holds the host already, nothing moves and nothing is said.
    const fourth = await startDaemon({ cwd, args: ['--data-dir', 'data', '--config', 'mockpoint.yaml'] });
    expect(moveLines(fourth.stderr)).toEqual([]);
    expect(await zen(fourth)).toEqual({ status: 200, body: '{"from":"github"}' });
  });

  it('a host MOCKPOINT_HOSTS maps elsewhere stops start-up with one line, and nothing of the file is written', async () => {
    const cwd = await makeTempDir();
    const path = join(cwd, 'mockpoint.yaml');
    writeFileSync(path, `${FILE}  - name: plain\n    data: 1\n`);
    const refused = await runCli({
      cwd,
      args: ['--port', '0', '--host', '127.0.0.1', '--data-dir', 'data', '--config', 'mockpoint.yaml'],
      env: { MOCKPOINT_HOSTS: 'api.github.com=octo' },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `mockpoint: error: ${path}: endpoint "github" maps api.github.com, which MOCKPOINT_HOSTS maps to endpoint "octo"; the setting wins over a mock file: map the host in only one of them\n`,
    );
    const after = await startDaemon({ cwd, args: ['--data-dir', 'data'] });
    expect((await requestJson(`${after.url}/api/endpoints/plain`)).status).toBe(404);
    expect((await requestJson(`${after.url}/api/endpoints/github/routes`)).body).toEqual({ routes: [] });
  });
});

describe('--config on a shared store (one real redis-server)', () => {
  it('a replica started with the file moves the host; a replica already running sees the move', async () => {
    redis = await startTestRedis();
    const env = { MOCKPOINT_REDIS_URL: redis.socket };
    const running = await startDaemon({ env });
    await mapThroughApi(running, 'gh', ['api.github.com']);
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const started = await startDaemon({ cwd, env, args: ['--config', 'mockpoint.yaml'] });
    expect(moveLines(started.stderr)).toEqual([
      `mockpoint: api.github.com moved from endpoint "gh" to "github" (${join(cwd, 'mockpoint.yaml')} maps it)`,
    ]);
    expect(await zen(started)).toEqual({ status: 200, body: '{"from":"github"}' });
    // The move reaches the other replica through Redis: the 10 s every cross-replica wait has on a busy machine.
    await vi.waitFor(async () => expect(await zen(running)).toEqual({ status: 200, body: '{"from":"github"}' }), {
      timeout: 10_000,
      interval: 20,
    });
    expect(await hostTable(running)).toEqual({ hosts: [{ host: 'api.github.com', name: 'github', source: 'api' }] });
  });
});

describe('--watch', () => {
  it('a reload moves a host from another endpoint, and a rename inside the file moves it on; the setting still wins', async () => {
    const cwd = await makeTempDir();
    const path = join(cwd, 'mockpoint.yaml');
    writeFileSync(path, 'version: 1\nendpoints:\n  - name: github\n    data: 1\n');
    const daemon = await startDaemon({
      cwd,
      args: ['--memory', '--config', 'mockpoint.yaml', '--watch', '--hosts', 'uploads.github.com=octo'],
    });
    await mapThroughApi(daemon, 'gh', ['api.github.com']);

    save(path, FILE);
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: changed github');
    expect(moveLines(daemon.stderr)).toEqual([
      `mockpoint: api.github.com moved from endpoint "gh" to "github" (${path} maps it)`,
    ]);
    expect(await zen(daemon)).toEqual({ status: 200, body: '{"from":"github"}' });

    // Renamed in the file: the new name takes the host, the old one is removed.
    save(path, fileFor('hub'));
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: created hub; removed github');
    expect(moveLines(daemon.stderr).at(-1)).toBe(
      `mockpoint: api.github.com moved from endpoint "github" to "hub" (${path} maps it)`,
    );
    expect(await hostTable(daemon)).toEqual({
      hosts: [
        { host: 'api.github.com', name: 'hub', source: 'api' },
        { host: 'uploads.github.com', name: 'octo', source: 'settings' },
      ],
    });

    // Taken through the API meanwhile: the next reload takes it back, though hub's text did not change.
    const taken = await requestJson(`${daemon.url}/api/endpoints/gh/hosts?move=true`, {
      method: 'PUT',
      body: { hosts: ['api.github.com'] },
    });
    expect(taken.body).toMatchObject({ moved: [{ host: 'api.github.com', from: 'hub', to: 'gh' }] });
    expect(await zen(daemon)).toEqual({ status: 200, body: '{"from":"gh"}' });
    save(path, `${fileFor('hub')}  - name: plain\n    data: 2\n`);
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: created plain');
    expect(moveLines(daemon.stderr).at(-1)).toBe(
      `mockpoint: api.github.com moved from endpoint "gh" to "hub" (${path} maps it)`,
    );
    expect(await zen(daemon)).toEqual({ status: 200, body: '{"from":"hub"}' });

    // A host the setting maps elsewhere: one line, nothing applied, the last good version answers.
    save(path, fileFor('hub', '[api.github.com, uploads.github.com]'));
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('not applied, the last good version stays');
    const refusals = daemon.stderr.split('\n').filter((line) => line.includes('not applied'));
    expect(refusals).toEqual([
      `mockpoint: ${path} not applied, the last good version stays: endpoint "hub" maps uploads.github.com, which MOCKPOINT_HOSTS maps to endpoint "octo"; the setting wins over a mock file: map the host in only one of them`,
    ]);
    expect(await zen(daemon)).toEqual({ status: 200, body: '{"from":"hub"}' });
  });
});

describe('mockpoint apply', () => {
  it('moves a host another endpoint holds, and shows it in the diff (and in a dry run)', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const daemon = await startDaemon({ cwd, args: ['--memory'] });
    await mapThroughApi(daemon, 'gh', ['api.github.com']);
    const apply = (...extra: string[]) =>
      runCli({ cwd, args: ['apply', 'mockpoint.yaml', '--url', daemon.url, ...extra] });

    expect((await apply('--dry-run')).stdout).toBe(
      '+ github\n> api.github.com would move from endpoint "gh" to "github"\n1 would be created, 0 would be changed, 0 would be removed, 0 unchanged, 1 host would be moved\n',
    );
    expect(await zen(daemon)).toEqual({ status: 200, body: '{"from":"gh"}' });
    expect((await apply()).stdout).toBe(
      '+ github\n> api.github.com moved from endpoint "gh" to "github"\n1 created, 0 changed, 0 removed, 0 unchanged, 1 host moved\n',
    );
    expect(await zen(daemon)).toEqual({ status: 200, body: '{"from":"github"}' });
    expect((await apply()).stdout).toBe('0 created, 0 changed, 0 removed, 1 unchanged\n');
  });
});

const SEED = 36;
const CASES = 40;

it(`prints every host line bounded and printable for ${CASES} random hosts in a watched file (seed ${SEED})`, async () => {
  const cwd = await makeTempDir();
  const path = join(cwd, 'mockpoint.json');
  writeFileSync(path, '{"version":1,"endpoints":[{"name":"github","data":1}]}');
  const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.json', '--watch'] });
  const random = prng(SEED);
  const outcome = /(reloaded: |not applied, |could not be applied)/;
  let moved = 0;
  for (let i = 0; i < CASES; i++) {
    const noise = randomText(random, 1 + Math.floor(random() * 30));
    // Near a valid name most of the time, so some cases are patterns (in any case, with a trailing dot).
    const host = [noise, `API.${noise}.Example.`, `*.${noise}.test`, `a${i}.example`][i % 4] as string;
    const held = await requestJson(`${daemon.url}/api/endpoints/gh/hosts`, { method: 'PUT', body: { hosts: [host] } });
    const pattern = held.status === 200 ? (held.body as { hosts: { host: string }[] }).hosts[0]?.host : undefined;
    const before = daemon.stderr.split('\n').filter((line) => outcome.test(line)).length;
    save(path, `{"version":1,"endpoints":[{"name":"github","data":${i},"hosts":[${jsonString(host)}]}]}`);
    await expect
      .poll(() => daemon.stderr.split('\n').filter((line) => outcome.test(line)).length, { timeout: 10_000 })
      .toBeGreaterThan(before);
    if (pattern !== undefined) {
      moved++;
      await expect
        .poll(() => moveLines(daemon.stderr).at(-1), { timeout: 10_000 })
        .toBe(`mockpoint: ${pattern} moved from endpoint "gh" to "github" (${path} maps it)`);
    }
  }
  // Every line printed is one line (no raw control character split it), and each move line is
  // printable ASCII naming a parsed pattern, never the file's raw text.
  for (const line of daemon.stderr.split('\n').filter(Boolean)) {
    expect(line.startsWith('mockpoint: '), JSON.stringify(line)).toBe(true);
    expect(
      [...line].some((char) => char.charCodeAt(0) < 0x20),
      JSON.stringify(line),
    ).toBe(false);
  }
  for (const line of moveLines(daemon.stderr)) {
    expect(line).toMatch(/^mockpoint: [a-z0-9*][a-z0-9.-]{0,253} moved from endpoint "gh" to "github" \(.+ maps it\)$/);
    expect(line).toMatch(/^[\x20-\x7e]+$/);
  }
  expect(moved).toBeGreaterThan(5);
  expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
});
