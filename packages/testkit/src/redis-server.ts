/**
 * A real `redis-server` (Debian package) started on a unix socket in a
 * fresh temp directory (no port races with other tests), with the durable
 * configuration mockpoint documents (`appendonly yes`, `appendfsync always`).
 * Stopped by PID; restartable on the same directory to check what survived.
 *
 * Shared by core's store tests and the daemon tests.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running (or stopped) redis-server of a test. */
export interface TestRedis {
  /** The unix socket path (a valid `MOCKPOINT_REDIS_URL`). */
  socket: string;
  dir: string;
  /** Whether the process is running. */
  readonly running: boolean;
  /** Stops it (SIGTERM, or SIGKILL to simulate a crash) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Pauses (SIGSTOP) or resumes (SIGCONT) it: a Redis that accepts but never answers. */
  pause(): void;
  resume(): void;
  /** Starts it again on the same directory and socket. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

function launch(dir: string, socket: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not get ready within 20 s:\n${output}`));
    }, 20_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (is the Debian package installed?): ${error.message}`));
    });
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    };
    child.once('exit', onExit);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (ready) return;
      output += chunk;
      if (output.includes('ready to accept connections')) {
        ready = true;
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(child);
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
  });
}

/** Starts a durable redis-server on a unix socket in a fresh temp directory. */
export async function startTestRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-redis-'));
  const socket = join(dir, 'redis.sock');
  let child: ChildProcess | undefined = await launch(dir, socket);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    if (signal !== 'SIGKILL') running.kill('SIGCONT');
    running.kill(signal);
    await exited;
  };
  return {
    socket,
    dir,
    get running() {
      return child !== undefined;
    },
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async start() {
      if (child === undefined) child = await launch(dir, socket);
    },
    async dispose() {
      await stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
