/**
 * Runs the built `mockpoint` CLI (`dist/cli.js`) as a real child process: in a
 * fresh temp working directory, on `--port 0`, ready when it prints its start-up
 * line (never a blind sleep). Every process and temp dir is tracked so a test
 * file can end them all with {@link killAll} and {@link removeTempDirs}.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';

/** The built CLI the tests run. */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * The runtime the daemon runs on: `node` (this process's binary), or `bun`
 * (`MOCKPOINT_TEST_RUNTIME=bun`, the `server-bun` project: the `bun` package's
 * binary, so the daemon serves with `Bun.serve`).
 */
export const TEST_RUNTIME: 'node' | 'bun' = process.env.MOCKPOINT_TEST_RUNTIME === 'bun' ? 'bun' : 'node';

/**
 * True when the daemon runs on Bun: a test that cannot pass there is marked
 * `it.skipIf(ON_BUN)` with its reason, and listed in docs/runtimes.md.
 */
export const ON_BUN = TEST_RUNTIME === 'bun';

/** The binary that runs `dist/cli.js`: Node's, or the `bun` package's (a devDependency of runtime-contract). */
function runtimeBinary(runtime: 'node' | 'bun' = TEST_RUNTIME): string {
  if (runtime === 'node') return process.execPath;
  // The runtime contract's devDependency: not the server's, which `pnpm start` would install (about 100 MB).
  const contract = fileURLToPath(new URL('../../../runtime-contract/package.json', import.meta.url));
  const bun = join(dirname(createRequire(contract).resolve('bun/package.json')), 'bin', 'bun.exe');
  if (!existsSync(bun)) throw new Error(`${bun} is missing: run \`pnpm install\` (it installs bun)`);
  return bun;
}

/**
 * `mockpoint <version> listening on <url>[ and <url>] (store: <store>[; …])`, the daemon's
 * readiness signal; the URL captured is the first one.
 */
export const START_LINE =
  /^mockpoint (\S+) listening on (http:\/\/(\S+):(\d+))((?: and http:\/\/\S+)*) \(store: ([^;]*)(?:; (.*))?\)$/m;

/** How long a daemon may take to print its start-up line, or a process to exit. */
const DEADLINE_MS = 15_000;

const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** Throws a clear error when the CLI has not been built. */
export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run \`pnpm build\` first (these tests spawn the built mockpoint CLI)`);
  }
}

