// The daemon's settings as a real process: only MOCKPOINT_* names are read (an
// app's own .env cannot move it), --env-file, the start line naming the env file,
// loopback by default (127.0.0.1 and ::1) and --host 0.0.0.0 to share, and every
// limit of the settings table in /api/health.
import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { SETTING_LIST } from '@mockpoint/core/defaults';
import { describe, expect, it } from 'vitest';
import { addEndpoint, makeTempDir, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

/** What an application's own `.env` typically holds: generic names that are not ours. */
const APP_SETTINGS = {
  PORT: 'abc',
  HOST: '203.0.113.9',
  DATA_DIR: 'app-data',
  REDIS_URL: 'redis://127.0.0.1:1',
  ADMIN_TOKEN: 'app-secret',
  MAX_BODY_BYTES: '10',
  JOURNAL_SIZE: 'not-a-number',
};

/** Resolves with the status of GET `url`, or the connection error's code. */
function probe(host: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: '/api/health', timeout: 5000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/** An address of this machine that is not loopback (another machine would reach it), if it has one. */
function externalIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;
}

describe('only our own names are read', () => {
  it("an application's .env and environment (PORT, HOST, REDIS_URL, ...) do not move or change the daemon", async () => {
    const cwd = await makeTempDir();
    await writeFile(
      join(cwd, '.env'),
      `${Object.entries(APP_SETTINGS)
        .map(([key, value]) => `${key}=${value}`)
        .join('\n')}\n`,
    );
    const daemon = await startDaemon({ cwd, env: { ...APP_SETTINGS, MOCKPOINT_PORT: '0' } });
    expect(daemon.store).toBe(`level at ${join(cwd, 'data')}`);
    // No admin token, no 10-byte body limit: neither ADMIN_TOKEN nor MAX_BODY_BYTES applied.
    expect(await addEndpoint(daemon.url, { name: 'free', data: 'more than ten bytes' })).toMatchObject({ status: 201 });
    const health = await requestJson(`${daemon.url}/api/health`);
    expect(health.body).toMatchObject({ limits: { journalSize: 100, maxBodyBytes: 5 * 1024 * 1024 } });
  });

  it('the MOCKPOINT_ names in .env are read, and the start line names the file', async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, '.env'), 'MOCKPOINT_ADMIN_TOKEN=from-file\nMOCKPOINT_JOURNAL_SIZE=7\n');
    const daemon = await startDaemon({ cwd, args: ['--memory'] });
    expect(daemon.notes).toContain(`env file: ${join(cwd, '.env')}`);
    expect(daemon.notes).toContain('admin token required for writes');
    expect((await requestJson(`${daemon.url}/api/health`)).body).toMatchObject({ limits: { journalSize: 7 } });
  });

  it('without an env file the start line says so', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    expect(daemon.notes).toContain('env file: none');
  });
});

describe('--env-file', () => {
  it('reads that file instead of ./.env; the environment still wins', async () => {
    const cwd = await makeTempDir();
    const other = await makeTempDir();
    await writeFile(join(cwd, '.env'), 'MOCKPOINT_PORT=abc\n');
    await writeFile(join(other, 'mock.env'), 'MOCKPOINT_JOURNAL_SIZE=5\nMOCKPOINT_MAX_DELAY_MS=700\n');
    const daemon = await startDaemon({
      cwd,
      args: ['--memory', '--env-file', join(other, 'mock.env')],
      env: { MOCKPOINT_MAX_DELAY_MS: '800' },
    });
    expect(daemon.notes).toContain(`env file: ${join(other, 'mock.env')}`);
    expect((await requestJson(`${daemon.url}/api/health`)).body).toMatchObject({
      limits: { journalSize: 5, maxDelayMs: 800 },
    });
  });

  it('a missing file stops start-up with one line naming it', async () => {
    const cwd = await makeTempDir();
    const run = await runCli({ cwd, args: ['--memory', '--port', '0', '--env-file', 'nope.env'] });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    // Node 20 checks an `--env-file` argument itself, even after the script path
    // (nodejs/node#54232), and exits first with its own one line; later Node
    // versions leave it to us (config.test.ts checks our message).
    expect(run.stderr).toMatch(
      new RegExp(
        `^(?:mockpoint: error: --env-file: ${join(cwd, 'nope.env')} does not exist|\\S*node: nope\\.env: not found)\n$`,
      ),
    );
  });
});

describe('listening address', () => {
  it('by default: 127.0.0.1 and ::1, both answer, and the start line says exactly that', async () => {
    const daemon = await startDaemon({ args: ['--memory'], defaultHost: true });
    expect(daemon.urls).toEqual([`http://127.0.0.1:${daemon.port}`, `http://[::1]:${daemon.port}`]);
    expect(await probe('127.0.0.1', daemon.port)).toBe(200);
    expect(await probe('::1', daemon.port)).toBe(200);
    const external = externalIPv4();
    // On a machine with a network, this machine's own address on it is refused.
    if (external !== undefined) expect(await probe(external, daemon.port)).toBe('ECONNREFUSED');
  });

  it('MOCKPOINT_HOST=0.0.0.0 shares it, and the start line says that it is reachable from other machines', async () => {
    const daemon = await startDaemon({ args: ['--memory'], defaultHost: true, env: { MOCKPOINT_HOST: '0.0.0.0' } });
    expect(daemon.notes).toContain('every network interface: reachable from other machines');
    expect(await probe('127.0.0.1', daemon.port)).toBe(200);
    const external = externalIPv4();
    if (external !== undefined) expect(await probe(external, daemon.port)).toBe(200);
  });
});

describe('limits', () => {
  it('/api/health lists every limit of the settings table, as set', async () => {
    const daemon = await startDaemon({
      args: ['--memory', '--max-connections', '321'],
      env: { MOCKPOINT_MAX_ROUTES: '42' },
    });
    const { body } = await requestJson(`${daemon.url}/api/health`);
    const limits = (body as { limits: Record<string, number> }).limits;
    expect(Object.keys(limits)).toEqual(SETTING_LIST.filter((spec) => spec.limit).map((spec) => spec.name));
    expect(limits).toMatchObject({ maxRoutes: 42, maxConnections: 321, cacheMaxBytes: 64 * 1024 * 1024 });
  });

  it.each([
    ['MOCKPOINT_MAX_ROUTES', '0', /^MOCKPOINT_MAX_ROUTES: "0" must be a whole number from 1 to/],
    ['MOCKPOINT_MAX_CONNECTIONS', '-1', /^MOCKPOINT_MAX_CONNECTIONS: "-1" must be a whole number/],
    ['MOCKPOINT_ALLOWED_ORIGINS', 'http://ok.example, localhost:3000', /^MOCKPOINT_ALLOWED_ORIGINS: "localhost:3000"/],
  ])('a bad %s stops start-up with one line naming it', async (name, value, pattern) => {
    const run = await runCli({ args: ['--memory', '--port', '0'], env: { [name]: value } });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')).toHaveLength(2);
    expect(run.stderr.replace(/^mockpoint: error: /, '')).toMatch(pattern);
  });
});
