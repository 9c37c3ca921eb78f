// pnpm bench (namespaces): what a test session costs on the daemon alone. One round of a test in
// a session makes a namespace, adds an endpoint in it, reads it and deletes the namespace
// (POST /api/namespaces, PUT /ns/{ns}/api/endpoints/user, GET /ns/{ns}/endpoint/user,
// DELETE /api/namespaces/{ns}); the same test without sessions adds, reads and deletes an endpoint
// of the default namespace (PUT, GET, DELETE /api/endpoints/{name}). BENCH_TESTS rounds one after
// another, then BENCH_TESTS concurrently, on a fresh daemon per store (memory, as the Vitest plugin's
// run instance; LevelDB, the daemon's default), 127.0.0.1 only; the two kinds alternate
// BENCH_ROUNDS times (BENCH_CONCURRENCY tests at once in the concurrent batch). Reported: the median round (sequential) and the wall time of the batch
// (concurrent), the daemon's CPU per round, and the session/plain ratio of each (median of the
// rounds' ratios). Bounded: a few seconds per store.
//
//   BENCH_TESTS=200 BENCH_ROUNDS=5 BENCH_STORES=memory,level node bench/namespaces.mjs
//   BENCH_CLI=/path/to/other/packages/server/dist/cli.js node bench/namespaces.mjs   (another build)
//   BENCH_BATCH=8 node bench/namespaces.mjs   (sessions opened 8 at a time, as the Vitest plugin does)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop } from './server-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const TESTS = Number(process.env.BENCH_TESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Tests running at once in the concurrent batch (as Vitest's maxConcurrency bounds test.concurrent). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const STORES = (process.env.BENCH_STORES ?? 'memory,level').split(',');
const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-namespaces-'));

async function expectStatus(response, status, what) {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

/** One test in a session: make a namespace, add and read an endpoint in it, delete it. */
async function sessionTest(url, i) {
  let name;
  if (BATCH > 0) name = await takeNamespace(url);
  else {
    const made = await expectStatus(
      await fetch(`${url}/api/namespaces`, { method: 'POST', body: '{}' }),
      201,
      'create',
    );
    ({ name } = await made.json());
  }
  const base = `${url}/ns/${name}`;
  const body = JSON.stringify({ data: { i } });
  await (await expectStatus(await fetch(`${base}/api/endpoints/user`, { method: 'PUT', body }), 201, 'add')).text();
  await (await expectStatus(await fetch(`${base}/endpoint/user`), 200, 'read')).text();
  await expectStatus(await fetch(`${url}/api/namespaces/${name}`, { method: 'DELETE' }), 204, 'delete');
}

/**
 * BENCH_BATCH=n (a build with `count`): the test in a session takes its namespace from a pool
 * opened n at a time (`POST /api/namespaces { count }`), as the Vitest plugin opens a file's
 * sessions (batches of up to 8): a request per n tests instead of one each.
 */
const BATCH = Number(process.env.BENCH_BATCH ?? 0);
const pool = [];
let filling;
async function takeNamespace(url) {
  for (;;) {
    const ready = pool.shift();
    if (ready !== undefined) return ready;
    filling ??= (async () => {
      const body = JSON.stringify({ count: BATCH });
      const made = await expectStatus(await fetch(`${url}/api/namespaces`, { method: 'POST', body }), 201, 'create');
      pool.push(...(await made.json()).namespaces.map((ns) => ns.name));
    })().finally(() => {
      filling = undefined;
    });
    await filling;
  }
}

/** The same test without sessions: add, read and delete an endpoint of its own name. */
async function plainTest(url, i) {
  const name = `t${i}`;
  const body = JSON.stringify({ data: { i } });
  await (await expectStatus(await fetch(`${url}/api/endpoints/${name}`, { method: 'PUT', body }), 201, 'add')).text();
  await (await expectStatus(await fetch(`${url}/endpoint/${name}`), 200, 'read')).text();
  await expectStatus(await fetch(`${url}/api/endpoints/${name}`, { method: 'DELETE' }), 204, 'delete');
}

/** CPU milliseconds the process `pid` has used (Linux: utime + stime of /proc/pid/stat), NaN elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** BENCH_TESTS tests one after another: the median test, and the daemon's CPU per test. */
async function sequential(server, test) {
  const times = [];
  const cpuBefore = cpuMs(server.child.pid);
  for (let i = 0; i < TESTS; i++) {
    const began = performance.now();
    await test(server.url, i);
    times.push(performance.now() - began);
  }
  return { ms: median(times), cpu: (cpuMs(server.child.pid) - cpuBefore) / TESTS };
}

/** BENCH_TESTS tests, BENCH_CONCURRENCY at a time: the wall time of the batch, and the daemon's CPU per test. */
async function concurrent(server, test) {
  const cpuBefore = cpuMs(server.child.pid);
  const began = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < TESTS) await test(server.url, TESTS + next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, TESTS) }, lane));
  return { ms: performance.now() - began, cpu: (cpuMs(server.child.pid) - cpuBefore) / TESTS };
}

const fmt = (n) => n.toFixed(2);

async function measure(store) {
  const args = [cli, '--port', '0', '--host', '127.0.0.1'];
  args.push(...(store === 'memory' ? ['--memory'] : ['--data-dir', mkdtempSync(join(work, 'data-'))]));
  const server = await start(args);
  try {
    // Warm both paths (the first namespace, the first endpoint) before measuring.
    for (let i = 0; i < 20; i++) {
      await sessionTest(server.url, 10_000 + i);
      await plainTest(server.url, 10_000 + i);
    }
    const rows = { sequential: [], concurrent: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, run] of [
        ['sequential', sequential],
        ['concurrent', concurrent],
      ]) {
        const plain = await run(server, plainTest);
        const session = await run(server, sessionTest);
        rows[kind].push({ plain, session, ratio: session.ms / plain.ms, cpuRatio: session.cpu / plain.cpu });
      }
    }
    for (const [kind, list] of Object.entries(rows)) {
      const what = kind === 'sequential' ? 'median test' : `wall of ${TESTS}, ${CONCURRENCY} at once`;
      console.log(
        `  ${store.padEnd(6)} ${kind.padEnd(10)} ${what}: session ${fmt(median(list.map((r) => r.session.ms)))} ms vs plain ${fmt(median(list.map((r) => r.plain.ms)))} ms = ${fmt(median(list.map((r) => r.ratio)))} × (rounds ${list.map((r) => fmt(r.ratio)).join(' ')}); daemon CPU a test ${fmt(median(list.map((r) => r.session.cpu)))} vs ${fmt(median(list.map((r) => r.plain.cpu)))} ms = ${fmt(median(list.map((r) => r.cpuRatio)))} ×`,
      );
    }
    // What the pool holds still is not a test's: deleted before the check.
    for (const name of pool.splice(0)) await fetch(`${server.url}/api/namespaces/${name}`, { method: 'DELETE' });
    const namespaces = await (await fetch(`${server.url}/api/namespaces`)).json();
    if (namespaces.namespaces.length !== 0) throw new Error(`${namespaces.namespaces.length} namespaces left`);
  } finally {
    await stop(server);
  }
}

try {
  console.log(
    `\nnamespaces: a test in a session (make, add, read, delete a namespace) vs the same test on a plain endpoint, ${TESTS} tests, ${ROUNDS} rounds${BATCH > 0 ? `, namespaces opened ${BATCH} at a time` : ''} (load ${loadavg()[0].toFixed(1)}, ${cli})`,
  );
  for (const store of STORES) await measure(store);
} finally {
  rmSync(work, { recursive: true, force: true });
}
