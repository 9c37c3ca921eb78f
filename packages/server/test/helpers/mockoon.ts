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
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (log.includes('Server started')) done(resolve);
    };
    const exited = () => done(() => reject(new Error(`the Mockoon CLI exited: ${log}`)));
    const timer = setTimeout(
      () => done(() => stop().then(() => reject(new Error(`the Mockoon CLI did not start: ${log}`)))),
      15_000,
    );
    const done = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', exited);
      settle();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', exited);
    check();
  });
  return { url: `http://127.0.0.1:${port}`, log: () => log, stop };
}
