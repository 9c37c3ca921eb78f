// The daemon as people install it: the packed tarballs of @mockpoint/core and
// @mockpoint/server, `npm install -g` into an empty prefix with a fresh HOME and npm
// cache (everything else comes from the npm registry), then the `mockpoint` bin.
// Also: every import in the packed code is declared, the install stays small,
// --version/--help load nothing heavy, and Sentry is opt-in.
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';
import { diskUsage, expectSuccess, freshEnv, packTarballs, run, withPnpmOnPath } from './helpers/packages.js';
import { type SentryCollector, startSentryCollector } from './helpers/sentry-collector.js';

const PROBE = fileURLToPath(new URL('./fixtures/package-probe.mjs', import.meta.url));
const REPORTING_FIXTURE = fileURLToPath(new URL('./fixtures/installed-reporting.mjs', import.meta.url));
/** The goal for the daemon's installed footprint (issue 11). */
// 42.6 MB measured (core + server, each with its own tree): YAML mock files and the OpenAPI
// import's sampler came with #23; 45.1 MB on 2026-11-24 with collections and resource routes
// (#33, about 0.15 MB of code; the rest of the growth since is the dependencies' own); 51.0 MB
// with GraphQL (#34: graphql 16 ships CommonJS, ESM and types, 3.1 MB, and @graphql-tools/mock
// brings utils, merge and schema, 2 MB); node-forge (1.8 MB installed, #35: the local CA of
// --https; Node has no X.509 generation) on top. 53.9 MB with #36 (LLM answers, and the MCP server: the official
// MCP SDK as a dependency added 29.4 MB measured, 82.4 MB in all: express and its tree, a zod of
// its own, ajv, jose, …; so its server side is vendored instead, bundled and minified into
// dist/mcp-sdk.js, 0.16 MB, no source map, ajv left out; the SDK is a devDependency). 54.2 MB on
// the merged main of 2026-11-25: our own code grew (importers for WireMock, Mockoon and Postman,
// graphql-ws, pass-through, the Bun path), no new runtime dependency; the budget moved to 56 MB.
// 56.1 MB on stop 57's main: the GraphQL worker thread's entry (@mockpoint/core/threads), the
// client and schemas split by resource (more modules, declarations and source maps), no new
// runtime dependency; the budget moved to 58 MB. 74.1 MB on stop 59's main, two deliberate
// dependencies, each loaded only when used: gRPC (#52: protobufjs's .proto parser 4.0 MB, Buf's
// protobuf runtime 3.0 MB, Connect 1.9 MB) and Bedrock's event stream codec (@smithy/core with its
// types, 8.0 MB; the core's alone now: the server no longer declares a second copy, which npm -g
// installed beside it, 82.1 MB before); the budget moved to 76 MB.
// 75.8 MB on 2026-11-26's main -> 44.1 MB (#64): @redis/client (11.3 MB) an optional peer for
// --redis-url only; zod (8.2 MB) a bundled devDependency, its declarations carried in the core's
// (0.6 MB); Bedrock's event stream frames written in the tree instead of @smithy/core with its
// types (7.8 MB); no source maps in the tarballs (4.8 MB). The budget moved back to 45 MB: a new
// dependency fits in it or moves something out.
// 45.1 MB on stop 79's main (2026-11-28), 0.1 MB over, with the providers' flows in the core; they
// are a folder each of @mockpoint/twins now (#73), installed only where a twin is used.
// 47.2 MB on stop 88's main, over: the server held its own copies of hono and yaml (5.3 MB), the
// core's versions, which a global install does not share; it takes both from the core now (40.0 MB).
// A budget, so that a heavy dependency (12 MB once) is caught.
const MAX_INSTALLED_BYTES = 45 * 1024 * 1024;
/** The TypeScript compiler of the repository, to type-check against the installed declarations. */
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** A user's file against the installed core: the answers are typed (an `any` makes the expect-error unused). */
const TYPED_USE = [
  "import { type ChaosSettings, createClient, type RouteInput } from '@mockpoint/core';",
  "import { parseMockFile } from '@mockpoint/core/files';",
  "const client = createClient({ baseUrl: 'http://127.0.0.1:1' });",
  'export async function typed(): Promise<unknown[]> {',
  "  const record = await client.add({ name: 'hook', data: { ok: true } });",
  '  const name: string = record.name;',
  '  // @ts-expect-error: statusCode is a number, so the record is typed (not `any`)',
  '  const wrong: string = record.statusCode;',
  "  const route: RouteInput = { match: { path: '/x' }, answer: { statusCode: 201 } };",
  '  const chaos: ChaosSettings | undefined = undefined;',
  '  return [name, wrong, route, chaos, parseMockFile];',
  '}',
  '',
].join('\n');
const INSTALL_TIMEOUT = 300_000;
/** The core's optional peer the daemon's default store needs, as the README's global npm command names it (not `@redis/client`). */
const CORE_PEERS = ['level@^10'];
/** Optional peers whose import is guarded, and the test below that proves the guard. */
const GUARDED_OPTIONAL_PEERS: Record<string, string[]> = {
  '@mockpoint/server': ['@sentry/node', '@redis/client', '@mockpoint/twins'],
  // createMockServer()'s setTwin({ provider }): vitest-plugin/test/twin.test.ts, and its message without it.
  '@mockpoint/vitest': ['@mockpoint/twins'],
};
/**
 * Bundled into the package's own JavaScript (a devDependency, never installed by a user): the MCP SDK is
 * dist/mcp-sdk.js. tsc still writes the declaration of the module that re-exports it (dist/types/mcp/
 * sdk.d.ts), which no public declaration reaches.
 */
