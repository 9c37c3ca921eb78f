// What `pnpm start` installs on a fresh clone: pnpm's `--filter @mockpoint/server...`
// (the daemon, the workspace packages it builds from, their dependencies) plus the
// root's own, which pnpm always installs. Worked out here from pnpm-lock.yaml, the
// way pnpm does: neither Bun, Deno nor workerd (the runtime contract's) nor
// GitHub's OpenAPI description (packages/openapi-documents') nor what only the
// server's tests use (packages/server/test/package.json: SDK clients, WireMock's jar,
// the Mockoon CLI, playwright-core, …) may be in it, and every build tool the
// daemon's packages build with must be. And every bin of
// a workspace package is a committed file, so that pnpm can link it before a build.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { DAEMON_FILTER, DAEMON_PACKAGES, PACK_FILTERS, PACK_PACKAGES, ROOT } from './build-state.mjs';

interface Manifest {
  name: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const LOCK = readFileSync(join(ROOT, 'pnpm-lock.yaml'), 'utf8');
/** The private package that holds the server tests' own dependencies. */
const SERVER_TESTS = 'packages/server/test';
/**
 * What the server tests declare (express, for the session carrier's Express test) but the daemon's
 * install already has: @modelcontextprotocol/sdk (the server's devDependency, vendored into
 * dist/mcp-sdk.js) depends on express 5, and json-server (core's test dependency) on express 4;
 * fast-xml-parser (the JUnit test of `mockpoint verify`), which openapi-sampler (the server's) depends on.
 */
const ALREADY_IN_DAEMON_INSTALL = ['express', 'fast-xml-parser'];
const SERVER_BUILD_DEPS = [
  // The providers' twins (docs/twins.md): an optional peer of the published daemon, linked in the
  // clone so that `--twin`/`PUT …/twin { provider }` work from it; 0.2 MB, no dependencies of its own.
  '@mockpoint/twins',
  '@mockpoint/web',
  '@modelcontextprotocol/sdk',
  '@sentry/node',
  '@types/node',
  'tsup',
  'typescript',
];

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
}

function workspaceDirs(): string[] {
  return [
    ...LOCK.slice(LOCK.indexOf('\nimporters:\n'), LOCK.indexOf('\npackages:\n')).matchAll(/^ {2}(\S[^:]*):$/gm),
  ].map((match) => match[1] as string);
}

/** The lockfile's `snapshots:` entries: each installed package and what it depends on. */
function snapshots(): Map<string, string[]> {
  const section = LOCK.slice(LOCK.indexOf('\nsnapshots:\n'));
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of section.split('\n')) {
    const key = /^ {2}(\S.*):$/.exec(line);
    if (key) {
      current = [];
      result.set((key[1] as string).replace(/^'|'$/g, ''), current);
      continue;
    }
    const dep = /^ {6}('?[^:']+'?): (\S+)$/.exec(line);
    if (dep && current) current.push(`${(dep[1] as string).replace(/'/g, '')}@${dep[2]}`);
  }
  return result;
}

/** The lockfile's importer section of `dir`: each dependency as name@resolved version (only `dependencies:` with `production`). */
function importerDeps(dir: string, production = false): string[] {
  const start = LOCK.indexOf(`\n  ${dir}:\n`);
  const rest = LOCK.slice(start + 1)
    .split('\n')
    .slice(1);
  const end = rest.findIndex((line) => /^ {0,2}\S/.test(line));
  const block = rest.slice(0, end);
  const deps: string[] = [];
  let section = '';
  for (let i = 0; i < block.length; i++) {
    section = /^ {4}(\w+):$/.exec(block[i] as string)?.[1] ?? section;
    if (production && section !== 'dependencies') continue;
    const name = /^ {6}('?[^:']+'?):$/.exec(block[i] as string);
    const version = /^ {8}version: (\S+)$/.exec(block[i + 2] ?? '') ?? /^ {8}version: (\S+)$/.exec(block[i + 1] ?? '');
    if (name && version && !(version[1] as string).startsWith('link:')) {
      deps.push(`${(name[1] as string).replace(/'/g, '')}@${version[1]}`);
    }
  }
  return deps;
}

/** The workspace packages `filters` select (by default start's): each package and its workspace dependencies. */
function selectedDirs(filters: string[] = [DAEMON_FILTER]): string[] {
  const byName = new Map(workspaceDirs().map((dir) => [manifest(dir).name, dir]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    const dir = byName.get(name);
    if (dir === undefined || seen.has(dir)) return;
    seen.add(dir);
    const m = manifest(dir);
    for (const [dep, spec] of Object.entries({ ...m.dependencies, ...m.devDependencies })) {
      if (spec.startsWith('workspace:')) visit(dep);
    }
  };
  for (const filter of filters) visit(filter.replace(/\.\.\.$/, ''));
  return ['.', ...seen];
}

/** Every package (name@version) that installing `dirs` installs (their `dependencies:` alone with `production`). */
function installedIds(dirs: string[], production = false): Set<string> {
  const graph = snapshots();
  const queue = dirs.flatMap((dir) => importerDeps(dir, production));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dep of graph.get(id) ?? []) queue.push(dep);
  }
  return seen;
}

