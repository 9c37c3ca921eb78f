// The single executable (`pnpm binaries`, scripts/binaries.mjs) as a user runs it:
// the linux-x64 file copied alone into an empty folder and started there with a
// PATH that has no node (the machine's /usr/bin and /bin without node, npm, npx,
// corepack), no node_modules above it, nothing else in its environment. It must
// answer --version, start on LevelDB in ./data, serve the web page and its assets
// from the file itself, store, and keep every acknowledged write through SIGKILL.
//
// The executable is built once per run (about 5 s; reused while the server's build
// stamp, bun's version and the script are unchanged) into .tmp/binary-test.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { chmod, copyFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '@mockpoint/core/defaults';
import { startTestRedis } from '@mockpoint/testkit/redis-server';
import { providers } from '@mockpoint/twins';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addEndpoint,
  assertBuilt,
  killAll,
  makeTempDir,
  removeTempDirs,
  requestJson,
  runCli,
  startDaemon,
} from './helpers/daemon.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = join(ROOT, '.tmp', 'binary-test');
const WEB = fileURLToPath(new URL('../dist/web/', import.meta.url));
/** What a machine without Node has none of. */
const NODE_TOOLS = /^(?:node|nodejs|npm|npx|corepack|pnpm|pnpx|yarn|bun|bunx|deno)$/;

/** The copy under test, alone in its folder. */
let exe: string;
let folder: string;
/** The child's whole environment: a PATH without node, and its own temporary directory. */
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  const build = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'binaries.mjs'), '--target', 'linux-x64', '--out', OUT, '--if-stale'],
    { encoding: 'utf8', timeout: 150_000 },
  );
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);

  folder = await makeTempDir('mockpoint-binary-');
  exe = join(folder, 'mockpoint');
  await copyFile(join(OUT, 'mockpoint-linux-x64'), exe);
  await chmod(exe, 0o755);
  // /usr/bin and /bin without node: a directory of links to everything else in them.
  const bin = await makeTempDir('mockpoint-binary-path-');
  for (const dir of ['/usr/bin', '/bin']) {
    for (const name of readdirSync(dir)) {
      if (!NODE_TOOLS.test(name) && !existsSync(join(bin, name))) symlinkSync(join(dir, name), join(bin, name));
    }
  }
  // Bun writes the embedded LevelDB addon to a temporary file before loading it.
  env = { PATH: bin, TMPDIR: await makeTempDir('mockpoint-binary-tmp-') };
}, 180_000);
afterEach(() => killAll());
afterAll(() => removeTempDirs());