const BUNDLED: Record<string, string[]> = { '@mockpoint/server': ['@modelcontextprotocol/sdk'] };
/**
 * Optional peers that only the subpath made for them imports (`@mockpoint/core/level`
 * needs `level`): importing any other entry never loads them, so a user of
 * `createApp`/`createClient` installs neither.
 */
const SUBPATH_OPTIONAL_PEERS: Record<string, Record<string, RegExp>> = {
  // The subpath's bundle, and its declarations (tsc writes one per source file, under dist/types/).
  '@mockpoint/core': {
    level: /\/dist\/(?:level\.js|types\/store\/level\/[^/]+\.d\.ts)$/,
    '@redis/client': /\/dist\/(?:redis\.js|types\/store\/redis\/[^/]+\.d\.ts)$/,
  },
};

let tarballs: string;
let packed: Awaited<ReturnType<typeof packTarballs>>;
let home: string;
let prefix: string;
let bin: string;
let serverDir: string;

beforeAll(async () => {
  assertBuilt();
  tarballs = await makeTempDir('mockpoint-tarballs-');
  packed = await packTarballs(tarballs);
  home = await makeTempDir('mockpoint-home-');
  prefix = await makeTempDir('mockpoint-prefix-');
  // The README's npm command, run where the tarballs are (with the core's optional
  // peers, which a globally installed core tarball only finds when they are global too).
  expectSuccess(
    'npm install -g',
    await run('npm', ['install', '-g', '--prefix', prefix, `./${packed.core}`, `./${packed.server}`, ...CORE_PEERS], {
      cwd: tarballs,
      env: freshEnv(home),
      timeoutMs: INSTALL_TIMEOUT,
    }),
  );
  bin = join(prefix, 'bin', 'mockpoint');
  serverDir = join(prefix, 'lib', 'node_modules', '@mockpoint', 'server');
}, INSTALL_TIMEOUT);

afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

/**
 * Bare package names a built file imports (static, dynamic and `export … from`):
 * a `from "…"` counts only in a statement that starts with `import` or `export`
 * (the bundles put each on its own line), so that code such as `"--from", "…"` does not.
 */
