// The published packages' type declarations: `tsc -p tsconfig.types.json` in each, in
// dependency order (core first: the others are checked against its built declarations,
// as a user gets them), into dist/types/ where their package.json's "types" point.
// `pnpm build` (and so `pnpm start`) builds JavaScript only: the daemon never reads a
// declaration. This runs where declarations are used: before packing
// (scripts/pack-packages.mjs, scripts/vitest5.mjs) and from the packages' `prepack`.
//
// Usage: node scripts/build-types.mjs [package directory …]   (default: every one below)
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDeclarations } from './bundle-declarations.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The packages whose declarations are published, in build order. */
const TYPED_PACKAGES = ['packages/core', 'packages/vitest-plugin', 'packages/server'];
/**
 * Packages bundled into a package's JavaScript (devDependencies, never installed by a user) whose
 * types its declarations name: their declarations are carried in dist/types/vendor/ (bundle-declarations.mjs).
 */
const BUNDLED_TYPES = { 'packages/core': ['zod'] };

/** Builds the declarations of `dirs` (relative to the root, in TYPED_PACKAGES' order); throws with tsc's output. */
function buildTypes(dirs = TYPED_PACKAGES) {
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  for (const dir of TYPED_PACKAGES.filter((d) => dirs.includes(d))) {
    const out = join(ROOT, dir, 'dist', 'types');
    rmSync(out, { recursive: true, force: true });
    const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, dir, 'tsconfig.types.json')], {
      cwd: join(ROOT, dir),
      encoding: 'utf8',
    });
    if (result.status !== 0 || !existsSync(join(out, 'index.d.ts'))) {
      throw new Error(`build-types: tsc failed in ${dir}:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
    }
    for (const name of BUNDLED_TYPES[dir] ?? []) bundleDeclarations(join(ROOT, dir), name);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).map((arg) => resolve(arg).slice(ROOT.length).replace(/\/$/, ''));
  try {
    buildTypes(args.length > 0 ? args : TYPED_PACKAGES);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
