// Packs every published package under packages/ (those not marked private) with
// `pnpm pack`, which rewrites the workspace's `workspace:*` and `catalog:`
// versions into real ones and applies each package's publishConfig. Needs the
// packages built (the root `tarballs` script installs and builds first).
//
// Usage: node scripts/pack-packages.mjs [destination]   (default: ./tarballs)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  for (const file of packPublished(dest)) console.log(join(dest, file));
}
