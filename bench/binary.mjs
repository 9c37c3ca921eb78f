// The single executable against the daemon run by node: how long `--version` takes
// and how long a cold start takes until the start-up line (LevelDB in a new
// temporary directory), each the wall time of a spawned process. Builds the
// host's linux-x64 executable first when it is missing or stale (scripts/binaries.mjs).
// On a shared, busy machine most of a short run's wall time is waiting for a core:
// as root, `--version` is also timed under SCHED_FIFO (`chrt -f 10`), which runs it
// ahead of every ordinary process, as on an idle machine. Then the serving paths of
// both under the same wrk load (bench/binary-paths.mjs).
//
//   node bench/binary.mjs [--runs 30] [--start-runs 10]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchBinaryPaths } from './binary-paths.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '30' }, 'start-runs': { type: 'string', default: '10' } },
});
const RUNS = Number(values.runs);
const START_RUNS = Number(values['start-runs']);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'packages', 'server', 'dist', 'cli.js');
const EXE = join(ROOT, 'dist', 'binaries', 'mockpoint-linux-x64');

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error('bench/binary: runs the linux-x64 executable; this machine is not linux-x64');
  process.exit(1);
}
if (!existsSync(CLI)) {
  console.error(`bench/binary: ${CLI} is missing; run \`pnpm build\` first`);
  process.exit(1);
}
const build = spawnSync(
  process.execPath,
  [join(ROOT, 'scripts', 'binaries.mjs'), '--target', 'linux-x64', '--if-stale'],
  {
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(1);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (ms) => `${ms.toFixed(1)} ms`;
  return `median ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, min ${f(sorted[0])} (n=${sorted.length})`;
}

/** Wall time of `command args` run to its end, `runs` times (after one warm-up run). */
function timeRuns(command, args, runs) {
  spawnSync(command, args);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const run = spawnSync(command, args, { encoding: 'utf8' });
    samples.push(performance.now() - t0);
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  }
  return samples;
}

/** Wall time from spawn to the start-up line, LevelDB in a new directory; then SIGTERM. */
async function coldStart(command, args) {
  const dir = mkdtempSync(join(tmpdir(), 'mockpoint-bench-binary-'));
  const t0 = performance.now();
  const child = spawn(command, [...args, '--port', '0', '--host', '127.0.0.1', '--data-dir', join(dir, 'data')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const ms = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes(' listening on ')) resolve(performance.now() - t0);
    });
    child.once('exit', (code) => reject(new Error(`${command} exited ${code} before its start-up line: ${out}`)));
  });
  child.removeAllListeners('exit');
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

async function coldStarts(command, args) {
  await coldStart(command, args);
  const samples = [];
  for (let i = 0; i < START_RUNS; i++) samples.push(await coldStart(command, args));
  return samples;
}

console.log(`mockpoint-linux-x64: ${(statSync(EXE).size / 1e6).toFixed(1)} MB`);
console.log(`--version, the executable:      ${summary(timeRuns(EXE, ['--version'], RUNS))}`);
console.log(`--version, node dist/cli.js:    ${summary(timeRuns(process.execPath, [CLI, '--version'], RUNS))}`);
if (process.getuid?.() === 0 && spawnSync('chrt', ['-f', '10', 'true']).status === 0) {
  const fifo = (command, args) => summary(timeRuns('chrt', ['-f', '10', command, ...args], RUNS));
  console.log(`--version, the executable, SCHED_FIFO:   ${fifo(EXE, ['--version'])}`);
  console.log(`--version, node dist/cli.js, SCHED_FIFO: ${fifo(process.execPath, [CLI, '--version'])}`);
}
console.log(`start (LevelDB), the executable:   ${summary(await coldStarts(EXE, []))}`);
console.log(`start (LevelDB), node dist/cli.js: ${summary(await coldStarts(process.execPath, [CLI]))}`);
await benchBinaryPaths({ exe: EXE, cli: CLI });
