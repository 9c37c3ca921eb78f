// `pnpm start` (the README's `npx -y pnpm@… start`): on a clone that is installed
// and built it installs and builds nothing and prints at most 5 lines before the
// daemon's listening line; a Ctrl-C (SIGINT to the whole process group, as a
// terminal sends it) ends every layer with exit 0. Timing is measured by
// `pnpm bench` (bench/start.mjs), not here.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { inputHash, isBuilt, ROOT, writeStamp } from './build-state.mjs';

const LISTENING = /^mockpoint \S+ listening on (http:\/\/\S+) /m;
const temps: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The environment of a terminal: without what npm, pnpm or npx put there for the test runner. */
function terminalEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(?:npm_|pnpm_|INIT_CWD$|MOCKPOINT_PORT$|VITEST)/i.test(key)),
  );
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockpoint-start-'));
  temps.push(dir);
  return dir;
}

describe('the README start command on an installed, built clone', () => {
  it('prints at most 5 lines before the listening line, and Ctrl-C exits 0', async () => {
    for (const dir of ['packages/core', 'packages/web', 'packages/server']) {
      if (!isBuilt(join(ROOT, dir))) throw new Error(`${dir} changed since its last build: run pnpm build first`);
    }
    const dataDir = tempDir();
    // Its own process group, like a shell's foreground job.
    const child = spawn(
      'npx',
      ['-y', 'pnpm@10.34.9', 'start', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir],
      {
        cwd: ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: terminalEnv(),
      },
    );
    children.push(child);
    let output = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal })),
    );
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = LISTENING.exec(output);
        if (match) resolve(match[1] as string);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      exited.then(({ code, signal }) =>
        reject(new Error(`start exited (${code ?? signal}) before listening:\n${output}`)),
      );
      setTimeout(() => reject(new Error(`no listening line after 60 s:\n${output}`)), 60_000);
    });
    const before = output.slice(0, output.search(LISTENING)).split('\n').slice(0, -1);
    expect(before.length, JSON.stringify(before)).toBeLessThanOrEqual(5);
    expect(output).not.toMatch(/^start: (?:installing|building|pnpm-lock)/m);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    process.kill(-(child.pid as number), 'SIGINT'); // what Ctrl-C in a terminal does
    expect(await exited).toEqual({ code: 0, signal: null });
    // The whole group gets SIGINT, and npx/pnpm also relay it to their child as
    // SIGTERM: under load that relay can reach the daemon first. Either way the
    // daemon must shut down gracefully (the message) and exit 0 (above).
    expect(output).toMatch(/(?:SIGINT|SIGTERM) received, shutting down/);
  }, 90_000);
});

describe('the README start command after a pull that changed the daemon', () => {
  // Before: 6 lines (pnpm's 4, `start: building @mockpoint/server …`, `start: built; …`).
  it('rebuilds on one line with the command to run from any folder: at most 5 lines before listening', async () => {
    const stamp = join(ROOT, 'packages', 'server', 'dist', '.build-stamp');
    rmSync(stamp); // as a source change does: the server's dist/ is stale; its build writes the stamp again
    const dataDir = tempDir();
    const child = spawn('npx', ['-y', 'pnpm@10.34.9', 'start', '--port', '0', '--host', '127.0.0.1', '--memory'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...terminalEnv(), MOCKPOINT_DATA_DIR: dataDir },
    });
    children.push(child);
    let output = '';
    const exited = new Promise<{ code: number | null }>((resolve) => child.once('close', (code) => resolve({ code })));
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (LISTENING.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      exited.then(({ code }) => reject(new Error(`start exited (${code}) before listening:\n${output}`)));
    });
    const before = output.slice(0, output.search(LISTENING)).split('\n').slice(0, -1);
    expect(before.length, JSON.stringify(before)).toBeLessThanOrEqual(5);
    expect(output).toMatch(
      /^start: building @mockpoint\/server … built in \d+ s; the mockpoint command, from any folder: node \S+mockpoint\.js$/m,
    );
    expect(isBuilt(join(ROOT, 'packages', 'server'))).toBe(true);
    process.kill(-(child.pid as number), 'SIGINT');
    expect(await exited).toEqual({ code: 0 });
  }, 240_000);
});

