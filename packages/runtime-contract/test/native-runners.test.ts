/**
 * `createMockServer()` under the runtimes' own test runners: `bun test` and
 * `deno test` run the files in ../native/ (real binaries from the npm registry).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bunBinary, denoBinary, PACKAGE_DIR } from '../src/runtimes.js';

/** Runs a command to completion (bounded: killed after 90 s) and returns its exit code and output. */
function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: PACKAGE_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.concurrent('createMockServer() under other runtimes’ test runners', () => {
  it('bun test', async () => {
    const { code, output } = await run(bunBinary(), ['test', './native/create-mock-server.bun.ts']);
    expect(output).toMatch(/\b3 pass\b/);
    expect(output).toMatch(/\b0 fail\b/);
    expect(code, output).toBe(0);
  });

  it('deno test', async () => {
    // --no-check: tsc type-checks the packages; Deno's checker would try to migrate
    // the pnpm workspace settings into package.json. The permissions are the ones
    // docs/runtimes.md documents for LevelDB (writing the temp dirs createMockServer makes).
    const args = ['test', '--no-check', '--allow-net', '--allow-read', '--allow-write', '--allow-env', '--allow-ffi'];
    const { code, output } = await run(denoBinary(), [...args, 'native/create-mock-server.deno.ts']);
    expect(output).toMatch(/ok \| 3 passed \| 0 failed/);
    expect(code, output).toBe(0);
  });
});
