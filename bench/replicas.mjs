// pnpm bench, part 3: mockpoint replicas on one shared Redis (redis-server from
// Debian, unix socket, appendonly yes + appendfsync always), all on this machine:
//   1. the read path of one replica on Redis (cache hit) against a bare node:http
//      server sending the same bytes, in the same run;
//   2. durable adds per second through three replicas with 50 concurrent writers;
//   3. replace-to-visible latency: from the moment a replace is acknowledged by
//      one replica until each other replica (which had the old answer cached)
//      serves the new one; p50, p99 and max over many replaces.
// Bounded: a few seconds per measurement; every process started here is stopped here.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invoice } from './payloads.mjs';
import { start as startProcess, stop } from './server-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'packages/server/dist/cli.js');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const REPLACES = Number(process.env.BENCH_REPLACES ?? 500);
const QUEUE_ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 300);

const data = invoice;
const body = JSON.stringify(data);
const children = new Set();

function startRedis(dir) {
  const socket = join(dir, 'redis.sock');
  const child = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--dir', dir, '--save', ''].concat([
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ]),
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('ready to accept connections')) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ child, socket });
      }
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
}

/** A mockpoint or bare server process, killed in the `finally` below should the run stop early. */
const start = (args, env = {}) => startProcess(args, env, children);

const replica = (socket) => start([cli, '--port', '0', '--host', '127.0.0.1'], { MOCKPOINT_REDIS_URL: socket });

if (spawnSync('wrk', ['--version']).error !== undefined) {
  console.error('mockpoint bench: wrk is not installed (Debian: apt-get install wrk)');
  process.exit(1);
}
const toMs = (value, unit) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);

/** Runs the load generator against `url`; returns { rps, p99Ms, errors }. */
function load(url, seconds = DURATION_S) {
  const r = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1]);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(r.stdout);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout);
  return { rps, p99Ms: p99 ? toMs(p99[1], p99[2]) : Number.NaN, errors: errors ? 'non-2xx' : 0 };
}

