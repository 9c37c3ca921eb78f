// Whether a package's dist/ matches its sources: a hash of everything its build
// reads (its own files besides tests and docs, the shared tsconfig, the lockfile,
// and the same for the workspace packages it builds against), written by its build
// as dist/.build-stamp. `start` rebuilds only the packages whose stamp is stale.
//
// The install stamp (node_modules/.mockpoint-install-stamp) is the hash of the
// pnpm-lock.yaml last installed and what that install covered: `all` (written by the root
// postinstall, after a whole install) or the `--filter`s of scripts/ready.mjs's install.
//
// Usage: node ../../scripts/build-state.mjs stamp   (end of a package's build, from its directory)
//        node scripts/build-state.mjs installed      (root postinstall)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const INSTALL_STAMP = join(ROOT, 'node_modules', '.mockpoint-install-stamp');
const STAMP = join('dist', '.build-stamp');

/**
 * What `pnpm start` installs: the daemon and the workspace packages it depends on
 * (pnpm's `<package>...`), with their own dependencies; pnpm adds the root's.
 */
export const DAEMON_FILTER = '@mockpoint/server...';

/** What the daemon runs from, in build order. */
export const DAEMON_PACKAGES = [
  { name: '@mockpoint/core', dir: join(ROOT, 'packages', 'core') },
  { name: '@mockpoint/web', dir: join(ROOT, 'packages', 'web') },
  // The providers' twins (their flows are code, built): an optional peer the daemon imports on a first twin.
  { name: '@mockpoint/twins', dir: join(ROOT, 'packages', 'twins') },
  { name: '@mockpoint/server', dir: join(ROOT, 'packages', 'server') },
];

/**
 * What `pnpm tarballs` installs: the published packages (the daemon and the Vitest plugin)
 * with the workspace packages they build from; not the runtime contract's runtimes.
 */
export const PACK_FILTERS = [DAEMON_FILTER, '@mockpoint/vitest...'];

/** What the published packages are built from, in build order. */
export const PACK_PACKAGES = [
  ...DAEMON_PACKAGES,
  { name: '@mockpoint/vitest', dir: join(ROOT, 'packages', 'vitest-plugin') },
];
const SHARED_INPUTS = ['tsconfig.base.json', 'pnpm-lock.yaml'];
// Not build inputs: tests, docs, outputs and caches (dot-directories such as tsc -b's .tsbuild).
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test', 'data', 'coverage', 'test-artifacts']);
const SKIPPED_FILE = /(?:\.test\.tsx?|\.test-d\.ts|\.tsbuildinfo|^README\.md|^vitest\.config\.ts|^\..*)$/;

function inputFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : inputFiles(path);
      return entry.isFile() && !SKIPPED_FILE.test(entry.name) ? [path] : [];
    })
    .sort();
}

/** The workspace packages (directories under packages/) that `dir` depends on. */
function workspaceDeps(dir, root) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const names = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })
    .filter(([, spec]) => String(spec).startsWith('workspace:'))
    .map(([name]) => name);
  const packagesDir = join(root, 'packages');
  return readdirSync(packagesDir)
    .map((entry) => join(packagesDir, entry))
    .filter((candidate) => {
      try {
        return names.includes(JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')).name);
      } catch {
        return false;
      }
    });
}

/** The hash of everything the build of the package in `dir` reads. */
export function inputHash(dir, root = ROOT) {
  const hash = createHash('sha256');
  const add = (file) =>
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  for (const file of SHARED_INPUTS) add(join(root, file));
  const seen = new Set();
  const visit = (packageDir) => {
    if (seen.has(packageDir)) return;
    seen.add(packageDir);
    for (const file of inputFiles(packageDir)) add(file);
    for (const dep of workspaceDeps(packageDir, root)) visit(dep);
  };
  visit(resolve(dir));
  return hash.digest('hex');
}

/** True when `dir`'s dist was built from its current sources. */
export function isBuilt(dir, root = ROOT) {
  try {
    return readFileSync(join(dir, STAMP), 'utf8').trim() === inputHash(dir, root);
  } catch {
    return false;
  }
}

export function writeStamp(dir, root = ROOT) {
  writeFileSync(join(dir, STAMP), `${inputHash(dir, root)}\n`);
}

/** The hash of the lockfile as it is now. */
export function lockHash(root = ROOT) {
  return createHash('sha256')
    .update(readFileSync(join(root, 'pnpm-lock.yaml')))
    .digest('hex');
}

/**
 * True when node_modules was installed from the current lockfile, by a whole install or one
 * that covered every one of `filters` (a stamp without a scope: the daemon's only).
 */
export function isInstalled(filters = [DAEMON_FILTER]) {
  return installGap(filters) === undefined;
}

/**
 * Why node_modules does not serve `filters` (for the "installing … (why)" line), or `undefined`
 * when it does: `first run`, `not installed by pnpm start`, `pnpm-lock.yaml changed`, or
 * `the last install covered only …`.
 */
export function installGap(filters = [DAEMON_FILTER]) {
  if (!existsSync(INSTALL_STAMP)) {
    return existsSync(join(ROOT, 'node_modules')) ? 'not installed by pnpm start' : 'first run';
  }
  const [hash, scope = DAEMON_FILTER] = readFileSync(INSTALL_STAMP, 'utf8').trim().split('\n');
  if (hash !== lockHash()) return 'pnpm-lock.yaml changed';
  const covered = scope.split(' ');
  if (covered.includes('all') || filters.every((filter) => covered.includes(filter))) return undefined;
  return `the last install covered only ${covered.join(', ')}`;
}

/** After an install of `filters` (or of everything), from the current lockfile. */
export function writeInstallStamp(filters = ['all']) {
  if (existsSync(join(ROOT, 'node_modules'))) writeFileSync(INSTALL_STAMP, `${lockHash()}\n${filters.join(' ')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'stamp') writeStamp(process.cwd());
  else if (command === 'installed') writeInstallStamp();
  else {
    console.error(`usage: node ${basename(process.argv[1])} stamp|installed`);
    process.exit(2);
  }
}