/** A fresh temp directory, removed by {@link removeTempDirs}. */
export async function makeTempDir(prefix = 'mockpoint-daemon-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** How a process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options for {@link spawnCli}, {@link runCli} and {@link startDaemon}. */
export interface CliOptions {
  /** Arguments after `cli.js`. {@link startDaemon} adds `--port 0 --host 127.0.0.1` unless `port`/`host` are given. */
  args?: string[];
  /** The child's whole environment besides `PATH` (nothing else is inherited, so no stray MOCKPOINT_PORT or DSN). */
  env?: Record<string, string>;
  /** Working directory. @default a fresh temp directory */
  cwd?: string;
  /**
   * Leave the listening address to the daemon's own default (the loopback addresses)
   * instead of adding `--host 127.0.0.1`. @default false
   */
  defaultHost?: boolean;
  /** Arguments for `node` itself, e.g. `['--import', hook]`. */
  nodeArgs?: string[];
  /** Run this executable (e.g. an installed `mockpoint` bin) instead of `node dist/cli.js`. */
  bin?: string;
  /** How long it may take to start or to exit (an emulated CPU is slow). @default 15000 */
  deadlineMs?: number;
  /** Give the child a standard input the test writes (`child.stdin`). @default ignored */
  stdin?: 'pipe';
  /** Run `dist/cli.js` on this runtime, whatever the project's (a test comparing both). @default {@link TEST_RUNTIME} */
  runtime?: 'node' | 'bun';
}

/** A spawned CLI process with its collected output. */
export interface CliProcess {
  child: ChildProcess;
  cwd: string;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves when the process has exited and its output streams are closed. */
  exited: Promise<ExitInfo>;
}

/** A daemon that printed its start-up line. */
export interface Daemon extends CliProcess {
  /** Base URL from the start-up line, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Every URL of the start-up line (the loopback default listens on two). */
  urls: string[];
  version: string;
  /** The `(store: …)` part of the start-up line, without the notes after it. */
  store: string;
  /** The notes after the store, e.g. `env file: none`, `admin token required for writes`. */
  notes: string[];
  startLine: string;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<ExitInfo>;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what()} (after ${ms} ms)`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Spawns `node dist/cli.js ...args` (or `bun`, see {@link TEST_RUNTIME}) and collects its output. */
export async function spawnCli(options: CliOptions = {}): Promise<CliProcess> {
  if (!options.bin) assertBuilt();
  const cwd = options.cwd ?? (await makeTempDir());
  const runtime = options.runtime ?? TEST_RUNTIME;
  if (options.nodeArgs !== undefined && runtime !== 'node') {
    throw new Error(`nodeArgs (${options.nodeArgs.join(' ')}) need Node: this test cannot run on ${runtime}`);
  }
  const [command, argv] = options.bin
    ? [options.bin, options.args ?? []]
    : [runtimeBinary(runtime), [...(options.nodeArgs ?? []), CLI_PATH, ...(options.args ?? [])]];
  const child = spawn(command, argv, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<ExitInfo>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    child,
    cwd,
    exited,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

/** Runs the CLI to completion (e.g. `--help`, a bad setting); killed if it outlives the deadline. */
export async function runCli(options: CliOptions = {}): Promise<ExitInfo & { stdout: string; stderr: string }> {
  const proc = await spawnCli(options);
  const exit = await withDeadline(proc.exited, options.deadlineMs ?? DEADLINE_MS, () => {
    proc.child.kill('SIGKILL');
    return `mockpoint ${options.args?.join(' ') ?? ''} did not exit; stdout: ${proc.stdout} stderr: ${proc.stderr}`;
  });
  return { ...exit, stdout: proc.stdout, stderr: proc.stderr };
}

/**
 * Starts the daemon and resolves once it printed its start-up line; rejects (with
 * its output) when it exits first or stays silent past the deadline.
 */
export async function startDaemon(options: CliOptions = {}): Promise<Daemon> {
  const args = options.args ?? [];
  const defaults = [
    ...(args.some((a) => a.startsWith('--port')) || options.env?.MOCKPOINT_PORT !== undefined ? [] : ['--port', '0']),
    ...(args.some((a) => a === '--host' || a.startsWith('--host=')) || options.defaultHost
      ? []
      : ['--host', '127.0.0.1']),
  ];
  const proc = await spawnCli({ ...options, args: [...defaults, ...args] });
  const ready = new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const match = START_LINE.exec(proc.stdout);
      if (match) {
        proc.child.stdout?.off('data', check);
        resolve(match);
      }
    };
    proc.child.stdout?.on('data', check);
    proc.exited.then((exit) =>
      reject(
        new Error(
          `mockpoint exited (code ${exit.code}, signal ${exit.signal}) before it was ready; stdout: ${proc.stdout} stderr: ${proc.stderr}`,
        ),
      ),
    );
  });
  let match: RegExpExecArray;
  try {
    match = await withDeadline(
      ready,
      options.deadlineMs ?? DEADLINE_MS,
      () => `mockpoint printed no start-up line; stdout: ${proc.stdout} stderr: ${proc.stderr}`,
    );
  } catch (error) {
    proc.child.kill('SIGKILL');
    await proc.exited;
    throw error;
  }
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
    return withDeadline(
      proc.exited,
      options.deadlineMs ?? DEADLINE_MS,
      () => `mockpoint did not exit on ${signal}; stdout: ${proc.stdout}`,
    );
  };
  return Object.assign(proc, {
    version: match[1] as string,
    url: match[2] as string,
    port: Number(match[4]),
    urls: [match[2] as string, ...(match[5] as string).split(' and ').filter(Boolean)],
    store: match[6] as string,
    notes: match[7]?.split('; ') ?? [],
    startLine: match[0],
    stop,
  });
}

/** SIGKILLs every process still running and waits for each to exit. */
export async function killAll(): Promise<void> {
  const waiting = [...live].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  live.clear();
  await Promise.all(waiting);
}

/** Removes every temp directory made by {@link makeTempDir}. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all([...tempDirs].map((dir) => rm(dir, { recursive: true, force: true })));
  tempDirs.clear();
}

/**
 * The hooks of a test file that starts the CLI: the build is checked before the first test, the
 * processes it started are SIGKILLed after each test (`kill: 'each'`) or once after the last
 * (`kill: 'file'`, for a daemon the file's tests share), and its temp directories are removed
 * after the processes are gone. Call it once, at the top level of the file.
 */
export function useDaemons(options: { kill?: 'each' | 'file' } = {}): void {
  beforeAll(() => assertBuilt());
  // After-hooks run last-registered first: the processes end before their directories go.
  afterAll(() => removeTempDirs());
  if (options.kill === 'file') afterAll(() => killAll());
  else afterEach(() => killAll());
}

/**
 * One daemon the file's tests share, for tests that do not interfere (each uses names of its own,
 * or leaves what it found): started on the first call of the getter, left running by
 * {@link killAll} after each test, SIGKILLed after the file. Call it after {@link useDaemons}, so
 * that it ends before the temp directories are removed. With `clean`, a test that used it is
 * followed by `DELETE /api/endpoints` (every name, the journal, hosts and the clock back as a fresh
 * start has them), for tests that hold the same names (e.g. one gRPC service); `token` is the
 * daemon's admin token, when it has one. `options` may be a function, called at the start, for
 * options known only once a `beforeAll` ran or made then (e.g. the file's redis-server, a temp
 * data directory).
 */
export function sharedDaemon(
  options: CliOptions | (() => CliOptions | Promise<CliOptions>) = {},
  after: { clean?: boolean; token?: string } = {},
): () => Promise<Daemon> {
  let started: Promise<Daemon> | undefined;
  let used = false;
  if (after.clean) {
    afterEach(async () => {
      if (!used || started === undefined) return;
      used = false;
      const headers: Record<string, string> = after.token ? { authorization: `Bearer ${after.token}` } : {};
      const response = await fetch(`${(await started).url}/api/endpoints`, { method: 'DELETE', headers });
      if (response.status !== 204) throw new Error(`DELETE /api/endpoints answered ${response.status}`);
    });
  }
  afterAll(async () => {
    const daemon = await started?.catch(() => undefined);
    started = undefined;
    await daemon?.stop('SIGKILL');
  });
  return () => {
    used = true;
    started ??= Promise.resolve(typeof options === 'function' ? options() : options)
      .then(startDaemon)
      .then((daemon) => {
        live.delete(daemon.child);
        return daemon;
      });
    return started;
  };
}

/** A JSON request against a daemon; resolves the status and the parsed body (`undefined` when empty). */
export async function requestJson(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** `PUT /api/endpoint/add`. */
export function addEndpoint(
  baseUrl: string,
  record: { name: string; data: unknown; statusCode?: number; delay?: number },
): Promise<{ status: number; body: unknown }> {
  return requestJson(`${baseUrl}/api/endpoint/add`, { method: 'PUT', body: record });
}

/**
 * Resolves once the daemons at `urls` hold `count` journal long-polls between them
 * (`longPolls` of `/api/health`): the event a test waits on before sending what wakes them.
 */
export async function longPollsHeld(urls: string[], count: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const healths = await Promise.all(urls.map((url) => requestJson(`${url}/api/health`)));
      expect(healths.reduce((sum, health) => sum + (health.body as { longPolls: number }).longPolls, 0)).toBe(count);
    },
    { timeout: 10_000, interval: 20 },
  );
}
