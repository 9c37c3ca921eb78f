// What a test session costs per test in a Vitest run, beside the same tests without sessions and
// with MSW. A project outside the repository (its node_modules linking the built packages of
// BENCH_REPO, this repository by default, and msw, installed by npm on first use) runs BENCH_TESTS
// tests, each adding one endpoint and reading it once, as:
//   session     mockpoint({ sessions: true }): each test in a namespace of its own (opened,
//               used, checked for unhandled requests and deleted after the test);
//   plain       mockpoint() without sessions: each test adds an endpoint of its own name to the
//               run's instance (connectMockServer(inject('mockpoint')));
//   msw         MSW's setupServer: a handler per test (server.use) answering the same JSON,
//               server.resetHandlers() after each (sequential only: MSW's handlers are global,
//               so concurrent tests would reset each other's).
// Each sequentially, and (session, plain) as test.concurrent (BENCH_CONCURRENCY at once).
// Reported per kind: the median of the tests' own durations (Vitest's JSON report), the wall
// time of the whole run (spawn to exit: Vitest's start, the run instance, the tests) and the CPU
// of the whole run per test (Linux: the children's times in /proc/self/stat), medians of
// BENCH_ROUNDS alternated runs; then the ratios session/plain and session/msw.
//
//   node bench/session-tests.mjs
//   BENCH_REPO=/path/to/other/checkout BENCH_TESTS=200 BENCH_ROUNDS=3 node bench/session-tests.mjs
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const REPO = resolve(process.env.BENCH_REPO ?? HERE);
const TESTS = Number(process.env.BENCH_TESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** MSW 2 (3.x needs Node 22; the repository supports Node 20.19). */
const MSW_VERSION = '2.15.0';
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const KINDS = (process.env.BENCH_KINDS ?? 'session,plain,msw,session-concurrent,plain-concurrent').split(',');

const config = (
  plugin,
) => `${plugin ? "import { mockpoint } from '@mockpoint/vitest/plugin';\n" : ''}import { defineConfig } from 'vitest/config';
export default defineConfig({ plugins: [${plugin}], test: { include: ['*.test.ts'], maxConcurrency: ${CONCURRENCY} } });
`;

const sessionTest = (each) => `import { test } from '@mockpoint/vitest';
for (let i = 0; i < ${TESTS}; i++) {
  ${each}(\`t\${i}\`, async ({ session, expect }) => {
    const user = await session.add({ name: 'user', data: { i } });
    expect(await (await fetch(user.url)).json()).toEqual({ i });
  });
}
`;

const plainTest = (each) => `import { connectMockServer } from '@mockpoint/vitest';
import { expect, inject, test } from 'vitest';
const mock = connectMockServer(inject('mockpoint'));
for (let i = 0; i < ${TESTS}; i++) {
  ${each}(\`t\${i}\`, async () => {
    const user = await mock.add({ name: \`user\${i}\`, data: { i } });
    expect(await (await fetch(user.url)).json()).toEqual({ i });
  });
}
`;

const mswTest = `import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
for (let i = 0; i < ${TESTS}; i++) {
  test(\`t\${i}\`, async () => {
    server.use(http.get('http://api.test/endpoint/user', () => HttpResponse.json({ i })));
    expect(await (await fetch('http://api.test/endpoint/user')).json()).toEqual({ i });
  });
}
`;

/** Each kind: its config and its test file. */
const FILES = {
  session: [config('mockpoint({ sessions: true })'), sessionTest('test')],
  plain: [config('mockpoint()'), plainTest('test')],
  msw: [config(''), mswTest],
  'session-concurrent': [config('mockpoint({ sessions: true })'), sessionTest('test.concurrent')],
  'plain-concurrent': [config('mockpoint()'), plainTest('test.concurrent')],
};

/**
 * MSW for the msw kind, installed once by npm into node_modules/.cache of this checkout (or
 * BENCH_MSW_DIR, a directory with node_modules/msw). Not a dependency of the workspace: Vitest
 * declares msw an optional peer, so pnpm would link it into every Vitest install, `pnpm start`'s
 * too (scripts/install-scope.test.ts).
 */
function mswDir() {
  const dir = process.env.BENCH_MSW_DIR ?? join(HERE, 'node_modules/.cache/mockpoint-bench-msw');
  const msw = join(dir, 'node_modules/msw');
  if (!existsSync(join(msw, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `msw@${MSW_VERSION}`],
      { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (npm.status !== 0) throw new Error(`npm could not install msw@${MSW_VERSION} into ${dir}`);
  }
  return msw;
}

function project(kind) {
  const dir = mkdtempSync(join(tmpdir(), `mockpoint-session-bench-${kind}-`));
  const [configText, testText] = FILES[kind];
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(join(dir, 'vitest.config.ts'), configText);
  writeFileSync(join(dir, 'bench.test.ts'), testText);
  const links = {
    '@mockpoint/vitest': join(REPO, 'packages/vitest-plugin'),
    '@mockpoint/core': join(REPO, 'packages/core'),
    vitest: join(REPO, 'node_modules/vitest'),
  };
  if (kind === 'msw') links.msw = mswDir();
  for (const [name, target] of Object.entries(links)) {
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(target), link, 'dir');
  }
  return dir;
}

/** CPU milliseconds of this process's waited-for children (Linux), or NaN elsewhere. */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // cutime and cstime: fields 16 and 17 of stat, in clock ticks (100 a second).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

function round(dir) {
  const report = join(dir, 'report.json');
  const cpuBefore = childrenCpuMs();
  const began = performance.now();
  const run = spawnSync(
    process.execPath,
    [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--reporter=json', `--outputFile=${report}`],
    { encoding: 'utf8', env: { ...process.env, MOCKPOINT_URL: '', NO_COLOR: '1' }, timeout: 600_000 },
  );
  const wall = performance.now() - began;
  if (results(report).length !== TESTS || run.status !== 0) {
    throw new Error(`the bench project failed:\n${run.stdout}${run.stderr}`);
  }
  const cpu = (childrenCpuMs() - cpuBefore) / TESTS;
  const durations = results(report)
    .map((result) => result.duration)
    .sort((a, b) => a - b);
  return {
    median: durations[Math.floor(durations.length / 2)],
    wall,
    cpu,
  };
}

function results(report) {
  try {
    return JSON.parse(readFileSync(report, 'utf8')).testResults.flatMap((file) => file.assertionResults);
  } catch {
    return [];
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const dirs = Object.fromEntries(KINDS.map((kind) => [kind, project(kind)]));
try {
  console.log(
    `\nsession tests: ${REPO}: ${TESTS} tests each adding an endpoint and reading it, ${ROUNDS} alternated rounds (concurrent: ${CONCURRENCY} at once)`,
  );
  const rows = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of KINDS) rows[kind].push({ ...round(dirs[kind]), load: loadavg()[0] });
  }
  const summary = {};
  for (const kind of KINDS) {
    const list = rows[kind];
    summary[kind] = {
      median: median(list.map((r) => r.median)),
      wall: median(list.map((r) => r.wall)),
      cpu: median(list.map((r) => r.cpu)),
    };
    console.log(
      `  ${kind.padEnd(18)} median test ${summary[kind].median.toFixed(1)} ms, run ${(summary[kind].wall / 1000).toFixed(2)} s, CPU ${summary[kind].cpu.toFixed(1)} ms a test (runs: ${list.map((r) => (r.wall / 1000).toFixed(2)).join(' ')} s; load ${list.map((r) => r.load.toFixed(1)).join(' ')})`,
    );
  }
  const ratio = (a, b, field) =>
    summary[a] && summary[b] ? `${(summary[a][field] / summary[b][field]).toFixed(2)} ×` : 'not run';
  for (const [a, b] of [
    ['session', 'plain'],
    ['session-concurrent', 'plain-concurrent'],
    ['session', 'msw'],
  ]) {
    console.log(
      `  ${a} / ${b}: median test ${ratio(a, b, 'median')}, run ${ratio(a, b, 'wall')}, CPU ${ratio(a, b, 'cpu')}`,
    );
  }
} finally {
  for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
}