describe('build stamps', () => {
  function workspace(): { root: string; a: string; b: string } {
    const root = tempDir();
    writeFileSync(join(root, 'tsconfig.base.json'), '{}');
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n');
    const a = join(root, 'packages', 'a');
    const b = join(root, 'packages', 'b');
    for (const dir of [a, b]) mkdirSync(join(dir, 'src'), { recursive: true });
    for (const dir of [a, b]) mkdirSync(join(dir, 'dist'));
    writeFileSync(join(a, 'package.json'), '{"name":"a"}');
    writeFileSync(join(b, 'package.json'), '{"name":"b","dependencies":{"a":"workspace:*"}}');
    writeFileSync(join(a, 'src', 'index.ts'), 'export const a = 1;\n');
    writeFileSync(join(a, 'src', 'index.test.ts'), 'test\n');
    writeFileSync(join(a, 'README.md'), 'docs\n');
    writeFileSync(join(b, 'src', 'index.ts'), 'export const b = 2;\n');
    return { root, a, b };
  }

  it('a package is built once its build wrote the stamp, until a source it builds from changes', () => {
    const { root, a, b } = workspace();
    expect(isBuilt(a, root)).toBe(false); // never built
    writeStamp(a, root);
    writeStamp(b, root);
    expect(isBuilt(a, root) && isBuilt(b, root)).toBe(true);

    // Tests, docs and tsc -b's output are not build inputs.
    writeFileSync(join(a, 'src', 'index.test.ts'), 'test changed\n');
    writeFileSync(join(a, 'README.md'), 'docs changed\n');
    mkdirSync(join(a, '.tsbuild'));
    writeFileSync(join(a, '.tsbuild', 'tsconfig.tsbuildinfo'), '{}');
    expect(isBuilt(a, root) && isBuilt(b, root)).toBe(true);

    // A source of a: a and everything built against it are stale.
    writeFileSync(join(a, 'src', 'index.ts'), 'export const a = 2;\n');
    expect([isBuilt(a, root), isBuilt(b, root)]).toEqual([false, false]);
    writeStamp(a, root);
    expect([isBuilt(a, root), isBuilt(b, root)]).toEqual([true, false]);
    writeStamp(b, root);

    // A source of b only: a stays built.
    writeFileSync(join(b, 'src', 'extra.ts'), 'export {};\n');
    expect([isBuilt(a, root), isBuilt(b, root)]).toEqual([true, false]);
    writeStamp(b, root);

    // The lockfile (a dependency upgrade) makes every package stale.
    const hash = inputHash(a, root);
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n# changed\n');
    expect(inputHash(a, root)).not.toBe(hash);
    expect([isBuilt(a, root), isBuilt(b, root)]).toEqual([false, false]);
  });
});

describe('the CLI from a clone: pnpm mockpoint <command>', () => {
  const run = (args: string[], cwd = ROOT) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('npx', ['-y', 'pnpm@10.34.9', '-s', 'mockpoint', ...args], {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: terminalEnv(),
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('runs the built mockpoint with the arguments given, its output alone on stdout with -s', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'packages', 'server', 'package.json'), 'utf8')) as {
      version: string;
    };
    const version = await run(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toBe(`${pkg.version}\n`);
    const help = await run(['tail', '--help']);
    expect(help.stdout).toMatch(/^Usage: mockpoint tail \[name\] \[options\]\n/);
  }, 240_000); // two npx + pnpm start-ups: over 30 s each on the shared 2-core machine

  it("in the directory it was called from: a relative path is the caller's, not the clone root's", async () => {
    // A folder inside the clone without a package.json (pnpm finds the root's script from there).
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp', 'mockpoint-cwd-'));
    temps.push(dir);
    writeFileSync(join(dir, 'here.yaml'), 'version: 1\nendpoints:\n  - name: here\n    data: { from: caller }\n');
    const result = await run(['validate', './here.yaml'], dir);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/here\.yaml: ok/);
  }, 120_000);
});