/** Every package (name) that installing `dirs` installs. */
function installed(dirs: string[]): Set<string> {
  const graph = snapshots();
  const names = new Set<string>();
  const queue = dirs.flatMap((dir) => importerDeps(dir));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    names.add(id.slice(0, id.indexOf('@', 1)));
    for (const dep of graph.get(id) ?? []) queue.push(dep);
  }
  return names;
}

describe('what pnpm start installs', () => {
  it('the daemon and its workspace packages, not the examples, the vitest plugin, the runtime contract or the OpenAPI documents', () => {
    const dirs = selectedDirs();
    expect(dirs).toEqual(expect.arrayContaining(['.', 'packages/server', 'packages/core', 'packages/web']));
    for (const pkg of DAEMON_PACKAGES as { dir: string }[]) expect(dirs).toContain(pkg.dir.slice(ROOT.length));
    expect(
      dirs.filter(
        (dir) =>
          dir.startsWith('examples/') || dir === 'packages/runtime-contract' || dir === 'packages/openapi-documents',
      ),
    ).toEqual([]);
  });

  it('no other runtime (Bun, Deno, workerd), no test-only OpenAPI document, and every build tool the daemon builds with', () => {
    const names = installed(selectedDirs());
    expect(names.size).toBeGreaterThan(50); // the parse found the lockfile's graph
    const testOnly = ['bun', 'deno', '@oven/bun-linux-x64', '@deno/linux-x64-glibc', 'miniflare', 'workerd'];
    // GitHub's description is 385 MB installed; a server test once made start install it.
    for (const name of [...testOnly, '@octokit/openapi']) expect(names.has(name), name).toBe(false);
    for (const tool of ['tsup', 'typescript', 'esbuild', '@types/node']) expect(names.has(tool), tool).toBe(true);
    // …and pnpm test's full install has them all.
    const everything = installed(workspaceDirs());
    for (const name of ['bun', 'deno', 'miniflare', 'workerd', '@octokit/openapi']) {
      expect(everything.has(name), name).toBe(true);
    }
  });

  it("none of the server tests' own dependencies (@mockpoint/server-test), and the server declares only what its build and run need", () => {
    const dirs = selectedDirs();
    expect(dirs).not.toContain(SERVER_TESTS);
    expect(manifest(SERVER_TESTS).name).toBe('@mockpoint/server-test');
    // The build: tsup, typescript, @types/node; copy-web.mjs: @mockpoint/web; the vendored
    // dist/mcp-sdk.js: @modelcontextprotocol/sdk; src/reporting.ts: @sentry/node (the optional peer
    // it loads when SERVER_REPORTING_DSN is set). A test-only dependency goes in packages/server/test.
    expect(Object.keys(manifest('packages/server').devDependencies ?? {}).sort()).toEqual(SERVER_BUILD_DEPS);
    // Each test-only dependency no package that start selects declares itself (core runs with
    // graphql and ws, and tests with json-server and har-validator) stays out, with all it brings.
    const declared = new Set(
      dirs.flatMap((dir) => {
        const m = manifest(dir);
        return Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.optionalDependencies });
      }),
    );
    const testOnly = Object.keys(manifest(SERVER_TESTS).devDependencies ?? {}).filter((name) => !declared.has(name));
    expect(testOnly).toEqual(expect.arrayContaining(['openai', '@anthropic-ai/sdk', 'wiremock', 'playwright-core']));
    const names = installed(dirs);
    // Test-only by declaration, yet already in the daemon's install through a package it selects:
    // adding them to the server tests adds nothing to it. Each is checked to still be so.
    for (const name of ALREADY_IN_DAEMON_INSTALL) expect(names.has(name), name).toBe(true);
    expect(testOnly.filter((name) => names.has(name) && !ALREADY_IN_DAEMON_INSTALL.includes(name))).toEqual([]);
    // …and pnpm test's full install has them.
    const everything = installed(workspaceDirs());
    for (const name of testOnly.filter((n) => !n.startsWith('@mockpoint/')))
      expect(everything.has(name), name).toBe(true);
  });

  it('each workspace package that builds with tsup declares tsup and typescript itself', () => {
    for (const dir of workspaceDirs().filter((d) => existsSync(join(ROOT, d, 'tsup.config.ts')))) {
      expect(Object.keys(manifest(dir).devDependencies ?? {}), dir).toEqual(
        expect.arrayContaining(['tsup', 'typescript', '@types/node']),
      );
    }
  });
});

