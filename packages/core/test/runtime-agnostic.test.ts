/**
 * The main entry of @mockpoint/core must run on any runtime with Web Request and
 * Response: no `node:` or Node builtin imports, and `level` only on its subpath.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC_ENTRY = join(PACKAGE_DIR, 'src', 'index.ts');
const LEVEL_ENTRY = join(PACKAGE_DIR, 'src', 'store', 'level', 'index.ts');
const DIST_DIR = join(PACKAGE_DIR, 'dist');

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const LEVEL_PACKAGES = ['level', 'classic-level', 'abstract-level', 'browser-level'];

/** `source` without the lines that start a comment or continue a block comment (` * …`). */
function withoutCommentLines(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
    .join('\n');
}

/**
 * Every module specifier in `source`: static imports and re-exports, side-effect imports, dynamic
 * imports, require. A line inside a comment is not code: a bundled package's JSDoc example (as
 * graphql's, in core's chunks) may show an import no code makes.
 */
function specifiers(source: string): string[] {
  const code = withoutCommentLines(source);
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) found.push(match[1] as string);
  }
  return found;
}

/** Resolves a relative specifier to a file: `./x.js` to `x.ts` in src, as written in dist. */
function resolveRelative(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}.js`, join(target, 'index.ts')];
  const file = candidates.find((candidate) => existsSync(candidate) && !candidate.endsWith('/'));
  if (file === undefined) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return file;
}

interface ImportGraph {
  /** Files reached, relative to the package. */
  files: string[];
  /** Non-relative specifiers, with the file that imports them. */
  external: Array<{ specifier: string; from: string }>;
}

/** Walks the relative imports reachable from `entry`. */
function walkImports(entry: string): ImportGraph {
  const seen = new Set<string>();
  const external: ImportGraph['external'] = [];
  const queue = [entry];
  // Bounded: the package has a few dozen modules.
  while (queue.length > 0 && seen.size < 1000) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const specifier of specifiers(source)) {
      if (specifier.startsWith('.')) queue.push(resolveRelative(file, specifier));
      else external.push({ specifier, from: relative(PACKAGE_DIR, file) });
    }
  }
  return { files: [...seen].map((file) => relative(PACKAGE_DIR, file)), external };
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0] as string);
}

function isLevel(specifier: string): boolean {
  return LEVEL_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

describe('the import walker', () => {
  it('finds every kind of import', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "export * from 'node:fs';",
      "import 'side-effect';",
      "const d = await import('./d.js');",
      "const e = require('events');",
      'import {\n  f,\n  g,\n} from "level";',
    ].join('\n');
    expect(specifiers(source).sort()).toEqual(
      ['./a.js', './b.js', './c.js', 'node:fs', 'side-effect', './d.js', 'events', 'level'].sort(),
    );
  });

  it('sees level through the LevelDB subpath (so it would catch it on the main entry)', () => {
    const graph = walkImports(LEVEL_ENTRY);
    expect(graph.external.some(({ specifier }) => isLevel(specifier))).toBe(true);
  });
});

describe('@mockpoint/core main entry (src)', () => {
  const graph = walkImports(SRC_ENTRY);

  it('reaches the modules it re-exports', () => {
    expect(graph.files).toEqual(
      expect.arrayContaining([
        'src/index.ts',
        'src/http/create-app.ts',
        'src/store/memory/memory-store.ts',
        'src/client/client.ts',
      ]),
    );
  });

  it('imports no node: module or Node builtin', () => {
    const offenders = graph.external.filter(({ specifier }) => isBuiltin(specifier));
    expect(offenders).toEqual([]);
  });

  it('does not reach level or the LevelDB store', () => {
    expect(graph.external.filter(({ specifier }) => isLevel(specifier))).toEqual([]);
    expect(graph.files).not.toContain('src/store/level/index.ts');
  });

  it('imports only its declared runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    // Bundled into dist by tsup (devDependencies, so a user's install never resolves them):
    // @graphql-tools/mock, whose dependencies declare Node >= 22 and warn on Node 20 (#49 item 19);
    // zod, whose declarations core carries (docs/packages.md).
    const bundled = ['@graphql-tools/mock', 'zod'];
    const allowed = [...Object.keys(pkg.dependencies ?? {}), ...bundled];
    const packageName = (specifier: string) =>
      specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string);
    const undeclared = graph.external.filter(({ specifier }) => !allowed.includes(packageName(specifier)));
    expect(undeclared).toEqual([]);
  });
});

describe.each([
  ['bun', 'src/adapter/bun/index.ts', 'dist/bun.js'],
  ['deno', 'src/adapter/deno/index.ts', 'dist/deno.js'],
  ['workers', 'src/adapter/workers/index.ts', 'dist/workers.js'],
])('@mockpoint/core/%s (runs where Node builtins are not a given)', (_name, src, dist) => {
  it('imports no node: module, Node builtin or level, in src and in dist', () => {
    const entries = [join(PACKAGE_DIR, src)];
    if (existsSync(join(PACKAGE_DIR, dist))) entries.push(join(PACKAGE_DIR, dist));
    else if (process.env.CI) throw new Error(`${dist} is missing: run \`pnpm build\` before the tests`);
    for (const entry of entries) {
      const graph = walkImports(entry);
      expect(graph.files.length).toBeGreaterThan(1);
      expect(graph.external.filter(({ specifier }) => isBuiltin(specifier))).toEqual([]);
      expect(graph.external.filter(({ specifier }) => isLevel(specifier))).toEqual([]);
    }
  });
});

describe('@mockpoint/core main entry (dist)', () => {
  const distEntry = join(DIST_DIR, 'index.js');

  it('the built index.js and its chunks import no node: module, builtin or level', () => {
    if (!existsSync(distEntry)) {
      // Unit runs need no build; CI builds first and must check the real output.
      if (process.env.CI) throw new Error(`${distEntry} is missing: run \`pnpm build\` before the tests`);
      return;
    }
    const graph = walkImports(distEntry);
    expect(graph.files).toContain('dist/index.js');
    expect(graph.external.filter(({ specifier }) => isBuiltin(specifier))).toEqual([]);
    expect(graph.external.filter(({ specifier }) => isLevel(specifier))).toEqual([]);
    for (const file of graph.files) {
      const source = withoutCommentLines(readFileSync(join(PACKAGE_DIR, file), 'utf8'));
      expect(source, file).not.toMatch(/from\s*["']node:/);
      expect(source, file).not.toMatch(/from\s*["']level["']/);
    }
  });
});
