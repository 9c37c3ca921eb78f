// `pnpm tarballs` on a workspace whose install does not cover the published packages (as
// `pnpm start` leaves it: the daemon's filter only), run without a terminal while a daemon runs
// from it: it packs from a temporary copy and leaves this workspace's node_modules and dist/ as
// they are. Before: it reinstalled here ("pnpm-lock.yaml changed", though it had not), which
// without a terminal could stop with ERR_PNPM_ABORTED_REMOVE_MODULES_DIR_NO_TTY, rebuilt dist/,
// and a running daemon answered 500 ERR_MODULE_NOT_FOUND.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { DAEMON_FILTER, INSTALL_STAMP, lockHash, ROOT } from './build-state.mjs';

const temps: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The built daemon, from this workspace's dist/, on a free port; resolves its URL. */
function startDaemon(): Promise<string> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'packages/server/dist/cli.js'), '--memory', '--port', '0', '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.once('close', (code) => reject(new Error(`the daemon exited (${code}): ${output}`)));
  });
}

describe('pnpm tarballs on a workspace installed for the daemon only', () => {
  it('packs from a temporary copy: node_modules and dist/ untouched, a running daemon still answers', async () => {
    const url = await startDaemon();
    const stampBefore = readFileSync(INSTALL_STAMP, 'utf8');
    const daemonScope = `${lockHash()}\n${DAEMON_FILTER}\n`;
    const modulesYaml = join(ROOT, 'node_modules', '.modules.yaml');
    const serverCli = join(ROOT, 'packages', 'server', 'dist', 'cli.js');
    const dest = mkdtempSync(join(tmpdir(), 'mockpoint-tarballs-test-'));
    temps.push(dest);
    writeFileSync(INSTALL_STAMP, daemonScope);
    try {
      const before = { modules: statSync(modulesYaml).mtimeMs, cli: statSync(serverCli).mtimeMs };
      const packed = await run(process.execPath, [join(ROOT, 'scripts', 'pack-packages.mjs'), dest]);
      expect(packed.code, packed.output).toBe(0);
      expect(readdirSync(dest).sort()).toEqual([
        'mockpoint-core-0.1.0.tgz',
        'mockpoint-server-0.1.0.tgz',
        'mockpoint-twins-0.1.0.tgz',
        'mockpoint-vitest-0.1.0.tgz',
      ]);
      expect(packed.output).toContain('packing from a temporary copy');
      expect(packed.output).not.toContain('pnpm-lock.yaml changed');
      expect({ modules: statSync(modulesYaml).mtimeMs, cli: statSync(serverCli).mtimeMs }).toEqual(before);
      expect(readFileSync(INSTALL_STAMP, 'utf8')).toBe(daemonScope);
    } finally {
      writeFileSync(INSTALL_STAMP, stampBefore);
    }
    // A command the daemon loads only when asked (the MCP route's SDK chunk), after the packing.
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const mcp = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBeLessThan(500);
  }, 600_000);
});
