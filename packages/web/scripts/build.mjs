// Builds the web page into dist/: bundles src/main.ts (with the parts of
// @mockpoint/core it uses: the typed client, the name rule) and src/app.css with
// esbuild into content-hashed files under static/ (the Sentry code is a separate
// chunk, imported only when the page has a reporting DSN), writes a gzip and a
// brotli copy of each asset for the daemon to serve compressed, and writes
// index.html pointing at them. The daemon's build copies dist/ into its own.
//
// CLIENT_REPORTING_DSN from the environment or a .env file (in the working
// directory, or where pnpm was started) is baked into the page as a default; the
// daemon's own CLIENT_REPORTING_DSN at start time wins over it.
//
// Usage: node scripts/build.mjs [--out-dir <dir>]
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(packageDir, 'src');

function option(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** CLIENT_REPORTING_DSN: the environment wins over .env files. */
function buildTimeDsn() {
  if (process.env.CLIENT_REPORTING_DSN) return process.env.CLIENT_REPORTING_DSN;
  const dirs = [process.cwd(), process.env.INIT_CWD].filter(Boolean);
  for (const dir of new Set(dirs.map((d) => resolve(d)))) {
    const file = join(dir, '.env');
    if (!existsSync(file)) continue;
    const value = parseEnv(readFileSync(file, 'utf8')).CLIENT_REPORTING_DSN;
    if (value) return value;
  }
  return undefined;
}

function escapeAttribute(value) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const outDir = resolve(option('--out-dir') ?? join(packageDir, 'dist'));
const staticDir = join(outDir, 'static');

rmSync(outDir, { recursive: true, force: true });
mkdirSync(staticDir, { recursive: true });

const result = await build({
  entryPoints: [
    { in: join(srcDir, 'main.ts'), out: 'app' },
    { in: join(srcDir, 'app.css'), out: 'app' },
  ],
  outdir: staticDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  sourcesContent: false,
  entryNames: '[name].[hash]',
  chunkNames: '[name].[hash]',
  assetNames: '[name].[hash]',
  metafile: true,
  legalComments: 'none',
  // Workspace packages from their TypeScript sources, like the tests.
  conditions: ['@mockpoint/source'],
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => resolve(p));
const pick = (pattern) => {
  const found = outputs.find((p) => pattern.test(relative(staticDir, p)));
  if (!found) throw new Error(`build-web: no output matching ${pattern}`);
  return relative(outDir, found).split('\\').join('/');
};
const js = pick(/^app\.[A-Z0-9]+\.js$/);
const css = pick(/^app\.[A-Z0-9]+\.css$/);

let html = readFileSync(join(packageDir, 'index.html'), 'utf8').replace('{{js}}', js).replace('{{css}}', css);
const dsn = buildTimeDsn();
if (dsn) {
  html = html.replace('</head>', `<meta name="mockpoint-reporting-dsn" content="${escapeAttribute(dsn)}">\n</head>`);
}
writeFileSync(join(outDir, 'index.html'), html);

// Compressed copies, served by the daemon to clients that accept them (maps stay plain).
for (const file of outputs.filter((p) => !p.endsWith('.map'))) {
  const bytes = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  );
}

const shown = outputs
  .filter((p) => !p.endsWith('.map'))
  .map((p) => `${relative(outDir, p)} ${(statSync(p).size / 1024).toFixed(1)} kB`);
console.log(
  `build-web: ${relative(process.cwd(), outDir) || '.'}/index.html -> ${shown.join(', ')}${dsn ? ' (reporting DSN baked in)' : ''}`,
);