describe('the linux-x64 executable, alone in an empty folder, without node', () => {
  it('is the only file in its folder, no node_modules is above it, and its PATH finds no node', async () => {
    expect(await readdir(folder)).toEqual(['mockpoint']);
    for (let dir = folder; dir !== dirname(dir); dir = dirname(dir)) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    }
    expect(existsSync(join(env.PATH as string, 'sh'))).toBe(true);
    const which = spawnSync('/bin/sh', ['-c', 'command -v node || command -v nodejs || command -v npm'], {
      env,
      encoding: 'utf8',
    });
    expect(which.status, which.stdout).not.toBe(0);
    expect(which.stdout).toBe('');
  });

  it('answers --version and --help', async () => {
    const version = await runCli({ bin: exe, cwd: folder, env, args: ['--version'] });
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = await runCli({ bin: exe, cwd: folder, env, args: ['--help'] });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--data-dir');
    expect(await readdir(folder)).toEqual(['mockpoint']);
  });

  it('starts on LevelDB in ./data and serves the web page and its assets from the file itself', async () => {
    const daemon = await startDaemon({ bin: exe, cwd: folder, env });
    expect(daemon.version).toBe(VERSION);
    expect(daemon.store).toBe(`level at ${join(folder, 'data')}`);
    expect(readdirSync(join(folder, 'data'))).toContain('CURRENT');

    const page = await fetch(`${daemon.url}/`, { headers: { 'accept-encoding': 'identity' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toBe(readFileSync(join(WEB, 'index.html'), 'utf8'));
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?(static\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(2); // the script and the style sheet
    for (const asset of assets) {
      const plain = await fetch(`${daemon.url}/${asset}`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.status, asset).toBe(200);
      expect(Buffer.from(await plain.arrayBuffer()).equals(readFileSync(join(WEB, asset))), asset).toBe(true);
      // The build's brotli copy, embedded beside it (fetch decodes it).
      const br = await fetch(`${daemon.url}/${asset}`, { headers: { 'accept-encoding': 'br' } });
      expect(br.headers.get('content-encoding'), asset).toBe('br');
      expect(Buffer.from(await br.arrayBuffer()).equals(readFileSync(join(WEB, asset))), asset).toBe(true);
    }
    expect((await fetch(`${daemon.url}/static/nothing.js`)).status).toBe(404);
    expect(await daemon.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('carries the Redis client (an optional peer the npm package leaves out): MOCKPOINT_REDIS_URL stores in Redis', async () => {
    const redis = await startTestRedis();
    try {
      const daemon = await startDaemon({ bin: exe, cwd: folder, env: { ...env, MOCKPOINT_REDIS_URL: redis.socket } });
      expect(daemon.store).toMatch(/^redis at /);
      await addEndpoint(daemon.url, { name: 'on-redis', data: { ok: 1 } });
      expect(await (await fetch(`${daemon.url}/endpoint/on-redis`)).text()).toBe('{"ok":1}');
      expect(await daemon.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    } finally {
      await redis.dispose();
    }
  });

  it("carries the providers' twins (@mockpoint/twins, which the npm package leaves out): a Stripe twin answers", async () => {
    const daemon = await startDaemon({ bin: exe, cwd: folder, args: ['--memory'], env });
    try {
      // Their names are the package's list (its CODE map), bundled with it; --twin reads it too.
      expect(await (await fetch(`${daemon.url}/api/twins`)).json()).toEqual({ providers });
      const refused = await runCli({ bin: exe, cwd: folder, env, args: ['--memory', '--twin', 'paypal=0'] });
      expect([refused.code, refused.stderr]).toEqual([
        1,
        `mockpoint: error: --twin: "paypal" is no provider; one of ${providers.join(', ')}\n`,
      ]);
      const made = await fetch(`${daemon.url}/api/endpoints/pay/twin`, {
        method: 'PUT',
        body: JSON.stringify({ provider: 'stripe' }),
      });
      expect(made.status).toBe(200);
      const customer = await fetch(`${daemon.url}/endpoint/pay/v1/customers`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_binary', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=jenny%40example.com',
      });
      expect(customer.status).toBe(200);
      expect(await customer.json()).toMatchObject({ object: 'customer', email: 'jenny@example.com' });
      // Stripe's flows (its folder's code, bundled from source): a test card's payment succeeds.
      // Its added parameters (params.json.gz): `excluded_payment_method_types`, which the 2024 document lacks.
      const paid = await fetch(`${daemon.url}/endpoint/pay/v1/payment_intents`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_binary', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'amount=1200&currency=usd&payment_method=pm_card_visa&confirm=true&excluded_payment_method_types[0]=klarna',
      });
      expect(paid.status).toBe(200);
      expect(await paid.json()).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 1200 });
    } finally {
      expect(await daemon.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });

  it('stores, keeps every acknowledged write through SIGKILL, and locks its data directory', async () => {
    const cwd = await makeTempDir('mockpoint-binary-store-');
    const first = await startDaemon({ bin: exe, cwd, env });
    const records = Array.from({ length: 30 }, (_, i) => ({
      name: `kill-${i}`,
      data: { i, text: `ünïcødé ${'✓'.repeat(i)}`, nested: [i, null, true] },
      statusCode: 200 + (i % 3),
    }));
    const adds = await Promise.all(records.map((record) => addEndpoint(first.url, record)));
    expect(adds.map((a) => a.status)).toEqual(records.map(() => 201));
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startDaemon({ bin: exe, cwd, env });
    for (const record of records) {
      const response = await fetch(`${second.url}/endpoint/${record.name}`);
      expect(response.status, record.name).toBe(record.statusCode);
      expect(await response.json(), record.name).toEqual(record.data);
    }
    const busy = await runCli({ bin: exe, cwd, env, args: ['--port', '0', '--host', '127.0.0.1'] });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/^mockpoint: error: data directory .*data is in use by another mockpoint process/);
    expect(await requestJson(`${second.url}/endpoint/kill-0`)).toEqual({ status: 200, body: records[0]?.data });
    expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('leaves .env to the daemon: --env-file wins over a .env that Bun would otherwise load first', async () => {
    const cwd = await makeTempDir('mockpoint-binary-env-');
    await writeFile(join(cwd, '.env'), 'MOCKPOINT_JOURNAL_SIZE=not-a-number\n');
    await writeFile(join(cwd, 'other.env'), 'MOCKPOINT_JOURNAL_SIZE=7\n');
    const daemon = await startDaemon({ bin: exe, cwd, env, args: ['--memory', '--env-file', 'other.env'] });
    expect(daemon.notes.join('; ')).toMatch(/env file: .*other\.env/);
    expect(await daemon.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const bad = await runCli({ bin: exe, cwd, env, args: ['--memory', '--port', '0'] });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^mockpoint: error: MOCKPOINT_JOURNAL_SIZE: /);
  });

  it('refuses SERVER_REPORTING_DSN with one line: the file does not carry @sentry/node', async () => {
    const run = await runCli({
      bin: exe,
      cwd: await makeTempDir('mockpoint-binary-dsn-'),
      env: { ...env, SERVER_REPORTING_DSN: 'https://key@127.0.0.1:9/1' },
      args: ['--memory', '--port', '0'],
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'mockpoint: error: SERVER_REPORTING_DSN is set but this single executable does not include @sentry/node: for server error reporting run mockpoint from npm (npm install -g @mockpoint/server @sentry/node@11), or unset SERVER_REPORTING_DSN\n',
    );
  });

  it('loads a mock file (--config mockpoint.yaml): the YAML parser, routes and templates are in the file too', async () => {
    const cwd = await makeTempDir('mockpoint-binary-config-');
    await writeFile(
      join(cwd, 'mockpoint.yaml'),
      [
        'version: 1',
        'endpoints:',
        '  - name: github',
        '    data: { fallback: true }',
        '    routes:',
        '      - match: { method: GET, path: /repos/:owner/:repo }',
        '        answer:',
        '          data: { full_name: "{{params.owner}}/{{params.repo}}" }',
        '          template: true',
        '',
      ].join('\n'),
    );
    const daemon = await startDaemon({ bin: exe, cwd, env, args: ['--memory', '--config', 'mockpoint.yaml'] });
    expect(await requestJson(`${daemon.url}/endpoint/github/repos/octo/cat`)).toEqual({
      status: 200,
      body: { full_name: 'octo/cat' },
    });
    expect(await requestJson(`${daemon.url}/endpoint/github`)).toEqual({ status: 200, body: { fallback: true } });
  });

  it('says in one line when the LevelDB addon cannot be unpacked (TMPDIR unusable), and runs with --memory there', async () => {
    const cwd = await makeTempDir('mockpoint-binary-tmpdir-');
    const notADirectory = join(cwd, 'not-a-directory');
    await writeFile(notADirectory, '');
    const broken = { ...env, TMPDIR: notADirectory };
    const run = await runCli({ bin: exe, cwd, env: broken, args: ['--port', '0', '--host', '127.0.0.1'] });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^mockpoint: error: the LevelDB store cannot load its native addon \([^\n]+\): set TMPDIR to a writable directory that allows running files, or start with --memory or MOCKPOINT_REDIS_URL\n$/,
    );
    const memory = await startDaemon({ bin: exe, cwd, env: broken, args: ['--memory'] });
    expect(memory.store).toMatch(/^memory/);
  });
});
