// What a plain start loads before its first stub is answered, and in which order (issue #64,
// `ready`; docs/performance.md "Ready: spawn to the first stub"). Each module loaded costs a start
// its resolution, read and compile: hono's, @cfworker/json-schema's and graphql's parser are
// bundled into core's chunks (about 45 files fewer, and 18 CommonJS ones). And the store's modules
// load first, so that LevelDB opens (its files read on a thread of its own) while the rest of the
// daemon's modules load. The probe
// (fixtures/module-probe.mjs) records every module the process loads, in order. What only some
// starts use is made on its first use: `node:http2`, `node:https` and `node:tls` (h2c, HTTPS,
// HTTPS upstreams and deliveries), and the zod schemas of the API, the settings and the route
// docs (fixtures/zod-schema-probe.mjs counts those built: 1,395 schema parts before).
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, ON_BUN, removeTempDirs, startDaemon } from './helpers/daemon.js';

const PROBE = fileURLToPath(new URL('./fixtures/module-probe.mjs', import.meta.url));
const ZOD_PROBE = fileURLToPath(new URL('./fixtures/zod-schema-probe.mjs', import.meta.url));

/**
 * The files (not `node:` builtins) a plain start may load through its module loader until its
 * first stub is answered. This build loads 69 (and, through `require`, the CommonJS files of
 * LevelDB's packages, which the probe does not see); the builds before loaded 108, 29 of them
 * hono's and 9 @cfworker/json-schema's, then 72, three of them graphql's parser's (and its 15
 * others through `require`).
 */
const MAX_FILES = 90;

afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

/** A data directory holding one endpoint, `stub`, stored by a daemon that has stopped since. */
async function dataDirWithStub(dir: string): Promise<string> {
  const dataDir = join(dir, 'data');
  const first = await startDaemon({ args: ['--data-dir', dataDir] });
  const put = await fetch(`${first.url}/api/endpoints/stub`, { method: 'PUT', body: '{"data":{"hello":"world"}}' });
  expect(put.status).toBe(201);
  expect((await first.stop()).code).toBe(0);
  return dataDir;
}

/** The zod schemas the daemon started with the zod probe has built so far (the probe writes them on SIGUSR2). */
async function zodSchemasBuilt(daemon: Awaited<ReturnType<typeof startDaemon>>, probeFile: string): Promise<number> {
  await rm(probeFile, { force: true });
  daemon.child.kill('SIGUSR2');
  await expect.poll(() => existsSync(probeFile), { timeout: 10_000, interval: 5 }).toBe(true);
  return Number(await readFile(probeFile, 'utf8'));
}

/**
 * Starts a daemon on `dataDir` with the zod probe; the zod schemas (each part of one counts) it has
 * built once its first stub is answered, and once it has then saved a route through the API.
 */
async function zodSchemasUntilFirstStub(dir: string, dataDir: string): Promise<{ stub: number; put: number }> {
  const probeFile = join(dir, 'zod-schemas.txt');
  const daemon = await startDaemon({
    args: ['--data-dir', dataDir],
    nodeArgs: ['--import', ZOD_PROBE],
    env: { MOCKPOINT_TEST_ZOD_PROBE: probeFile },
  });
  expect(await (await fetch(`${daemon.url}/endpoint/stub`)).json()).toEqual({ hello: 'world' });
  const stub = await zodSchemasBuilt(daemon, probeFile);
  const routes = [{ id: 'one', match: { method: 'GET', path: '/one' }, answer: { data: [] } }];
  const put = await fetch(`${daemon.url}/api/endpoints/routed/routes`, {
    method: 'PUT',
    body: JSON.stringify({ routes }),
  });
  expect(put.status).toBe(200);
  const afterPut = await zodSchemasBuilt(daemon, probeFile);
  expect((await daemon.stop()).code).toBe(0);
  return { stub, put: afterPut };
}

/** Starts a daemon on `dataDir` with the probe, answers the stub once; the URLs it loaded until then, in order. */
async function modulesUntilFirstStub(dir: string, dataDir: string): Promise<string[]> {
  const probeFile = join(dir, 'loaded.txt');
  const daemon = await startDaemon({
    args: ['--data-dir', dataDir],
    nodeArgs: ['--import', PROBE],
    env: { MOCKPOINT_TEST_MODULE_PROBE: probeFile },
  });
  const answer = await fetch(`${daemon.url}/endpoint/stub`);
  expect(await answer.json()).toEqual({ hello: 'world' });
  const loaded = existsSync(probeFile) ? (await readFile(probeFile, 'utf8')).split('\n').filter(Boolean) : [];
  expect((await daemon.stop()).code).toBe(0);
  return loaded;
}

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): the probe is a Node `--import` hook.
describe.skipIf(ON_BUN)('a plain start until its first stub', () => {
  let loaded: string[];
  let dir: string;
  let dataDir: string;

  beforeAll(async () => {
    assertBuilt();
    dir = await makeTempDir('mockpoint-ready-');
    dataDir = await dataDirWithStub(dir);
    loaded = await modulesUntilFirstStub(dir, dataDir);
  });

  it('loads at most 90 files, none of them hono’s, @cfworker/json-schema’s or graphql’s own', () => {
    const files = loaded.filter((url) => url.startsWith('file:'));
    expect(files.filter((url) => /\/node_modules\/(?:hono|@cfworker\/json-schema|graphql)\//.test(url))).toEqual([]);
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(MAX_FILES);
  });

  it('loads neither node:http2, node:https nor node:tls: it serves HTTP/1.1 only until asked otherwise', () => {
    expect(loaded, loaded.join('\n')).toContain('node:http');
    expect(loaded.filter((url) => /^node:(?:http2|https|tls)$/.test(url))).toEqual([]);
  });

  it('builds no zod schema: the API’s, the settings’ and the route docs’ are built on their first use', async () => {
    const zodSchemas = await zodSchemasUntilFirstStub(dir, dataDir);
    // The probe does see schemas: the first route saved through the API builds the API's.
    expect(zodSchemas.put).toBeGreaterThan(0);
    expect(zodSchemas.stub).toBe(0);
  });

  it('loads the LevelDB store (and starts opening it) before the daemon’s other modules', () => {
    const index = (pattern: RegExp) => loaded.findIndex((url) => pattern.test(url));
    const level = index(/\/node_modules\/(?:\.pnpm\/level@[^/]+\/node_modules\/)?level\/index\.js$/);
    const startServer = index(/\/server\/dist\/start-server-[A-Z0-9]+\.js$/);
    expect(level, loaded.join('\n')).toBeGreaterThan(-1);
    expect(startServer, loaded.join('\n')).toBeGreaterThan(-1);
    expect(level).toBeLessThan(startServer);
  });
});