function importedPackages(code: string): Set<string> {
  const names = new Set<string>();
  const pattern =
    /(?:^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*|\bimport\s*\(\s*|^[ \t]*import\s+)["']([^"'./][^"']*)["']/gm;
  for (const [, specifier] of code.matchAll(pattern)) {
    if (specifier === undefined || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string));
  }
  return names;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('the packed packages', () => {
  it('every package the shipped code imports is declared (dependencies, peers, a guarded optional peer, or an optional peer of its own subpath)', async () => {
    for (const name of ['core', 'server', 'vitest'] as const) {
      const dir = await makeTempDir(`mockpoint-unpacked-${name}-`);
      expectSuccess('tar', await run('tar', ['xzf', join(tarballs, packed[name]), '-C', dir], { cwd: dir }));
      const manifest = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8'));
      // An optional peer is not installed by default: only the imports that are
      // guarded (loaded on demand, with a one-line error naming the package) may use one.
      const optional = new Set(Object.keys(manifest.peerDependenciesMeta ?? {}));
      const declared = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}).filter((pkg) => !optional.has(pkg)),
        ...(GUARDED_OPTIONAL_PEERS[manifest.name] ?? []),
        ...(BUNDLED[manifest.name] ?? []),
      ]);
      const code = filesUnder(join(dir, 'package', 'dist')).filter(
        (f) => /\.(?:js|d\.ts)$/.test(f) && !f.includes('/web/'),
      );
      expect(code.length).toBeGreaterThan(0);
      const ownSubpath = SUBPATH_OPTIONAL_PEERS[manifest.name] ?? {};
      const undeclared = code.flatMap((file) =>
        [...importedPackages(readFileSync(file, 'utf8'))]
          .filter((pkg) => !declared.has(pkg) && !ownSubpath[pkg]?.test(file))
          .map((pkg) => `${manifest.name}: ${file.slice(dir.length)} imports ${pkg}`),
      );
      expect(undeclared).toEqual([]);
      // A README and the license travel with every package; the source condition does not.
      expect(existsSync(join(dir, 'package', 'README.md'))).toBe(true);
      expect(existsSync(join(dir, 'package', 'LICENSE'))).toBe(true);
      expect(JSON.stringify(manifest.exports)).not.toContain('@mockpoint/source');
      expect(existsSync(join(dir, 'package', 'dist', '.build-stamp'))).toBe(false);
      // Source maps stay in the clone (4.8 MB of the install on 2026-11-26).
      expect(filesUnder(join(dir, 'package')).filter((file) => file.endsWith('.map'))).toEqual([]);
    }
  });
});

