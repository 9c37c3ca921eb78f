// What a test session costs per test: a project outside the repository (its node_modules linking
// the built packages of BENCH_REPO, this repository by default) with BENCH_TESTS sequential tests
// that each add one endpoint in their session and read it once, run by Vitest with
// mockpoint({ sessions: true }); the median and mean of the tests' own durations (Vitest's JSON
// report: the session's opening, its use, its check and deletion after the test), and the CPU
// time of the whole run (Vitest, its worker, the run's instance) per test, which a busy machine
// disturbs less (Linux: the children's times in /proc/self/stat). BENCH_ROUNDS runs.
//
//   node bench/session-tests.mjs
//   BENCH_REPO=/path/to/other/checkout BENCH_TESTS=200 BENCH_ROUNDS=3 node bench/session-tests.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(process.env.BENCH_REPO ?? fileURLToPath(new URL('..', import.meta.url)));
const TESTS = Number(process.env.BENCH_TESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const CONFIG = `import { mockpoint } from '@mockpoint/vitest/plugin';
import { defineConfig } from 'vitest/config';
export default defineConfig({ plugins: [mockpoint({ sessions: true })], test: { include: ['*.test.ts'] } });
`;

const TEST = `import { test } from '@mockpoint/vitest';
for (let i = 0; i < ${TESTS}; i++) {
  test(\`t\${i}\`, async ({ session, expect }) => {
    const user = await session.add({ name: 'user', data: { i } });
    expect(await (await fetch(user.url)).json()).toEqual({ i });
  });
}
`;

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'mockpoint-session-bench-'));
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(join(dir, 'vitest.config.ts'), CONFIG);
  writeFileSync(join(dir, 'bench.test.ts'), TEST);
  const links = {
    '@mockpoint/vitest': join(REPO, 'packages/vitest-plugin'),
    '@mockpoint/core': join(REPO, 'packages/core'),
    vitest: join(REPO, 'node_modules/vitest'),
  };
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
  const run = spawnSync(
    process.execPath,
    [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--reporter=json', `--outputFile=${report}`],
    { encoding: 'utf8', env: { ...process.env, MOCKPOINT_URL: '', NO_COLOR: '1' }, timeout: 600_000 },
  );
  if (run.status !== 0) throw new Error(`the bench project failed:\n${run.stdout}${run.stderr}`);
  const cpu = (childrenCpuMs() - cpuBefore) / TESTS;
  const results = JSON.parse(readFileSync(report, 'utf8')).testResults.flatMap((file) => file.assertionResults);
  const durations = results.map((result) => result.duration).sort((a, b) => a - b);
  return {
    median: durations[Math.floor(durations.length / 2)],
    mean: durations.reduce((sum, ms) => sum + ms, 0) / durations.length,
    cpu,
  };
}

const dir = project();
try {
  console.log(`${REPO}: ${TESTS} sequential tests, each in a session, ${ROUNDS} rounds`);
  for (let i = 0; i < ROUNDS; i++) {
    const load = loadavg()[0].toFixed(1);
    const { median, mean, cpu } = round(dir);
    console.log(
      `round ${i + 1}: median ${median.toFixed(1)} ms a test, mean ${mean.toFixed(1)} ms, CPU ${cpu.toFixed(1)} ms a test (load ${load})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
