// pnpm bench: mockpoint's read path against a bare node:http server sending the
// same bytes, in the same run, on 127.0.0.1; then durable-add throughput.
// Each server runs in its own process; the load generator (wrk when installed,
// else autocannon) runs in another. Bounded: a few seconds per measurement.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'packages/server/dist/cli.js');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

// ~1 KB of JSON, status 201, as the issue asks.
const data = {
  id: 'evt_01HZY3',
  type: 'invoice.paid',
  created: 1764000000,
  livemode: false,
  items: Array.from({ length: 8 }, (_, i) => ({
    sku: `SKU-${1000 + i}`,
    qty: i + 1,
    price: 9.99 * (i + 1),
    note: 'x'.repeat(40),
  })),
};
const body = JSON.stringify(data);

function start(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1].replace('localhost', '127.0.0.1') });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening`)));
  });
}

function stop({ child }) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

function toMs(value, unit) {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);
}

/** Runs the load generator against `url`; returns { rps, p99Ms, errors }. */
function load(url, seconds = DURATION_S) {
  if (hasWrk) {
    const r = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', url], { encoding: 'utf8' });
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1]);
    const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(r.stdout);
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout);
    const socket = /Socket errors: (.*)/.exec(r.stdout);
    return { rps, p99Ms: p99 ? toMs(p99[1], p99[2]) : Number.NaN, errors: errors ? 'non-2xx' : socket ? socket[1] : 0 };
  }
  const bin = join(root, 'node_modules/.bin/autocannon');
  const r = spawnSync(bin, ['-j', '-c', String(CONNECTIONS), '-d', String(seconds), url], { encoding: 'utf8' });
  const result = JSON.parse(r.stdout);
  return { rps: result.requests.average, p99Ms: result.latency.p99, errors: result.errors + result.non2xx };
}

async function benchRead() {
  const bare = await start([join(root, 'bench/bare-server.mjs')], { BENCH_BODY: body, BENCH_STATUS: '201' });
  const mock = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1']);
  const add = await fetch(`${mock.url}/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'bench', data, statusCode: 201 }),
  });
  if (add.status !== 201) throw new Error(`add failed: ${add.status} ${await add.text()}`);
  const check = await fetch(`${mock.url}/endpoint/bench`);
  if ((await check.text()) !== body) throw new Error('mockpoint answered different bytes than the baseline');

  const mockUrl = `${mock.url}/endpoint/bench`;
  const bareUrl = `${bare.url}/endpoint/bench`;
  load(mockUrl, 2); // warm-up (JIT) for both
  load(bareUrl, 2);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate the order so drift of the machine's load affects both alike.
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

async function benchDurableAdds(writers = 50, seconds = 5) {
  const dir = mkdtempSync(join(tmpdir(), 'mockpoint-bench-'));
  const mock = await start([cli, '--data-dir', dir, '--port', '0', '--host', '127.0.0.1']);
  const deadline = Date.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  const latencies = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < deadline; i++) {
        const t0 = performance.now();
        const res = await fetch(`${mock.url}/api/endpoint/add`, {
          method: 'PUT',
          body: JSON.stringify({ name: `w${w}-${i}`, data }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status === 201) ok++;
        else failed++;
      }
    }),
  );
  await stop(mock);
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  return {
    writers,
    rps: ok / seconds,
    ok,
    failed,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
  };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(
  `mockpoint bench: Node ${process.version}, load by ${hasWrk ? 'wrk (1 thread)' : 'autocannon'}, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION_S}s per server, 127.0.0.1, ${Buffer.byteLength(body)}-byte JSON, status 201`,
);
const read = await benchRead();
console.log('\nread path  GET /endpoint/{name}');
console.log(`  bare node:http   ${fmt(read.bare.rps).padStart(8)} req/s   p99 ${fmt(read.bare.p99Ms, 2)} ms`);
console.log(`  mockpoint        ${fmt(read.mock.rps).padStart(8)} req/s   p99 ${fmt(read.mock.p99Ms, 2)} ms`);
console.log(`  ratio            ${fmt(read.mock.rps / read.bare.rps, 2)} x bare node:http`);
if (read.errors.length) console.log(`  errors: ${read.errors.join(', ')}`);
const adds = await benchDurableAdds();
console.log(`\ndurable adds  PUT /api/endpoint/add, LevelDB with fsync, ${adds.writers} concurrent writers`);
console.log(`  ${fmt(adds.rps)} adds/s   p99 ${fmt(adds.p99Ms, 1)} ms   (${adds.ok} ok, ${adds.failed} failed)`);
