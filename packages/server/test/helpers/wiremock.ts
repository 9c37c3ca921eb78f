/**
 * A real WireMock (the jar the `wiremock` npm package ships, on the machine's
 * Java) on a 127.0.0.1 port it picks itself and prints, with a root directory of the test's own
 * (`mappings/`, `__files/`): started once per test file (a JVM start is slow),
 * ready when its admin API answers (bounded wait), stopped by PID.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';

/** A running WireMock. */
export interface TestWireMock {
  url: string;
  /** Its `--root-dir`: `mappings/` and `__files/` (the recorder writes there). */
  root: string;
  /** POST/GET/DELETE on its admin API (`/__admin/…`), JSON in (a string as it is) and out. */
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Stops it (SIGKILL by PID) and removes its directory. */
  dispose(): Promise<void>;
}

/** The WireMock jar of the `wiremock` npm package. */
function jarPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('wiremock/package.json');
  const { version } = require('wiremock/package.json') as { version: string };
  return join(dirname(pkg), 'build', `wiremock-standalone-${version}.jar`);
}

/**
 * Waits up to `ms` for the port WireMock prints once it listens (`port:  41111`), then for its
 * admin API on that port; rejects with its output when it exits first or stays silent.
 */
async function ready(child: ChildProcess, output: () => string, ms: number): Promise<string> {
  let url: string | undefined;
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const port = /^port:\s+(\d+)\s*$/m.exec(output())?.[1];
      if (port === undefined) throw new Error(`WireMock did not say its port within ${ms} ms: ${output()}`);
      url = `http://127.0.0.1:${port}`;
      const ok = await fetch(`${url}/__admin/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (!ok) throw new Error(`WireMock's admin API did not answer within ${ms} ms: ${output()}`);
    },
    { timeout: ms, interval: 250 },
  );
  if (child.exitCode !== null || child.signalCode !== null || url === undefined)
    throw new Error(`WireMock exited (code ${child.exitCode}): ${output()}`);
  return url;
}

export async function startWireMock(): Promise<TestWireMock> {
  const root = await mkdtemp(join(tmpdir(), 'mockpoint-wiremock-'));
  await mkdir(join(root, 'mappings'));
  await mkdir(join(root, '__files'));
  const child = spawn(
    'java',
    [
      '-Xms64m',
      '-XX:TieredStopAtLevel=1',
      '-jar',
      jarPath(),
      // Port 0: WireMock takes a free port itself and prints it, so no other process can take a
      // port chosen beforehand (two files once shared one, and one JVM answered for both).
      '--port',
      '0',
      '--bind-address',
      '127.0.0.1',
      '--root-dir',
      root,
      '--disable-banner',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk.slice(0, 4096);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk.slice(0, 4096);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined)
      process.kill(child.pid, 'SIGKILL');
    await exited;
    await rm(root, { recursive: true, force: true });
  };
  let url: string;
  try {
    url = await ready(child, () => output, 90_000);
  } catch (error) {
    await dispose();
    throw error;
  }
  return {
    url,
    root,
    async admin(method, path, body) {
      const response = await fetch(`${url}/__admin${path}`, {
        method,
        ...(body === undefined
          ? {}
          : {
              body: typeof body === 'string' ? body : JSON.stringify(body),
              headers: { 'content-type': 'application/json' },
            }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`WireMock ${method} ${path}: ${response.status} ${text}`);
      return text === '' ? undefined : JSON.parse(text);
    },
    dispose,
  };
}