describe('bins', () => {
  it('every bin of a workspace package is a committed file, not build output', () => {
    const bins = workspaceDirs().flatMap((dir) =>
      Object.values(manifest(dir).bin ?? {}).map((file) => join(dir, file)),
    );
    expect(bins.length).toBeGreaterThan(0);
    for (const bin of bins) {
      expect(bin, bin).not.toMatch(/(^|\/)dist\//);
      expect(existsSync(join(ROOT, bin)), bin).toBe(true);
    }
  });
});

/** The `engines.node` range of each package of the lockfile (name@version, without peers). */
function nodeEngines(): Map<string, string> {
  const section = LOCK.slice(LOCK.indexOf('\npackages:\n'), LOCK.indexOf('\nsnapshots:\n'));
  const result = new Map<string, string>();
  for (const match of section.matchAll(/^ {2}'?([^\s']+)'?:\n(?: {4}.*\n)*? {4}engines: \{node: '?([^'}]+)'?\}/gm)) {
    result.set(match[1] as string, match[2] as string);
  }
  return result;
}

/** Whether Node `version` (x.y.z) is inside an npm `engines.node` range of the forms the lockfile holds. */
function admits(range: string, version: string): boolean {
  const parse = (v: string) =>
    v
      .replace(/^v/, '')
      .split('.')
      .map((n) => Number(n) || 0);
  const compare = (a: number[], b: number[]) => {
    for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
    return 0;
  };
  const v = parse(version);
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        const [, op = '', bound = ''] = /^([<>=^~]*)(.+)$/.exec(comparator) ?? [];
        const b = parse(bound);
        const parts = bound.split('.').length;
        if (op === '>=') return compare(v, b) >= 0;
        if (op === '>') return compare(v, b) > 0;
        if (op === '<=') return compare(v, b) <= 0;
        if (op === '<') return compare(v, b) < 0;
        if (op === '^') return v[0] === b[0] && compare(v, b) >= 0;
        if (op === '~') return v[0] === b[0] && v[1] === b[1] && compare(v, b) >= 0;
        if (bound === '*' || bound === 'x') return true;
        return v.slice(0, parts).join('.') === b.slice(0, parts).join('.');
      }),
  );
}

describe('what pnpm tarballs installs and packs', () => {
  it('only what the published packages build from: no other runtime (Bun, Deno, workerd), no server test tool', () => {
    const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Not a whole `pnpm install` first: scripts/pack-packages.mjs installs PACK_FILTERS alone.
    expect(rootPackage.scripts.tarballs).toBe('node scripts/pack-packages.mjs');
    const dirs = selectedDirs(PACK_FILTERS as string[]);
    const published = workspaceDirs().filter(
      (dir) => dir.startsWith('packages/') && !(manifest(dir) as { private?: boolean }).private,
    );
    for (const dir of published) expect(dirs, dir).toContain(dir);
    for (const pkg of PACK_PACKAGES as { dir: string }[]) expect(dirs).toContain(pkg.dir.slice(ROOT.length));
    expect(dirs).not.toContain(SERVER_TESTS);
    expect(dirs.filter((dir) => dir.startsWith('examples/') || dir === 'packages/runtime-contract')).toEqual([]);
    const names = installed(dirs);
    for (const name of [
      'bun',
      'deno',
      '@oven/bun-linux-x64',
      'miniflare',
      'workerd',
      '@octokit/openapi',
      'playwright-core',
    ])
      expect(names.has(name), name).toBe(false);
    for (const tool of ['tsup', 'typescript', 'esbuild', '@types/node', 'vitest'])
      expect(names.has(tool), tool).toBe(true);
  });

  it('what the published packages install for a user all declare Node 20 (no EBADENGINE on Node 20.19 and later)', () => {
    const published = workspaceDirs().filter(
      (dir) => dir.startsWith('packages/') && !(manifest(dir) as { private?: boolean }).private,
    );
    // packages/twins installs nothing for a user (its stripe and typescript are for its scripts only).
    expect(published.sort()).toEqual(['packages/core', 'packages/server', 'packages/twins', 'packages/vitest-plugin']);
    const engines = nodeEngines();
    expect(engines.size).toBeGreaterThan(100); // the parse found the lockfile's engines
    const ids = installedIds(published, true);
    expect(ids.size).toBeGreaterThan(20);
    const refused = [...ids]
      .map((id) => id.replace(/\(.*$/, ''))
      .filter((id) => engines.has(id))
      .flatMap((id) =>
        ['20.19.0', process.versions.node]
          .filter((node) => node.startsWith('20.') && !admits(engines.get(id) as string, node))
          .map((node) => `${id} (node ${engines.get(id)}) refuses Node ${node}`),
      );
    expect(refused).toEqual([]);
  });

  it('the range check reads the lockfile forms', () => {
    expect(admits('>=22.15.0', '20.19.0')).toBe(false);
    expect(admits('^20.19.0 || >=22.12.0', '20.19.0')).toBe(true);
    expect(admits('>=20.19.0 <22.0.0 || >=22.12.0 <23.0.0 || >=23.2.0', '20.20.2')).toBe(true);
    expect(admits('>= 0.8', '20.19.0')).toBe(true);
    expect(admits('18 || 20 || >=22', '20.19.0')).toBe(true);
    expect(admits('18 || >=22', '20.19.0')).toBe(false);
    expect(admits('>=20.18.1', '20.19.0')).toBe(true);
  });
});
