// `ready` (issue #64): from spawning the daemon's CLI on a data directory that holds one endpoint
// to that endpoint's first answer, against a bare node:http server's spawn to first answer in the
// same run (bench/bare-server.mjs), the two (three with BENCH_CLI) alternated start by start.
//
//   node bench/ready.mjs                 # this clone's build (`pnpm build` first)
//   BENCH_CLI=<other cli.js> node bench/ready.mjs   # and another build, alternated with it
//   BENCH_RUNS=15 node bench/ready.mjs   # starts of each (default 11)
//
// Each start: `node <cli> --data-dir <a fresh copy of the seeded directory> --port 0`, its listening
// line read from stdout, then `GET /endpoint/stub` until it answers 200 (the first stub answered);
// its RSS and its main thread's CPU time read from /proc at that moment (Linux; the CPU time is
// less swayed by other processes than the wall clock). Medians, ranges and the load average are printed.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const bare = join(root, 'bench/bare-server.mjs');
const builds = [join(root, 'packages/server/dist/cli.js'), ...(process.env.BENCH_CLI ? [process.env.BENCH_CLI] : [])];
for (const cli of builds) {
  if (!existsSync(cli)) {
    console.error(`bench/ready: ${cli} is missing; run \`pnpm build\` first`);
    process.exit(1);
  }
}
const temp = mkdtempSync(join(tmpdir(), 'mockpoint-bench-ready-'));

/** One GET of `url`: its status, or undefined when it could not connect. */
function get(url) {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** Resident memory of `pid` in MB (Linux), else NaN. */
function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of `pid`'s main thread in ms (Linux /proc/<pid>/schedstat), else NaN: less swayed by load than the wall clock. */
function cpuMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * Spawns `node ...args`, waits for its listening line, asks `path` until 200; the times from the
 * spawn to the line and to that answer, and the RSS and main thread's CPU time then. `seed` (optional) is run on the URL first.
 */
function once(args, path, seed) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let asked = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer within 30 s:\n${out}`));
    }, 30_000);
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.stdout.on('data', async (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url === undefined || asked) return;
      asked = true;
      const line = performance.now() - t0;
      if (seed) await seed(url);
      while ((await get(`${url}${path}`)) !== 200);
      const ready = performance.now() - t0;
      const rss = rssMb(child.pid);
      const cpu = cpuMs(child.pid);
      clearTimeout(timer);
      child.once('exit', () => resolve({ line, ready, rss, cpu }));
      child.kill('SIGTERM');
    });
    child.once('error', reject);
  });
}

/** A data directory holding one endpoint, `stub`, stored by `cli` itself (its own format). */
async function seeded(cli, i) {
  const dir = join(temp, `seed-${i}`);
  await once([cli, '--data-dir', dir, '--port', '0'], '/endpoint/stub', async (url) => {
    const put = await fetch(`${url}/api/endpoints/stub`, { method: 'PUT', body: '{"data":{"hello":"world"}}' });
    if (put.status !== 201) throw new Error(`seeding ${cli}: PUT answered ${put.status}`);
  });
  return dir;
}

const seeds = [];
for (const [i, cli] of builds.entries()) seeds.push(await seeded(cli, i));
const results = new Map([['bare node:http', []], ...builds.map((cli) => [cli, []])]);
const loadBefore = loadavg()[0];
for (let run = 0; run < RUNS; run++) {
  results.get('bare node:http').push(await once([bare], '/'));
  for (const [i, cli] of builds.entries()) {
    const dir = join(temp, `run-${run}-${i}`);
    cpSync(seeds[i], dir, { recursive: true });
    results.get(cli).push(await once([cli, '--data-dir', dir, '--port', '0'], '/endpoint/stub'));
    rmSync(dir, { recursive: true, force: true });
  }
}
const loadAfter = loadavg()[0];
rmSync(temp, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
console.log(
  `ready: spawn to the first stub answered, ${RUNS} starts each, alternated (node ${process.version}, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)})`,
);
const bareReady = median(results.get('bare node:http').map((r) => r.ready));
for (const [name, rs] of results) {
  const ready = rs.map((r) => r.ready);
  const label = name === 'bare node:http' ? name : name.replace(`${root}/`, '');
  console.log(
    `  ${label}: ready median ${median(ready).toFixed(0)} ms (${range(ready)}), ${(median(ready) / bareReady).toFixed(2)} × bare; ` +
      `listening line median ${median(rs.map((r) => r.line)).toFixed(0)} ms; main thread's CPU until the answer median ` +
      `${median(rs.map((r) => r.cpu)).toFixed(0)} ms; RSS at the first answer median ${median(rs.map((r) => r.rss)).toFixed(1)} MB`,
  );
}
