// `pnpm binaries`: the daemon as one executable file per platform, made with
// `bun build --compile` from the built CLI (packages/server/dist/cli.js, the same
// file `node` and `bun` run), into dist/binaries/ with a SHA256SUMS file beside them.
//
// - The web page (packages/server/dist/web) is embedded as assets under its own
//   relative path, so the daemon finds it where it always looks (`./web/` next to
//   the entry: /$bunfs/root/web/ inside the executable).
// - LevelDB: classic-level loads its addon through node-gyp-build, which searches
//   prebuilds/ on disk at run time. A plugin replaces that loader by a static
//   require of the target's prebuild, which bun embeds (and loads from a temporary
//   file when the executable opens a store).
// - Cross-targets: bun fetches each other platform's runtime from the npm registry
//   (@oven/bun-<os>-<arch>, the same version), once, into ~/.bun/install/cache.
//
// Usage: node scripts/binaries.mjs [--target linux-x64,linux-arm64,...] [--out DIR] [--if-stale]
//   (after `pnpm build`; `pnpm binaries` builds first). --if-stale keeps an executable
//   whose inputs (the server's build stamp, bun's version, this script) are unchanged.
// Bun runs the build (Bun.build with a plugin); run by node, this script starts
// itself again under the `bun` devDependency of packages/runtime-contract (not a
// root dependency: `pnpm start` would install it).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'packages', 'server');
const ENTRY = join(SERVER, 'dist', 'cli.js');
const WEB = join(SERVER, 'dist', 'web');
const STAMP = join(SERVER, 'dist', '.build-stamp');
/** The providers' twins (@mockpoint/twins): read from disk by the package, embedded in the file here. */
const TWINS = join(ROOT, 'packages', 'twins');
/** Its providers: a folder each, with a profile (the package's own list is TypeScript, bundled below). */
const TWIN_PROVIDERS = readdirSync(TWINS).filter((folder) => existsSync(join(TWINS, folder, 'profile.json')));

/** Each target: bun's name for it, the classic-level prebuild it embeds, the file written. */
/**
 * Each target: bun's name for it, the classic-level prebuild it embeds, the file written, and
 * what the file must be (checked after the build, since only the host's can be run here).
 */
const TARGETS = {
  'linux-x64': {
    bun: 'bun-linux-x64',
    prebuild: 'linux-x64/classic-level.node',
    file: 'mockpoint-linux-x64',
    format: (b) => isElf(b, 62),
    kind: 'ELF x86-64',
  },
  'linux-arm64': {
    bun: 'bun-linux-arm64',
    prebuild: 'linux-arm64/classic-level.armv8.node',
    file: 'mockpoint-linux-arm64',
    format: (b) => isElf(b, 183),
    kind: 'ELF AArch64',
  },
  'darwin-arm64': {
    bun: 'bun-darwin-arm64',
    prebuild: 'darwin-x64+arm64/classic-level.node',
    file: 'mockpoint-darwin-arm64',
    // MH_MAGIC_64, CPU_TYPE_ARM64
    format: (b) => b.readUInt32LE(0) === 0xfeedfacf && b.readUInt32LE(4) === 0x0100000c,
    kind: 'Mach-O arm64',
  },
  'windows-x64': {
    bun: 'bun-windows-x64',
    prebuild: 'win32-x64/classic-level.node',
    file: 'mockpoint-windows-x64.exe',
    // MZ, then the PE header's machine: AMD64
    format: (b) => b.toString('latin1', 0, 2) === 'MZ' && b.readUInt16LE(b.readUInt32LE(0x3c) + 4) === 0x8664,
    kind: 'PE32+ x86-64',
  },
};

/** A 64-bit little-endian ELF executable for machine `machine` (e_machine). */
function isElf(b, machine) {
  return b.readUInt32BE(0) === 0x7f454c46 && b[4] === 2 && b[5] === 1 && b.readUInt16LE(18) === machine;
}

