// Packs every published package under packages/ (those not marked private) with
// `pnpm pack`, which rewrites the workspace's `workspace:*` and `catalog:`
// versions into real ones, applies each package's publishConfig and runs its
// `prepack` (the type declarations: scripts/build-types.mjs). Run as a script (the root
// `tarballs`), it first installs and builds, as far as needed, only what the published
// packages build from (scripts/ready.mjs: not Bun, Deno, workerd nor the tests' tools).
//
// Usage: node scripts/pack-packages.mjs [destination]   (default: ./tarballs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACK_FILTERS, PACK_PACKAGES } from './build-state.mjs';
import { ready } from './ready.mjs';

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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dest = resolve(process.argv[2] ?? join(ROOT, 'tarballs'));
  const say = (message) => process.stderr.write(`tarballs: ${message}\n`);
  await ready({
    filters: PACK_FILTERS,
    packages: PACK_PACKAGES,
    what: 'the published packages',
    say,
    fail: (message, output = '') => {
      if (output) process.stderr.write(output.endsWith('\n') ? output : `${output}\n`);
      say(message);
      process.exit(1);
    },
  });
  say('building the type declarations and packing …');
  for (const file of packPublished(dest)) console.log(join(dest, file));
}
