/**
 * The packages as a user gets them: `pnpm pack` tarballs, installed with the real
 * npm (or pnpm) into empty directories with a fresh HOME and package cache, so
 * nothing from this clone or this machine's caches can make an install work.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The pnpm the README uses. */
export const PNPM = ['-y', 'pnpm@10.34.9'];

/** How a command ended, with its output. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed past `timeoutMs`); never throws on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Throws with the command's output unless it exited 0. */
export function expectSuccess(what: string, result: RunResult): RunResult {
  if (result.code !== 0) {
    throw new Error(
      `${what} failed (code ${result.code}, signal ${result.signal})\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** Packs the publishable packages (as the READMEs say) into `dest`; returns the tarball paths by package directory. */
export async function packTarballs(
  dest: string,
): Promise<{ core: string; server: string; vitest: string; twins: string }> {
  expectSuccess(
    'pnpm pack',
    await run('npx', [...PNPM, '-r', '--filter', './packages/*', 'pack', '--pack-destination', dest], {
      cwd: REPO_ROOT,
    }),
  );
  const find = (name: string) => {
    const file = readdirSync(dest).find((f) => f.startsWith(`mockpoint-${name}-`) && f.endsWith('.tgz'));
    if (!file) throw new Error(`pnpm pack made no mockpoint-${name}-*.tgz in ${dest}`);
    return file;
  };
  return { core: find('core'), server: find('server'), vitest: find('vitest'), twins: find('twins') };
}

/**
 * An environment with a fresh HOME and npm cache under `home` (no user .npmrc, no
 * cached packages: everything comes from the registry); PATH and the machine's
 * proxy and CA settings are kept, nothing else. Give npm an
 * install prefix with `--prefix`, not `npm_config_prefix`: the latter also moves
 * the global npmrc (and this machine's CA settings in it).
 */
export function freshEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  // The machine's way out to the registry (proxy, extra CA certificates) is kept.
  const network = Object.entries(process.env).filter(
    ([key, value]) => value !== undefined && /proxy|cert|_ca\b|ca_|ssl/i.test(key) && !/^npm_/i.test(key),
  );
  return {
    ...(Object.fromEntries(network) as Record<string, string>),
    PATH: process.env.PATH ?? '',
    HOME: home,
    npm_config_cache: join(home, '.npm'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

/** Disk usage of a directory tree in bytes (like `du -s`: allocated blocks, links not followed). */
export function diskUsage(path: string): number {
  const stat = lstatSync(path);
  let total = stat.blocks * 512;
  if (stat.isDirectory()) for (const entry of readdirSync(path)) total += diskUsage(join(path, entry));
  return total;
}

/**
 * `env` with a `pnpm` command on PATH that runs the README's pnpm (`npx -y pnpm@…`),
 * so README lines that say `pnpm …` run as written. The shim lives under HOME.
 */
export async function withPnpmOnPath(env: Record<string, string>): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(env.HOME ?? tmpdir(), 'bin-'));
  const shim = join(dir, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec npx ${PNPM.join(' ')} "$@"\n`);
  chmodSync(shim, 0o755);
  return { ...env, PATH: `${dir}:${env.PATH ?? ''}` };
}