describe('npm install -g of the core and server tarballs', () => {
  it(`installs no more than ${MAX_INSTALLED_BYTES / 1024 / 1024} MB, without Sentry`, () => {
    const bytes = diskUsage(prefix);
    console.log(`installed size of @mockpoint/core + @mockpoint/server: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
    expect(bytes).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
    expect(existsSync(join(prefix, 'lib', 'node_modules', '@sentry'))).toBe(false);
    expect(existsSync(join(serverDir, 'node_modules', '@sentry'))).toBe(false);
  });

  it("the core's declarations type-check without zod installed (skipLibCheck off), and are typed", async () => {
    // zod's code is bundled and its declarations carried in dist/types/vendor/zod: not installed.
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'zod'))).toBe(false);
    expect(existsSync(join(prefix, 'lib', 'node_modules', '@mockpoint', 'core', 'node_modules', 'zod'))).toBe(false);
    const project = await makeTempDir('mockpoint-installed-types-');
    symlinkSync(join(prefix, 'lib', 'node_modules'), join(project, 'node_modules'));
    writeFileSync(join(project, 'package.json'), '{"type":"module"}\n');
    writeFileSync(join(project, 'check.ts'), TYPED_USE);
    const compilerOptions = {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      noEmit: true,
      skipLibCheck: false,
      types: [],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
    const result = await run(process.execPath, [TSC, '-p', project], { cwd: project, env: freshEnv(home) });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('--version and --help print and load no store and no heavy module', async () => {
    const cliJs = join(serverDir, 'dist', 'cli.js');
    for (const [flag, expected] of [
      ['--version', /^0\.\d+\.\d+\n$/],
      ['--help', /--port/],
    ] as const) {
      // The bin itself, as a user runs it.
      const plain = await run(bin, [flag], { cwd: prefix, env: freshEnv(home) });
      expect(plain).toMatchObject({ code: 0, stderr: '' });
      expect(plain.stdout).toMatch(expected);
      // The same file under a probe that lists every package it resolves.
      const probeFile = join(await makeTempDir('mockpoint-probe-'), 'packages.txt');
      const probed = await run(process.execPath, ['--import', PROBE, cliJs, flag], {
        cwd: prefix,
        env: freshEnv(home, { MOCKPOINT_TEST_PACKAGE_PROBE: probeFile }),
      });
      expect(probed.code).toBe(0);
      const loaded = [...new Set((await readFile(probeFile, 'utf8')).split('\n').filter(Boolean))];
      // The settings table and the error classes (the CLI's errors are MockpointErrors): no app, no store.
      expect(loaded).toEqual(['@mockpoint/core/defaults', '@mockpoint/core/internal']);
    }
  });

  it('mockpoint serves the web page and the seed contract from LevelDB, and stops with exit 0 on SIGINT', async () => {
    const cwd = await makeTempDir('mockpoint-installed-run-');
    const daemon = await startDaemon({ bin, cwd, env: freshEnv(home) });
    expect(daemon.store).toBe(`level at ${join(cwd, 'data')}`);

    const page = await fetch(`${daemon.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const script = /src="(static\/app\.[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${daemon.url}/${script}`);
    expect(asset.status).toBe(200);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const record = { name: 'order-paid', data: { id: 42, paid: true }, statusCode: 201, delay: 250 };
    const add = await fetch(`${daemon.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(record) });
    expect(add.status).toBe(201);
    expect(await add.json()).toEqual({ success: true, ...record });
    const started = performance.now();
    const read = await fetch(`${daemon.url}/endpoint/order-paid`);
    expect(read.status).toBe(201);
    expect(await read.text()).toBe('{"id":42,"paid":true}');
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    const again = await requestJson(`${daemon.url}/api/endpoint/add`, {
      method: 'PUT',
      body: { name: 'order-paid', data: 1 },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: { code: 'NAME_TAKEN' } });

    expect(await daemon.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(daemon.stderr).toBe('');
  });

  it('--redis-url without @redis/client installed stops start-up with one line naming the package', async () => {
    expect(existsSync(join(prefix, 'lib', 'node_modules', '@redis'))).toBe(false);
    for (const [args, env] of [
      [['--redis-url', 'redis://127.0.0.1:9'], {}],
      [[], { MOCKPOINT_REDIS_URL: 'redis://127.0.0.1:9' }],
    ] as const) {
      const result = await run(bin, ['--port', '0', ...args], { cwd: prefix, env: freshEnv(home, env) });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^mockpoint: error: --redis-url \(MOCKPOINT_REDIS_URL\) needs @redis\/client, which is not installed: npm install -g @redis\/client@6 [^\n]*\n$/,
      );
      expect(result.stderr).not.toContain(prefix);
    }
  });

  it('SERVER_REPORTING_DSN without @sentry/node installed stops start-up with one line naming the package', async () => {
    const result = await run(bin, ['--port', '0', '--memory'], {
      cwd: prefix,
      env: freshEnv(home, { SERVER_REPORTING_DSN: 'http://key@127.0.0.1:9/1' }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^mockpoint: error: SERVER_REPORTING_DSN is set but @sentry\/node is not installed: npm install -g @sentry\/node@11 [^\n]*\n$/,
    );
  });

  describe('with @sentry/node installed next to it (the README command)', () => {
    let collector: SentryCollector;
    beforeAll(async () => {
      collector = await startSentryCollector();
      expectSuccess(
        'npm install -g @sentry/node@11',
        await run('npm', ['install', '-g', '--prefix', prefix, '@sentry/node@11'], {
          cwd: tarballs,
          env: freshEnv(home),
          timeoutMs: INSTALL_TIMEOUT,
        }),
      );
    }, INSTALL_TIMEOUT);
    afterAll(async () => {
      await collector?.close();
    });

    it('the installed daemon starts with reporting on and sends an unexpected error to the DSN', async () => {
      const daemon = await startDaemon({
        bin,
        args: ['--memory'],
        env: freshEnv(home, { SERVER_REPORTING_DSN: collector.dsn }),
      });
      expect(daemon.startLine).toContain('server error reporting on');
      expect(await daemon.stop('SIGINT')).toEqual({ code: 0, signal: null });

      // An unexpected error needs a failing store, so this drives the installed
      // package's startServer() from a script, resolving everything from the prefix.
      const marker = `installed-${process.pid}-${Date.now()}`;
      const result = await run(process.execPath, [REPORTING_FIXTURE], {
        cwd: prefix,
        env: freshEnv(home, {
          MOCKPOINT_SERVER_DIR: serverDir,
          MOCKPOINT_CORE_DIR: join(prefix, 'lib', 'node_modules', '@mockpoint', 'core'),
          MOCKPOINT_TEST_DSN: collector.dsn,
          MOCKPOINT_TEST_MARKER: marker,
        }),
      });
      expect(result).toMatchObject({ code: 0, stdout: '500\n' });
      const events = collector.events().filter((event) => JSON.stringify(event).includes(marker));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ exception: { values: [{ type: 'Error', value: `disk on fire ${marker}` }] } });
    });
  });

  it(
    'a twin needs @mockpoint/twins: without it one error naming the package, with its tarball a Stripe twin',
    async () => {
      // --twin reads the providers from the package: without it, start-up stops with one line naming it.
      const refused = await run(bin, ['--port', '0', '--memory', '--twin', 'stripe=0'], {
        cwd: prefix,
        env: freshEnv(home),
      });
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(
        /^mockpoint: error: --twin: the providers' twins are the package @mockpoint\/twins, not on the npm registry yet: [^\n]*\(npm install -g <clone>\/tarballs\/mockpoint-twins-<version>\.tgz\)\n$/,
      );
      const daemon = await startDaemon({ bin, args: ['--memory'], env: freshEnv(home) });
      try {
        const missing = await requestJson(`${daemon.url}/api/endpoints/pay/twin`, {
          method: 'PUT',
          body: { provider: 'stripe' },
        });
        expect(missing.status).toBe(400);
        expect(missing.body).toMatchObject({ success: false, error: { code: 'INVALID_TWIN' } });
        expect(JSON.stringify(missing.body)).toContain('tarballs/mockpoint-twins-<version>.tgz');
        // The providers' names are the package's too: GET /api/twins says to install it.
        const listed = await requestJson(`${daemon.url}/api/twins`);
        expect(listed).toMatchObject({ status: 400, body: { error: { code: 'INVALID_TWIN' } } });
        expect(JSON.stringify(listed.body)).toContain('tarballs/mockpoint-twins-<version>.tgz');
      } finally {
        await daemon.stop('SIGINT');
      }
      // docs/packages.md: the twins' tarball installed beside the daemon.
      expectSuccess(
        'npm install -g the twins',
        await run('npm', ['install', '-g', '--prefix', prefix, `./${packed.twins}`], {
          cwd: tarballs,
          env: freshEnv(home),
          timeoutMs: INSTALL_TIMEOUT,
        }),
      );
      const twinned = await startDaemon({ bin, args: ['--memory'], env: freshEnv(home) });
      try {
        const made = await requestJson(`${twinned.url}/api/endpoints/pay/twin`, {
          method: 'PUT',
          body: { provider: 'stripe' },
        });
        expect(made.status).toBe(200);
        expect(await requestJson(`${twinned.url}/api/twins`)).toMatchObject({
          status: 200,
          body: { providers: expect.arrayContaining(['stripe']) },
        });
        const customer = await fetch(`${twinned.url}/endpoint/pay/v1/customers`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk_test_installed', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'email=jenny%40example.com',
        });
        expect(customer.status).toBe(200);
        expect(await customer.json()).toMatchObject({ object: 'customer', email: 'jenny@example.com' });
      } finally {
        await twinned.stop('SIGINT');
      }
    },
    INSTALL_TIMEOUT,
  );
});

describe('pnpm add of the tarballs with the README override', () => {
  it(
    'installs the daemon into a project and `pnpm exec mockpoint` runs',
    async () => {
      const project = await makeTempDir('mockpoint-pnpm-project-');
      const pnpmHome = await makeTempDir('mockpoint-pnpm-home-');
      for (const file of [packed.core, packed.server]) {
        expectSuccess('cp', await run('cp', [join(tarballs, file), project], { cwd: project }));
      }
      const env = await withPnpmOnPath(freshEnv(pnpmHome));
      expectSuccess('npm init', await run('npm', ['init', '-y'], { cwd: project, env }));
      // The README's pnpm commands, word for word, through sh as a user types them.
      const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
      const install = readme.split('\n').find((line) => line.startsWith('npm pkg set ') && line.includes('pnpm add'));
      expect(install).toBeDefined();
      expectSuccess(
        'the README pnpm command',
        await run('sh', ['-c', install as string], { cwd: project, env, timeoutMs: INSTALL_TIMEOUT }),
      );
      const version = await run('sh', ['-c', 'pnpm exec mockpoint --version'], { cwd: project, env });
      expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' });
      const daemon = await startDaemon({
        bin: join(project, 'node_modules', '.bin', 'mockpoint'),
        args: ['--memory'],
        env,
      });
      expect((await requestJson(`${daemon.url}/api/health`)).body).toMatchObject({ status: 'ok', store: 'memory' });
      expect(await daemon.stop('SIGINT')).toEqual({ code: 0, signal: null });
    },
    INSTALL_TIMEOUT,
  );
});

describe("the Vitest plugin README's install commands", () => {
  const TEST_FILE = [
    "import { createMockServer } from '@mockpoint/vitest/server';",
    "import { expect, test } from '@mockpoint/vitest';",
    "test('an installed mock server answers and records', async () => {",
    '  await using mock = await createMockServer();',
    "  const hook = await mock.add({ name: 'hook', data: { ok: true } });",
    "  expect(await (await fetch(hook.url, { method: 'POST', body: '{}' })).json()).toEqual({ ok: true });",
    '  await expect(hook).toHaveBeenRequestedTimes(1);',
    '});',
    // `level` is an optional peer: not installed here, and its absence is named.
    "test('store: level without the level package says what to install', async () => {",
    "  await expect(createMockServer({ store: 'level' })).rejects.toMatchObject({",
    "    code: 'MISSING_DEPENDENCY',",
    "    message: expect.stringContaining('npm install --save-dev level@10'),",
    '  });',
    '});',
    '',
  ].join('\n');
  const readme = () => readFileSync(fileURLToPath(new URL('../../vitest-plugin/README.md', import.meta.url)), 'utf8');

  for (const manager of ['npm', 'pnpm'] as const) {
    it(
      `the ${manager} command installs @mockpoint/vitest and a test using it passes`,
      async () => {
        const command = readme()
          .split('\n')
          .find((line) =>
            manager === 'npm' ? line.startsWith('npm install --save-dev ./') : line.startsWith('npm pkg set '),
          );
        expect(command, `no ${manager} install line in the plugin README`).toBeDefined();
        const project = await makeTempDir(`mockpoint-plugin-${manager}-`);
        for (const file of [packed.core, packed.vitest]) {
          expectSuccess('cp', await run('cp', [join(tarballs, file), project], { cwd: project }));
        }
        const env = await withPnpmOnPath(freshEnv(await makeTempDir(`mockpoint-plugin-${manager}-home-`)));
        expectSuccess('npm init', await run('npm', ['init', '-y'], { cwd: project, env }));
        expectSuccess(
          `the README ${manager} command`,
          await run('sh', ['-c', command as string], { cwd: project, env, timeoutMs: INSTALL_TIMEOUT }),
        );
        writeFileSync(join(project, 'hook.test.ts'), TEST_FILE);
        // The README's one line of configuration: the setup entry registers the matchers.
        writeFileSync(
          join(project, 'vitest.config.mjs'),
          "export default { test: { setupFiles: ['@mockpoint/vitest/setup'] } };\n",
        );
        const result = await run(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
          cwd: project,
          env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
        });
        expect(result.code, result.stdout + result.stderr).toBe(0);
        expect(result.stdout).toMatch(/Tests\s+2 passed \(2\)/);
      },
      INSTALL_TIMEOUT,
    );
  }
});
