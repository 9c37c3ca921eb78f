/**
 * Starts mockpoint on each runtime the contract covers, the way docs/runtimes.md tells
 * people to: the Node daemon (`mockpoint` CLI), Bun and Deno running the
 * `@mockpoint/core/bun` and `/deno` entries, and workerd (through miniflare)
 * running the `@mockpoint/core/workers` entry. Every runtime is the real binary
 * installed from the npm registry (root devDependencies). Each listens on
 * 127.0.0.1 and a free port, keeps its data in a fresh temporary directory, and
 * is stopped by its own PID.
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, type Target } from './contract.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** How long a runtime may take to say it listens (generous: CI shares 2 cores). */
const START_DEADLINE_MS = 60_000;

/**
 * The Deno permissions docs/runtimes.md documents for the Deno entry with LevelDB:
 * the network, reading (the addon and the data), writing only the data
 * directory, the environment (the addon loader reads it) and FFI (Node-API addon).
 */
export function denoPermissions(dataDir: string): string[] {
  return ['--allow-net', '--allow-read', `--allow-write=${dataDir}`, '--allow-env', '--allow-ffi'];
}

/** A runtime the contract runs on. */
export interface Runtime {
  /** Short id, e.g. `bun`. */
  id: string;
  /** Name and version, e.g. `Bun 1.4.5`. */
  label: string;
  /** How mockpoint runs there, for the docs/runtimes.md table. */
  entry: string;
  /** Its entry answers {@link Target.protobufModules}. */
  countsModules?: boolean;
  start(): Promise<Running>;
}

/** A started runtime. */
export interface Running extends Target {
  stop(): Promise<void>;
}

/** The path of a runtime binary shipped in an npm package (its optional dependency holds the real file). */
function packageBinary(pkg: string, relative: string): string {
  const file = join(dirname(require.resolve(`${pkg}/package.json`)), relative);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm install\` (it installs ${pkg})`);
  return file;
}

/** The `bun` binary of the `bun` package. */
export const bunBinary = (): string => packageBinary('bun', 'bin/bun.exe');
/** The `deno` binary of the `deno` package. */
export const denoBinary = (): string => packageBinary('deno', 'deno');

function versionOf(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0]?.trim() ?? 'unknown';
}

/** Spawns `command` and resolves with the URL from its `listening on <url>` line. */
async function spawnListening(
  command: string,
  args: string[],
  cwd: string,
  cleanup: () => Promise<void>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} printed no listening line: ${output}`)),
      START_DEADLINE_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited before listening: ${output}`));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    await cleanup();
    throw error;
  });
  return {
    url,
    /** SIGTERM, then a clean exit (0) within 20 s is part of the contract; SIGKILL otherwise. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const exit = await exited;
      clearTimeout(timer);
      await cleanup();
      if (exit.code !== 0) {
        throw new Error(`${command} did not exit cleanly on SIGTERM (${JSON.stringify(exit)}): ${output}`);
      }
    },
  };
}

async function tempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A `waiters` probe on the test-only route of the entries here. */
function probe(url: string): Target['waiters'] {
  return async (name) => JSON.parse((await call({ url }, 'GET', `/__contract/waiters/${name}`)).text) as number;
}

/** A probe of the protobuf modules loaded, on the test-only route of the entries here. */
function protobufModules(url: string): Target['protobufModules'] {
  return async () => JSON.parse((await call({ url }, 'GET', '/__contract/protobuf-modules')).text) as number;
}

/** This package's directory (the runtimes resolve `@mockpoint/*` from its node_modules). */
export { PACKAGE_DIR };

export const NODE: Runtime = {
  id: 'node',
  label: `Node ${process.version.slice(1)}`,
  entry: 'the `mockpoint` daemon (LevelDB)',
  async start() {
    const cli = join(dirname(require.resolve('@mockpoint/server/package.json')), 'dist', 'cli.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`pnpm build\` first`);
    const { dir, remove } = await tempDir('mockpoint-rt-node-');
    const args = [cli, '--port', '0', '--host', '127.0.0.1', '--data-dir', join(dir, 'data')];
    return spawnListening(process.execPath, args, dir, remove);
  },
};

export const BUN_RUNTIME: Runtime = {
  id: 'bun',
  label: `Bun ${versionOf(bunBinary())}`,
  entry: '`serve()` from `@mockpoint/core/bun` (LevelDB)',
  countsModules: true,
  async start() {
    const { dir, remove } = await tempDir('mockpoint-rt-bun-');
    const running = await spawnListening(bunBinary(), ['entries/bun.ts', dir], PACKAGE_DIR, remove);
    return { ...running, waiters: probe(running.url), protobufModules: protobufModules(running.url) };
  },
};

export const DENO_RUNTIME: Runtime = {
  id: 'deno',
  label: `Deno ${versionOf(denoBinary())
    .replace(/^deno /, '')
    .replace(/ .*/, '')}`,
  entry: '`serve()` from `@mockpoint/core/deno` (LevelDB)',
  countsModules: true,
  async start() {
    const { dir, remove } = await tempDir('mockpoint-rt-deno-');
    const args = ['run', ...denoPermissions(dir), 'entries/deno.ts', dir];
    const running = await spawnListening(denoBinary(), args, PACKAGE_DIR, remove);
    return { ...running, waiters: probe(running.url), protobufModules: protobufModules(running.url) };
  },
};

/** The compatibility date the wrangler settings of docs/runtimes.md use. */
export const COMPATIBILITY_DATE = '2026-07-01';

export const WORKERD_RUNTIME: Runtime = {
  id: 'workerd',
  label: `workerd ${require('miniflare/package.json').dependencies.workerd as string}`,
  entry: '`@mockpoint/core/workers`: one Durable Object, its storage as the store (miniflare)',
  async start() {
    const [{ build }, { Miniflare }] = await Promise.all([import('esbuild'), import('miniflare')]);
    const bundle = await build({
      entryPoints: [join(PACKAGE_DIR, 'entries', 'worker.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'silent',
    });
    const { dir, remove } = await tempDir('mockpoint-rt-workerd-');
    const mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]?.text ?? '',
      compatibilityDate: COMPATIBILITY_DATE,
      durableObjects: { MOCKPOINT: { className: 'MockpointObject', useSQLite: true } },
      durableObjectsPersist: join(dir, 'durable-objects'),
      host: '127.0.0.1',
      port: 0,
    });
    let url: string;
    try {
      url = (await mf.ready).origin;
    } catch (error) {
      await mf.dispose().catch(() => undefined);
      await remove();
      throw error;
    }
    return {
      url,
      waiters: probe(url),
      closeEndsConnections: true,
      async stop() {
        await mf.dispose();
        await remove();
      },
    };
  },
};

/** Every runtime of the contract, in the order of the docs/runtimes.md table. */
export const RUNTIMES: readonly Runtime[] = [NODE, BUN_RUNTIME, DENO_RUNTIME, WORKERD_RUNTIME];