/** The directory `pnpm binaries` writes to. */
const DEFAULT_OUT = join(ROOT, 'dist', 'binaries');

function fail(message) {
  process.stderr.write(`binaries: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = { targets: Object.keys(TARGETS), out: DEFAULT_OUT, ifStale: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--target') {
      options.targets = String(argv[++i] ?? '').split(',');
      for (const t of options.targets) {
        if (!(t in TARGETS)) fail(`unknown target "${t}" (the targets: ${Object.keys(TARGETS).join(', ')})`);
      }
    } else if (arg === '--out') options.out = String(argv[++i] ?? '');
    else if (arg === '--if-stale') options.ifStale = true;
    else fail(`unknown option ${arg} (usage: binaries.mjs [--target a,b] [--out DIR] [--if-stale])`);
  }
  if (!options.out) fail('--out needs a directory');
  return options;
}

/** The `bun` binary of the `bun` package (a devDependency of packages/runtime-contract). */
function bunBinary() {
  const require = createRequire(join(ROOT, 'packages', 'runtime-contract', 'package.json'));
  const file = join(dirname(require.resolve('bun/package.json')), 'bin', 'bun.exe');
  if (!existsSync(file)) fail(`${file} is missing: run pnpm install (it installs bun)`);
  return file;
}

/** classic-level's package directory, as the server resolves it. */
function classicLevelDir() {
  const fromServer = createRequire(join(SERVER, 'package.json'));
  const fromLevel = createRequire(fromServer.resolve('level/package.json'));
  return dirname(fromLevel.resolve('classic-level/package.json'));
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What an executable is made from: when this is unchanged, so is the file. */
function inputsKey(target) {
  return sha256(
    [
      target,
      Bun.version,
      readFileSync(STAMP, 'utf8'),
      readFileSync(fileURLToPath(import.meta.url), 'utf8'),
      ...twinFiles().map((file) => sha256(readFileSync(file))),
    ].join('\n'),
  );
}

/** The data files of @mockpoint/twins that a twin reads: each provider's document, profile and added parameters. */
function twinFiles() {
  return TWIN_PROVIDERS.flatMap((provider) =>
    ['document.json.gz', 'profile.json', 'params.json.gz']
      .map((file) => join(TWINS, provider, file))
      .filter((file) => existsSync(file)),
  ).concat(
    // Its code (bundled from source, below): a change to a provider's flows makes a new executable.
    TWIN_PROVIDERS.flatMap((provider) =>
      readdirSync(join(TWINS, provider))
        .filter((file) => file.endsWith('.ts') && !file.includes('.test.'))
        .map((file) => join(TWINS, provider, file)),
    ),
    [join(TWINS, 'src', 'index.ts'), join(TWINS, 'src', 'files.ts')],
  );
}

/**
 * @mockpoint/twins' file reader (packages/twins/src/files.ts) with the files inside: the package
 * reads them next to itself, which an executable has no folder for. The same answers.
 */
function embeddedTwinFiles() {
  const files = Object.fromEntries(
    twinFiles()
      .filter((file) => /\.json(\.gz)?$/.test(file))
      .map((file) => [relative(TWINS, file).split('\\').join('/'), readFileSync(file).toString('base64')]),
  );
  return [
    "import { gunzipSync } from 'node:zlib';",
    `const files = ${JSON.stringify(files)};`,
    'export async function readProviderFile(path) {',
    '  if (!Object.hasOwn(files, path)) return undefined;',
    "  const bytes = Buffer.from(files[path], 'base64');",
    "  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');",
    '}',
    '',
  ].join('\n');
}

async function build(target, out) {
  const spec = TARGETS[target];
  const addon = join(classicLevelDir(), 'prebuilds', spec.prebuild);
  if (!existsSync(addon)) fail(`classic-level has no prebuild ${spec.prebuild} (looked in ${addon})`);
  const outfile = join(out, spec.file);
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [ENTRY],
    // The entry's directory is the root: dist/web is embedded as web/…
    root: dirname(ENTRY),
    target: 'bun',
    minify: true,
    // Precompiled bytecode: otherwise the whole bundle is parsed at every start, and
    // `--version` took about 4 times as long (80 ms against 20 ms under `chrt -f`).
    bytecode: true,
    format: 'esm',
    sourcemap: 'none',
    // SERVER_REPORTING_DSN needs @sentry/node installed beside the daemon: not in the file.
    external: ['@sentry/node'],
    compile: {
      target: spec.bun,
      outfile,
      assets: [WEB],
      // The daemon reads .env itself (only MOCKPOINT_ names, `--env-file`); bun must not load it first.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    plugins: [
      {
        name: 'classic-level-prebuild',
        setup(builder) {
          builder.onLoad({ filter: /[\\/]classic-level[\\/]binding\.js$/ }, () => ({
            contents: `module.exports = require(${JSON.stringify(addon)});\n`,
            loader: 'js',
          }));
        },
      },
      {
        name: 'twins-embedded',
        setup(builder) {
          // The package from its source (its flows are TypeScript; Bun reads it), its files embedded.
          builder.onResolve({ filter: /^@mockpoint\/twins$/ }, () => ({ path: join(TWINS, 'src', 'index.ts') }));
          builder.onLoad({ filter: /[\\/]twins[\\/]src[\\/]files\.ts$/ }, () => ({
            contents: embeddedTwinFiles(),
            loader: 'js',
          }));
        },
      },
    ],
  });
  if (!result.success) {
    for (const log of result.logs) process.stderr.write(`${log}\n`);
    fail(`bun build --compile for ${target} failed`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // The file for the right platform, carrying that platform's LevelDB addon and the page.
  const bytes = readFileSync(outfile);
  if (!spec.format(bytes)) fail(`${spec.file} is not an ${spec.kind} executable`);
  for (const [what, file] of [
    [`the LevelDB addon ${spec.prebuild}`, addon],
    ['the web page', join(WEB, 'index.html')],
  ]) {
    if (bytes.indexOf(readFileSync(file)) === -1) fail(`${spec.file} does not carry ${what}`);
  }
  return { target, file: spec.file, path: outfile, seconds, kind: spec.kind };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (typeof Bun === 'undefined') {
    const bun = bunBinary();
    const run = spawnSync(bun, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
  for (const need of [ENTRY, join(WEB, 'index.html'), STAMP]) {
    if (!existsSync(need)) fail(`${relative(ROOT, need)} is missing: run pnpm build first (pnpm binaries does)`);
  }
  mkdirSync(options.out, { recursive: true });
  const built = [];
  for (const target of options.targets) {
    const spec = TARGETS[target];
    const keyFile = join(options.out, `.${spec.file}.inputs`);
    const key = inputsKey(target);
    if (
      options.ifStale &&
      existsSync(join(options.out, spec.file)) &&
      existsSync(keyFile) &&
      readFileSync(keyFile, 'utf8') === key
    ) {
      process.stdout.write(`binaries: ${spec.file} is up to date\n`);
      continue;
    }
    rmSync(keyFile, { force: true });
    const result = await build(target, options.out);
    writeFileSync(keyFile, key);
    built.push(result);
    const mb = (statSync(result.path).size / 1e6).toFixed(1);
    process.stdout.write(
      `binaries: ${result.file} (${target}: ${result.kind}, with its LevelDB addon and the page) ${mb} MB in ${result.seconds}s\n`,
    );
  }
  // Checksums of every executable in the folder, in the format `sha256sum -c SHA256SUMS` reads.
  const files = readdirSync(options.out)
    .filter((name) => Object.values(TARGETS).some((t) => t.file === name))
    .sort();
  const sums = files.map((name) => `${sha256(readFileSync(join(options.out, name)))}  ${name}\n`).join('');
  writeFileSync(join(options.out, 'SHA256SUMS'), sums);
  process.stdout.write(`binaries: ${relative(ROOT, options.out) || '.'}/SHA256SUMS lists ${files.length} files\n`);
}

await main();