async function add(url, record) {
  const res = await fetch(`${url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(record) });
  await res.arrayBuffer();
  return res.status;
}

async function benchRead(socket) {
  const bare = await start([join(root, 'bench/bare-server.mjs')], { BENCH_BODY: body, BENCH_STATUS: '201' });
  const mock = await replica(socket);
  if ((await add(mock.url, { name: 'bench-read', data, statusCode: 201 })) !== 201) throw new Error('add failed');
  const check = await fetch(`${mock.url}/endpoint/bench-read`);
  if ((await check.text()) !== body) throw new Error('mockpoint answered different bytes than the baseline');
  const mockUrl = `${mock.url}/endpoint/bench-read`;
  const bareUrl = `${bare.url}/endpoint/bench-read`;
  load(mockUrl, 2);
  load(bareUrl, 2);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const a = i % 2 === 0 ? load(bareUrl) : undefined;
    const m = load(mockUrl);
    const b = a ?? load(bareUrl);
    rounds.push({ bare: b, mock: m });
  }
  await Promise.all([stop(bare), stop(mock)]);
  const avg = (pick) => rounds.reduce((sum, r) => sum + pick(r), 0) / rounds.length;
  return {
    bare: { rps: avg((r) => r.bare.rps), p99Ms: avg((r) => r.bare.p99Ms) },
    mock: { rps: avg((r) => r.mock.rps), p99Ms: avg((r) => r.mock.p99Ms) },
    errors: rounds.flatMap((r) => [r.bare.errors, r.mock.errors]).filter((e) => e),
  };
}

async function benchAdds(replicas, writers = 50, seconds = 5) {
  const deadline = Date.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  const latencies = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < deadline; i++) {
        const t0 = performance.now();
        const status = await add(replicas[(w + i) % replicas.length].url, { name: `adds-${w}-${i}`, data });
        latencies.push(performance.now() - t0);
        if (status === 201) ok++;
        else failed++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { writers, rps: ok / seconds, ok, failed, p99Ms: latencies[Math.floor(latencies.length * 0.99)] };
}

/** Reads until `url` answers `text`; resolves when it did (performance.now()) and how many reads were stale. */
async function until(url, text) {
  for (let stale = 0; stale < 100_000; stale++) {
    const res = await fetch(url);
    if ((await res.text()) === text) return { at: performance.now(), stale };
  }
  throw new Error(`${url} never answered ${text}`);
}

async function benchReplaceToVisible(replicas, replaces = REPLACES) {
  const name = 'bench-replace';
  await add(replicas[0].url, { name, data: 0 });
  const latencies = [];
  const roundTrips = [];
  let staleFirstReads = 0;
  for (let round = 1; round <= replaces; round++) {
    const writer = replicas[round % replicas.length];
    const others = replicas.filter((r) => r !== writer);
    // Every other replica has the current answer cached; the last of these reads
    // (a cache hit) is the round-trip baseline every measured read includes.
    for (const r of others) {
      await until(`${r.url}/endpoint/${name}`, String(round - 1));
      const t0 = performance.now();
      await until(`${r.url}/endpoint/${name}`, String(round - 1));
      roundTrips.push(performance.now() - t0);
    }
    const res = await fetch(`${writer.url}/api/endpoints/${name}`, {
      method: 'PUT',
      body: JSON.stringify({ data: round }),
    });
    await res.arrayBuffer();
    const acknowledged = performance.now();
    if (res.status !== 200) throw new Error(`replace failed: ${res.status}`);
    const seen = await Promise.all(others.map((r) => until(`${r.url}/endpoint/${name}`, String(round))));
    for (const { at, stale } of seen) {
      latencies.push(at - acknowledged);
      if (stale > 0) staleFirstReads++;
    }
  }
  const quantile = (list, q) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  };
  return {
    samples: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
    over10: latencies.filter((l) => l > 10).length,
    staleFirstReads,
    roundTripP50: quantile(roundTrips, 0.5),
    roundTripP99: quantile(roundTrips, 0.99),
  };
}

/**
 * Queued answers shared by the replicas: a push on one (acknowledged once every
 * replica has seen it), then at once a request to another, which must get the
 * queued answer; then a cache-hit GET on that replica as the round-trip baseline.
 */
async function benchQueue(replicas, rounds = QUEUE_ROUNDS) {
  const name = 'bench-queue';
  await add(replicas[0].url, { name, data: 'stored' });
  const pushes = [];
  const queuedReads = [];
  const storedReads = [];
  let missed = 0;
  for (let round = 0; round < rounds; round++) {
    const pusher = replicas[round % replicas.length];
    const other = replicas[(round + 1) % replicas.length];
    const t0 = performance.now();
    const pushed = await fetch(`${pusher.url}/api/endpoints/${name}/queue`, {
      method: 'POST',
      body: '{"answers":[{"statusCode":503,"data":"queued"}]}',
    });
    await pushed.arrayBuffer();
    const t1 = performance.now();
    if (pushed.status !== 201) throw new Error(`push failed: ${pushed.status}`);
    const queued = await fetch(`${other.url}/endpoint/${name}`);
    if ((await queued.text()) !== '"queued"') missed++;
    const t2 = performance.now();
    await (await fetch(`${other.url}/endpoint/${name}`)).arrayBuffer();
    storedReads.push(performance.now() - t2);
    pushes.push(t1 - t0);
    queuedReads.push(t2 - t1);
  }
  const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))];
  const summary = (list) => ({ p50: quantile(list, 0.5), p99: quantile(list, 0.99) });
  return { rounds, missed, push: summary(pushes), queued: summary(queuedReads), stored: summary(storedReads) };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const dir = mkdtempSync(join(tmpdir(), 'mockpoint-bench-redis-'));
try {
  const redis = await startRedis(dir);
  const version = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1];
  console.log(
    `\nreplicas on Redis ${version} (unix socket, appendonly yes, appendfsync always), Node ${process.version}, load by wrk (1 thread)`,
  );

  const read = await benchRead(redis.socket);
  console.log('\nread path on Redis, cache hit  GET /endpoint/{name}');
  console.log(`  bare node:http   ${fmt(read.bare.rps).padStart(8)} req/s   p99 ${fmt(read.bare.p99Ms, 2)} ms`);
  console.log(`  mockpoint        ${fmt(read.mock.rps).padStart(8)} req/s   p99 ${fmt(read.mock.p99Ms, 2)} ms`);
  console.log(`  ratio            ${fmt(read.mock.rps / read.bare.rps, 2)} x bare node:http`);
  if (read.errors.length) console.log(`  errors: ${read.errors.join(', ')}`);

  const replicas = await Promise.all([replica(redis.socket), replica(redis.socket), replica(redis.socket)]);
  const adds = await benchAdds(replicas);
  console.log(`\ndurable adds through 3 replicas  PUT /api/endpoint/add, ${adds.writers} concurrent writers`);
  console.log(`  ${fmt(adds.rps)} adds/s   p99 ${fmt(adds.p99Ms, 1)} ms   (${adds.ok} ok, ${adds.failed} failed)`);

  const visible = await benchReplaceToVisible(replicas);
  console.log(
    `\nreplace-to-visible across 3 replicas (acknowledged on one -> served by another), ${visible.samples} samples`,
  );
  console.log(
    `  ack -> new answer read: p50 ${fmt(visible.p50, 2)} ms   p99 ${fmt(visible.p99, 2)} ms   max ${fmt(visible.max, 2)} ms   (${visible.over10} over 10 ms)`,
  );
  console.log(
    `  (each includes one cache-hit GET round trip: p50 ${fmt(visible.roundTripP50, 2)} ms, p99 ${fmt(visible.roundTripP99, 2)} ms)`,
  );
  console.log(
    `  first read after the acknowledgement still answered the old data: ${visible.staleFirstReads} of ${visible.samples}`,
  );
  const queue = await benchQueue(replicas);
  console.log(
    `\nqueued answers across 3 replicas (push on one, then at once a request to another), ${queue.rounds} rounds`,
  );
  console.log(
    `  push acknowledged (every replica confirmed): p50 ${fmt(queue.push.p50, 2)} ms   p99 ${fmt(queue.push.p99, 2)} ms`,
  );
  console.log(
    `  request answered from the queue:             p50 ${fmt(queue.queued.p50, 2)} ms   p99 ${fmt(queue.queued.p99, 2)} ms`,
  );
  console.log(
    `  cache-hit GET on the same replica:           p50 ${fmt(queue.stored.p50, 2)} ms   p99 ${fmt(queue.stored.p99, 2)} ms`,
  );
  console.log(`  requests right after the 201 that missed the queued answer: ${queue.missed} of ${queue.rounds}`);
  await Promise.all(replicas.map(stop));
  await stop(redis);
} finally {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
