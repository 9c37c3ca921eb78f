// The serving paths of the single executable against the daemon run by node: the
// cached GET, the webhook POST, the signed POST, 1,000 connections on a 100 ms
// endpoint and the GET of the last of 1,000 routes, each the same wrk load against
// both daemons (each with --memory, on 127.0.0.1), the two alternated in every round
// (first one, then the other first), with req/s and the CPU time each daemon used per
// request (Linux /proc). Called by bench/binary.mjs; alone:
//
//   node bench/binary-paths.mjs [--seconds 5] [--rounds 2] [--only get,post,signed,delay,routes] [--exe dist/binaries/mockpoint-linux-x64] [--cli packages/server/dist/cli.js]
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { invoice } from './payloads.mjs';
import { start, stop } from './server-process.mjs';

/** A ~150-byte webhook, as a payment provider would POST it (bench/run.mjs sends the same). */
const WEBHOOK = JSON.stringify({
  id: 'evt_3PqR8sT2uV',
  type: 'payment_intent.succeeded',
  created: 1764000000,
  data: { object: { id: 'pi_3PqR8s', amount: 2000, currency: 'usd' } },
});
const SECRET = 'bench webhook secret';
const POST_SCRIPT = `wrk.method = "POST"\nwrk.body = ${JSON.stringify(WEBHOOK)}\nwrk.headers["Content-Type"] = "application/json"\n`;
const ROUTES = 1000;

/** Each path: what to set up on a daemon, the wrk script and connections, the path requested. */
const PATHS = {
  get: { title: 'GET, cached ~1 KB JSON', connections: 50, path: '/endpoint/bench' },
  post: { title: 'webhook POST (read, journaled)', connections: 50, path: '/endpoint/hook', script: POST_SCRIPT },
  signed: {
    title: 'signed POST (GitHub scheme, checked)',
    connections: 50,
    path: '/endpoint/signed-hook',
    script: `${POST_SCRIPT}wrk.headers["X-Hub-Signature-256"] = "sha256=${createHmac('sha256', SECRET).update(WEBHOOK).digest('hex')}"\n`,
  },
  delay: { title: '1,000 connections on 100 ms', connections: 1000, path: '/endpoint/slow' },
  routes: {
    title: `GET of the last of ${ROUTES.toLocaleString('en-US')} routes`,
    connections: 50,
    path: `/endpoint/routes/items/${ROUTES - 1}/detail`,
  },
};

async function request(url, method, body) {
  const response = await fetch(url, { method, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
}

/** The endpoints of every path, on one daemon. */
async function setUp(url) {
  await request(`${url}/api/endpoint/add`, 'PUT', { name: 'bench', data: invoice, statusCode: 201 });
  await request(`${url}/api/endpoint/add`, 'PUT', { name: 'hook', data: { received: true } });
  await request(`${url}/api/endpoint/add`, 'PUT', { name: 'signed-hook', data: { received: true } });
  await request(`${url}/api/endpoints/signed-hook/signature`, 'PUT', { scheme: 'github', secret: SECRET });
  await request(`${url}/api/endpoint/add`, 'PUT', { name: 'slow', data: { ok: true }, delay: 100 });
  const routes = Array.from({ length: ROUTES }, (_, i) => ({
    id: `r${i}`,
    match: { method: 'GET', path: `/items/${i}/detail` },
    answer: { statusCode: 201, data: invoice },
  }));
  await request(`${url}/api/endpoints/routes/routes`, 'PUT', { routes });
}

/** CPU time (user + system, µs) the process has used so far (Linux /proc; clock ticks of 10 ms). */
function cpuMicros({ child }) {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** wrk against `url`: { rps, requests, errors }. */
function load(url, path, scriptFile, seconds) {
  const args = ['-t1', `-c${path.connections}`, `-d${seconds}s`, '--timeout', '10s'];
  if (scriptFile) args.push('-s', scriptFile);
  const out = spawnSync('wrk', [...args, url], { encoding: 'utf8' }).stdout;
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? /Socket errors: (.*)/.exec(out)?.[1];
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    requests: Number(/(\d+) requests in/.exec(out)?.[1]),
    errors,
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * Every path against both daemons; prints a line per path and returns the rows
 * ({ key, exe: { rps, us }, node: { rps, us }, errors }, medians of the rounds).
 */
export async function benchBinaryPaths({ exe, cli, seconds = 5, rounds = 2, only, log = console.log }) {
  const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-binary-paths-'));
  const daemonArgs = ['--memory', '--port', '0', '--host', '127.0.0.1'];
  const servers = {};
  try {
    servers.node = await start([cli, ...daemonArgs]);
    servers.exe = await start(daemonArgs, {}, undefined, exe);
    for (const server of Object.values(servers)) await setUp(server.url);
    log(
      `\nserving paths, the executable vs node dist/cli.js (--memory), ${rounds} x ${seconds} s each, alternated; load average ${fmt(loadavg()[0], 1)}`,
    );
    const rows = [];
    for (const [key, path] of Object.entries(PATHS)) {
      if (only !== undefined && !only.includes(key)) continue;
      const scriptFile = path.script === undefined ? undefined : join(work, `${key}.lua`);
      if (scriptFile) writeFileSync(scriptFile, path.script);
      for (const server of Object.values(servers)) load(`${server.url}${path.path}`, path, scriptFile, 2); // warm-up
      const runs = { exe: [], node: [] };
      for (let i = 0; i < rounds; i++) {
        for (const which of i % 2 === 0 ? ['exe', 'node'] : ['node', 'exe']) {
          const before = cpuMicros(servers[which]);
          const r = load(`${servers[which].url}${path.path}`, path, scriptFile, seconds);
          runs[which].push({ ...r, us: (cpuMicros(servers[which]) - before) / r.requests });
        }
      }
      const summary = (list) => ({ rps: median(list.map((r) => r.rps)), us: median(list.map((r) => r.us)) });
      const row = {
        key,
        exe: summary(runs.exe),
        node: summary(runs.node),
        errors: [...runs.exe, ...runs.node].map((r) => r.errors).filter((e) => e),
      };
      rows.push(row);
      log(
        `  ${path.title.padEnd(38)} executable ${fmt(row.exe.rps).padStart(7)} req/s ${fmt(row.exe.us, 1).padStart(5)} µs/req   node ${fmt(row.node.rps).padStart(7)} req/s ${fmt(row.node.us, 1).padStart(5)} µs/req   ${fmt(row.exe.rps / row.node.rps, 2)} x req/s, ${fmt(row.exe.us / row.node.us, 2)} x CPU${row.errors.length ? `   errors: ${row.errors.join(', ')}` : ''}`,
      );
    }
    log(`  load average at the end ${fmt(loadavg()[0], 1)}`);
    return rows;
  } finally {
    for (const server of Object.values(servers)) await stop(server);
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '2' },
      exe: { type: 'string', default: join(root, 'dist', 'binaries', 'mockpoint-linux-x64') },
      cli: { type: 'string', default: join(root, 'packages', 'server', 'dist', 'cli.js') },
      only: { type: 'string' },
    },
  });
  await benchBinaryPaths({
    exe: values.exe,
    cli: values.cli,
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    only: values.only?.split(','),
  });
}
