/**
 * Runs the repository's Vitest on a fixture project in a child process, the way
 * a user's `vitest run` would, and collects its output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const VITEST_BIN = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface VitestRun {
  code: number | null;
  output: string;
}

/** Starts `node vitest.mjs <args>` without colours; `output` accumulates stdout and stderr. */
export function startVitest(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [VITEST_BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

/** `vitest run --root <root> <args>`; kills the child after `timeoutMs`. */
export function runVitest(
  root: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  args: string[] = [],
): Promise<VitestRun> {
  const { child, output } = startVitest(['run', '--root', root, ...args], env);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`vitest on ${root} did not finish within ${timeoutMs} ms; output so far:\n${output()}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output() });
    });
  });
}
