// Packs every published package under packages/ (those not marked private) with
// `pnpm pack`, which rewrites the workspace's `workspace:*` and `catalog:`
// versions into real ones, applies each package's publishConfig and runs its
// `prepack` (the type declarations: scripts/build-types.mjs). Run as a script (the root
// `tarballs`), it packs in place when the workspace is installed and built for it; otherwise it
// installs and builds, in a temporary copy of the workspace, only what the published packages
// build from (scripts/ready.mjs: not Bun, Deno, workerd nor the tests' tools), and packs there:
// this workspace's node_modules and dist/ (and a daemon running from them) are never touched.
//
// Usage: node scripts/pack-packages.mjs [destination]   (default: ./tarballs)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuilt, isInstalled, PACK_FILTERS, PACK_PACKAGES } from './build-state.mjs';
import { phaseLine, ready } from './ready.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The pnpm of the repository's `packageManager` field, through npx. */
export const PNPM = ['-y', 'pnpm@10.34.9'];

/** The directories under packages/ whose package is published (not `"private": true`). */
export function publishedPackageDirs() {
  return readdirSync(join(ROOT, 'packages')).filter((dir) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8'));
    return manifest.private !== true;
  });
}

/** Packs the published packages into `dest`; returns the tarballs' file names. Throws with pnpm's output on failure. */
export function packPublished(dest) {
  mkdirSync(dest, { recursive: true });
  const filters = publishedPackageDirs().flatMap((dir) => ['--filter', `./packages/${dir}`]);
  const result = spawnSync('npx', [...PNPM, '-r', ...filters, 'pack', '--pack-destination', dest], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0) {
    throw new Error(`pnpm pack failed (are the packages built?):\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
  return readdirSync(dest).filter((file) => file.endsWith('.tgz'));
}

/** Set in the temporary copy's environment: pack there, as it is, whatever it needs. */
const IN_COPY = 'MOCKPOINT_PACK_IN_COPY';

/** The workspace's files as git sees them (tracked, and new ones not ignored): no node_modules, dist, data. */
function workspaceFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)));
}

/**
 * Packs from a temporary copy of the workspace's files, installed and built there: the
 * workspace's node_modules and dist/ stay as they are, so a daemon running from them keeps
 * running (a reinstall here had pnpm ask, without a terminal, to remove node_modules, or
 * removed it, and a running daemon then answered 500 ERR_MODULE_NOT_FOUND).
 */
function packFromCopy(dest, say) {
  const copy = mkdtempSync(join(tmpdir(), 'mockpoint-tarballs-'));
  try {
    say(`packing from a temporary copy (this workspace's node_modules and dist/ are left alone) …`);
    for (const file of workspaceFiles()) cpSync(join(ROOT, file), join(copy, file));
    const result = spawnSync(process.execPath, [join(copy, 'scripts', 'pack-packages.mjs'), dest], {
      cwd: copy,
      stdio: ['ignore', 'inherit', 'inherit'],
      // No terminal to confirm anything on: pnpm must not wait for one.
      env: { ...process.env, [IN_COPY]: '1', CI: 'true' },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dest = resolve(process.argv[2] ?? join(ROOT, 'tarballs'));
  const say = (message) => process.stderr.write(`tarballs: ${message}\n`);
  const readyHere = isInstalled(PACK_FILTERS) && PACK_PACKAGES.every((pkg) => isBuilt(pkg.dir));
  if (!readyHere && process.env[IN_COPY] !== '1') {
    packFromCopy(dest, say);
    process.exit(0);
  }
  const line = phaseLine('tarballs');
  await ready({
    filters: PACK_FILTERS,
    packages: PACK_PACKAGES,
    what: 'the published packages',
    line,
    fail: (message, output = '') => {
      line.end();
      if (output) process.stderr.write(output.endsWith('\n') ? output : `${output}\n`);
      say(message);
      process.exit(1);
    },
  });
  line.add('building the type declarations and packing …');
  line.end();
  for (const file of packPublished(dest)) console.log(join(dest, file));
}
