/**
 * The Mockoon CLI (`@mockoon/cli`, a real process on 127.0.0.1) serving one environment file, for
 * the tests that compare mockpoint with Mockoon side by side (import and export).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { makeTempDir } from './daemon.js';
import { freePort } from './free-port.js';

/** A running Mockoon CLI: its URL, what it printed, and a stop that kills it by its PID. */
export interface Mockoon {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/** Starts the Mockoon CLI on `environment` (at most 15 s to say "Server started"; killed if it does not). */
export async function startMockoon(environment: string): Promise<Mockoon> {
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve('@mockoon/cli/bin/run.js');
  let log = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, 'start', '--data', environment, '--port', String(port), '--hostname', '127.0.0.1', '--disable-log-to-file'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: await makeTempDir('mockoon-home-') },
    },
  );
  const collect = (chunk: Buffer) => {
    log += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  for (let i = 0; i < 300 && !log.includes('Server started'); i++) {
    if (child.exitCode !== null) throw new Error(`the Mockoon CLI exited: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!log.includes('Server started')) {
    await stop();
    throw new Error(`the Mockoon CLI did not start: ${log}`);
  }
  return { url: `http://127.0.0.1:${port}`, log: () => log, stop };
}
