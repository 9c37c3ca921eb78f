// pnpm bench: mockpoint's request path against a bare node:http server doing the
// same work, in the same run, on 127.0.0.1 — a cached GET, a small JSON webhook
// POST, 1,000 connections on a 100 ms endpoint and a GET of the last of 1, 100
// and 1,000 routes on one name (in a fresh daemon of its own) — then memory (RSS) and durable-add throughput
// with 1 and 50 writers. Then the GET, POST and delay paths with the daemon run by Bun
// (Bun.serve) against a bare Bun.serve and a bare node:http server doing the same work.
// Each server runs in its own process; the load generator (wrk, Debian's `wrk` package)
// in another. Bounded: a few seconds per measurement.
//
// Then the cached GET in a test session (the mockpoint-session header) against the same
// GET without one, against its exact bytes without a session, and both with fetch's headers.
//
//   BENCH_SECONDS=8 BENCH_ROUNDS=2 BENCH_ONLY=get,post,signed,session,delay,routes,adds,bun node bench/run.mjs
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invoice } from './payloads.mjs';
import { start, stop } from './server-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// BENCH_CLI: another build of the daemon to measure (e.g. the previous commit's, for a before/after).
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'get,post,signed,session,delay,routes,adds,bun').split(','));
/** The `bun` binary of the `bun` package (a devDependency of runtime-contract), for the Bun rows. */
const bun = join(
  dirname(createRequire(join(root, 'packages/runtime-contract/package.json')).resolve('bun/package.json')),
  'bin/bun.exe',
);
/** Route counts of the routes sweep. */
const ROUTE_COUNTS = [1, 100, 1000];
const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-'));

// ~1 KB of JSON, status 201: the GET answer.
const data = invoice;
// A ~150-byte webhook, as a payment provider would POST it.
const webhook = JSON.stringify({
  id: 'evt_3PqR8sT2uV',
  type: 'payment_intent.succeeded',
  created: 1764000000,
  data: { object: { id: 'pi_3PqR8s', amount: 2000, currency: 'usd' } },
});

/** The secret of the signed scenario (GitHub's scheme: no timestamp, so one signature stays valid). */
const SIGNING_SECRET = 'bench webhook secret';

const SCENARIOS = {
  get: {
    title: 'GET /endpoint/{name}, cached ~1 KB JSON, status 201',
    connections: 50,
    endpoint: { name: 'bench', data, statusCode: 201 },
    bare: { BENCH_MODE: 'get' },
  },
  post: {
    title: `POST /endpoint/{name}, ${Buffer.byteLength(webhook)}-byte JSON webhook (read, journaled)`,
    connections: 50,
    endpoint: { name: 'hook', data: { received: true } },
    bare: { BENCH_MODE: 'body' },
    script: `wrk.method = "POST"\nwrk.body = ${JSON.stringify(webhook)}\nwrk.headers["Content-Type"] = "application/json"\n`,
  },
  signed: {
    title: `POST /endpoint/{name}, the same webhook with a GitHub signature the endpoint checks (valid)`,
    connections: 50,
    endpoint: { name: 'signed-hook', data: { received: true } },
    signature: { scheme: 'github', secret: SIGNING_SECRET },
    bare: { BENCH_MODE: 'body' },
    script: `wrk.method = "POST"\nwrk.body = ${JSON.stringify(webhook)}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["X-Hub-Signature-256"] = "sha256=${createHmac('sha256', SIGNING_SECRET).update(webhook).digest('hex')}"\n`,
  },
  delay: {
    title: '1,000 connections on a 100 ms endpoint (GET)',
    connections: 1000,
    endpoint: { name: 'slow', data: { ok: true }, delay: 100 },
    bare: { BENCH_MODE: 'delay', BENCH_DELAY_MS: '100' },
  },
};

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
function memory({ child }) {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

if (spawnSync('wrk', ['--version']).error !== undefined) {
  console.error('mockpoint bench: wrk is not installed (Debian: apt-get install wrk)');
  process.exit(1);
}

function toMs(value, unit) {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);
}

/** Runs the load generator against `url`; returns { rps, requests, p99Ms, errors }. */
function load(url, scenario, seconds = DURATION_S) {
  const c = scenario.connections;
  const args = ['-t1', `-c${c}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  if (scenario.scriptFile) args.push('-s', scenario.scriptFile);
  const r = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(r.stdout)?.[1]);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(r.stdout);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout);
  const socket = /Socket errors: (.*)/.exec(r.stdout);
  return {
    rps,
    requests,
    p99Ms: p99 ? toMs(p99[1], p99[2]) : Number.NaN,
    errors: errors ? 'non-2xx' : socket ? socket[1] : 0,
  };
}

async function addEndpoint(mock, endpoint) {
  const add = await fetch(`${mock.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(endpoint) });
  if (add.status !== 201) throw new Error(`add failed: ${add.status} ${await add.text()}`);
}

/** One scenario: the same work against the bare server and mockpoint, alternating. */
async function benchPath(key, mock) {
  const scenario = SCENARIOS[key];
  if (scenario.script) {
    scenario.scriptFile = join(work, `${key}.lua`);
    writeFileSync(scenario.scriptFile, scenario.script);
  }
  await addEndpoint(mock, scenario.endpoint);
  if (scenario.signature) {
    const url = `${mock.url}/api/endpoints/${scenario.endpoint.name}/signature`;
    const put = await fetch(url, { method: 'PUT', body: JSON.stringify(scenario.signature) });
    if (put.status !== 200) throw new Error(`signature check failed to set: ${put.status} ${await put.text()}`);
  }
  const expected = await (await fetch(`${mock.url}/endpoint/${scenario.endpoint.name}`)).text();
  const bare = await start([join(root, 'bench/bare-server.mjs')], {
    ...scenario.bare,
    BENCH_BODY: expected,
    BENCH_STATUS: String(scenario.endpoint.statusCode ?? 200),
  });
  if ((await (await fetch(`${bare.url}/endpoint/x`)).text()) !== expected) {
    throw new Error('the baseline answered different bytes than mockpoint');
  }
  const mockUrl = `${mock.url}/endpoint/${scenario.endpoint.name}`;
  const bareUrl = `${bare.url}/endpoint/${scenario.endpoint.name}`;
  load(mockUrl, scenario, 2); // warm-up (JIT) for both
  load(bareUrl, scenario, 2);
  const rounds = [];
  // With the CPU time each server used per request (Linux /proc), which depends less on how busy the machine is.
  const measured = (server, url) => {
    const before = cpuMicros(server);
    const r = load(url, scenario);
    return { ...r, us: (cpuMicros(server) - before) / r.requests };
  };
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate the order so drift of the machine's load affects both alike.
    const a = i % 2 === 0 ? measured(bare, bareUrl) : undefined;
    const m = measured(mock, mockUrl);
    const b = a ?? measured(bare, bareUrl);
    rounds.push({ bare: b, mock: m });
  }
  const bareMemory = memory(bare);
  await stop(bare);
  const avg = (pick) => rounds.reduce((sum, r) => sum + pick(r), 0) / rounds.length;
  return {
    scenario,
    bare: {
      rps: avg((r) => r.bare.rps),
      p99Ms: avg((r) => r.bare.p99Ms),
      us: median(rounds.map((r) => r.bare.us)),
      ...bareMemory,
    },
    mock: {
      rps: avg((r) => r.mock.rps),
      p99Ms: avg((r) => r.mock.p99Ms),
      us: median(rounds.map((r) => r.mock.us)),
      ...memory(mock),
    },
    ratios: spread(rounds.map((r) => r.mock.rps / r.bare.rps)),
    errors: rounds.flatMap((r) => [r.bare.errors, r.mock.errors]).filter((e) => e),
  };
}

/**
 * GET of the last of `n` routes on one name (`/items/{i}/detail`, each a ~1 KB
 * JSON answer, status 201), for each n of the sweep, against a bare server
 * answering the same bytes. In a daemon of its own, started fresh for the sweep:
 * in the daemon the other scenarios ran in, the heap they leave made the last
 * scenario a quarter slower than a fresh bare server, whatever it measured
 * (docs/performance.md, "The last of 1,000 routes at the end of a run"). Every
 * count and the bare server run in each round, in an order reversed every other
 * round, so drift of the machine's load (and of the daemon's heap) affects all alike.
 */
async function benchRoutes() {
  // A pooled keep-alive socket may have been closed by the server while wrk ran: retry once on a new one.
  const request = (url, init) => fetch(url, init).catch(() => fetch(url, init));
  const scenario = { connections: 50 };
  const body = JSON.stringify(data);
  const mock = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1']);
  const bare = await start([join(root, 'bench/bare-server.mjs')], {
    BENCH_MODE: 'get',
    BENCH_BODY: body,
    BENCH_STATUS: '201',
  });
  const urls = { bare: `${bare.url}/endpoint/api/items/0/detail` };
  for (const n of ROUTE_COUNTS) {
    const name = `routes-${n}`;
    const routes = Array.from({ length: n }, (_, i) => ({
      id: `r${i}`,
      match: { method: 'GET', path: `/items/${i}/detail` },
      answer: { statusCode: 201, data },
    }));
    const put = await request(`${mock.url}/api/endpoints/${name}/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes }),
    });
    if (put.status !== 200) throw new Error(`routes failed: ${put.status} ${await put.text()}`);
    urls[n] = `${mock.url}/endpoint/${name}/items/${n - 1}/detail`;
    const got = await request(urls[n]);
    if (got.status !== 201 || (await got.text()) !== body)
      throw new Error(`the last of ${n} routes answered otherwise`);
  }
  const keys = ['bare', ...ROUTE_COUNTS];
  for (const key of keys) load(urls[key], scenario, 2); // warm-up (JIT)
  const runs = Object.fromEntries(keys.map((key) => [key, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const key of i % 2 === 0 ? keys : [...keys].reverse()) runs[key].push(load(urls[key], scenario));
  }
  const rssMb = memory(mock).rssMb;
  await stop(mock);
  await stop(bare);
  const avg = (key, pick) => runs[key].reduce((sum, r) => sum + pick(r), 0) / runs[key].length;
  const summary = (key) => ({ rps: avg(key, (r) => r.rps), p99Ms: avg(key, (r) => r.p99Ms) });
  return {
    rssMb,
    bare: summary('bare'),
    counts: ROUTE_COUNTS.map((n) => ({
      n,
      mock: summary(n),
      errors: [...runs[n], ...runs.bare].map((r) => r.errors).filter((e) => e),
    })),
  };
}

/** A wrk script that adds endpoints with names never used before (a run token plus a counter). */
function addScript(token) {
  const body = JSON.stringify(JSON.stringify(data)).slice(1, -1);
  return `local n = 0
request = function()
  n = n + 1
  return wrk.format("PUT", "/api/endpoint/add", { ["Content-Type"] = "application/json" },
    '{"name":"${token}-' .. n .. '","data":${body}}')
end
`;
}

/** Durable adds by `writers` concurrent connections, each waiting for its 201 before the next add. */
async function benchDurableAdds(writers, seconds = 5) {
  const dir = mkdtempSync(join(work, 'level-'));
  const mock = await start([cli, '--data-dir', dir, '--port', '0', '--host', '127.0.0.1']);
  const scenario = { connections: writers, scriptFile: join(work, `add-${writers}.lua`) };
  writeFileSync(scenario.scriptFile, addScript(`w${writers}x${Date.now().toString(36)}`));
  const r = load(mock.url, scenario, seconds);
  await stop(mock);
  return { writers, rps: r.rps, p99Ms: r.p99Ms, errors: r.errors };
}

/**
 * The daemon run by Bun (`bun dist/cli.js`: Bun.serve) on one scenario, against a bare
 * Bun.serve and a bare node:http server answering the same bytes, the three alternated
 * in each round so that drift of the machine's load affects them alike.
 */
async function benchBun(key, mock) {
  const scenario = SCENARIOS[key];
  if (scenario.script && !scenario.scriptFile) {
    scenario.scriptFile = join(work, `${key}.lua`);
    writeFileSync(scenario.scriptFile, scenario.script);
  }
  const endpoint = { ...scenario.endpoint, name: `bun-${scenario.endpoint.name}` };
  await addEndpoint(mock, endpoint);
  const expected = await (await fetch(`${mock.url}/endpoint/${endpoint.name}`)).text();
  const env = { ...scenario.bare, BENCH_BODY: expected, BENCH_STATUS: String(endpoint.statusCode ?? 200) };
  const bareBun = await start([join(root, 'bench/bare-bun.mjs')], env, undefined, bun);
  const bareNode = await start([join(root, 'bench/bare-server.mjs')], env);
  for (const bare of [bareBun, bareNode]) {
    if ((await (await fetch(`${bare.url}/endpoint/x`)).text()) !== expected) {
      throw new Error('a baseline answered different bytes than mockpoint on Bun');
    }
  }
  const urls = {
    mock: `${mock.url}/endpoint/${endpoint.name}`,
    bun: `${bareBun.url}/endpoint/x`,
    node: `${bareNode.url}/endpoint/x`,
  };
  for (const url of Object.values(urls)) load(url, scenario, 2); // warm-up (JIT)
  const runs = { mock: [], bun: [], node: [] };
  const servers = { mock, bun: bareBun, node: bareNode };
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? ['bun', 'mock', 'node'] : ['node', 'mock', 'bun'];
    for (const which of order) {
      const before = cpuMicros(servers[which]);
      const r = load(urls[which], scenario);
      runs[which].push({ ...r, us: (cpuMicros(servers[which]) - before) / r.requests });
    }
  }
  await stop(bareBun);
  await stop(bareNode);
  const avg = (list, pick) => list.reduce((sum, r) => sum + pick(r), 0) / list.length;
  const summary = (list) => ({
    rps: avg(list, (r) => r.rps),
    p99Ms: avg(list, (r) => r.p99Ms),
    us: avg(list, (r) => r.us),
  });
  return {
    scenario,
    mock: summary(runs.mock),
    bun: summary(runs.bun),
    node: summary(runs.node),
    errors: Object.values(runs)
      .flat()
      .map((r) => r.errors)
      .filter((e) => e),
  };
}

/** CPU time (user + system, µs) the process has used so far (Linux /proc; clock ticks of 10 ms). */
function cpuMicros({ child }) {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * The checked and the unchecked webhook POST against the same daemon, alternated
 * in short runs (each twice per round), so the machine's load drifts alike for
 * both: the ratio of req/s (sums) and the daemon's CPU time per request (medians,
 * which depend less on how busy the machine is than req/s do). A third run sends
 * the signed request's exact bytes (its X-Hub-Signature-256 header too) to the
 * unchecked name: the difference to it is the check alone, without the header
 * the HTTP parser reads (which a bare server pays as well).
 */
function signedVsPlain(mock) {
  // The signed request, to the name without a check.
  const sameBytes = { ...SCENARIOS.signed, endpoint: SCENARIOS.post.endpoint };
  const scenarios = { post: SCENARIOS.post, signed: SCENARIOS.signed, sameBytes };
  const runs = { post: [], signed: [], sameBytes: [] };
  for (let i = 0; i < ROUNDS * 2; i++) {
    const order = ['post', 'signed', 'sameBytes'];
    for (const key of i % 2 === 0 ? order : order.reverse()) {
      const scenario = scenarios[key];
      const before = cpuMicros(mock);
      const r = load(
        `${mock.url}/endpoint/${scenario.endpoint.name}`,
        scenario,
        Math.max(2, Math.round(DURATION_S / 2)),
      );
      runs[key].push({ rps: r.rps, us: (cpuMicros(mock) - before) / r.requests });
    }
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const sum = (list) => list.reduce((total, r) => total + r.rps, 0);
  const plainUs = median(runs.post.map((r) => r.us));
  const signedUs = median(runs.signed.map((r) => r.us));
  const sameBytesUs = median(runs.sameBytes.map((r) => r.us));
  return {
    runs: runs.post.length,
    rpsRatio: sum(runs.signed) / sum(runs.post),
    plainUs,
    signedUs,
    sameBytesUs,
    cpuRatio: signedUs / plainUs,
    checkRatio: signedUs / sameBytesUs,
  };
}

/** The headers Node's fetch (undici) sends with a GET, besides Host: how a test's code calls. */
const FETCH_HEADERS =
  'wrk.headers["Connection"] = "keep-alive"\nwrk.headers["Accept"] = "*/*"\nwrk.headers["Accept-Language"] = "*"\n' +
  'wrk.headers["Sec-Fetch-Mode"] = "cors"\nwrk.headers["User-Agent"] = "node"\nwrk.headers["Accept-Encoding"] = "gzip, deflate"\n';

/**
 * The cached GET in a namespace picked by the `mockpoint-session` header (a test
 * session's request) against the same GET to the default namespace, on the same
 * daemon, in short runs alternated within each of {@link SESSION_ROUNDS} rounds
 * (at least 6): each round gives its own ratio of req/s and of the daemon's CPU
 * time per request (from runs seconds apart, so the machine's load drifts alike
 * for both), and the result is the median of the rounds' ratios with their
 * range, so that one noisy round cannot decide it. Three more runs in
 * each round: the session request's exact bytes to the default namespace (a
 * header of the same length, `mockpoint-sessiox`: what the HTTP parser alone
 * costs, which a bare server pays too), and both GETs with the headers Node's
 * fetch adds (as a test's code sends them) instead of wrk's Host alone.
 */
/** Rounds of the session comparison: BENCH_SESSION_ROUNDS, else three per BENCH_ROUNDS, at least 6. */
const SESSION_ROUNDS = Number(process.env.BENCH_SESSION_ROUNDS ?? Math.max(6, ROUNDS * 3));
/** Seconds of each run of the session comparison. */
const SESSION_SECONDS = Math.max(2, Math.round(DURATION_S / 2));

async function sessionVsPlain(mock) {
  const made = await fetch(`${mock.url}/api/namespaces`, {
    method: 'POST',
    body: JSON.stringify({ name: 'bench-session' }),
  });
  if (made.status !== 201) throw new Error(`namespace failed: ${made.status} ${await made.text()}`);
  const put = await fetch(`${mock.url}/ns/bench-session/api/endpoint/add`, {
    method: 'PUT',
    body: JSON.stringify(SCENARIOS.get.endpoint),
  });
  if (put.status !== 201) throw new Error(`add failed: ${put.status} ${await put.text()}`);
  // The same endpoint in the default namespace (made already when the GET path ran).
  const { name, ...record } = SCENARIOS.get.endpoint;
  await fetch(`${mock.url}/api/endpoints/${name}`, { method: 'PUT', body: JSON.stringify(record) });
  const scripts = {
    session: 'wrk.headers["mockpoint-session"] = "bench-session"\n',
    sameBytes: 'wrk.headers["mockpoint-sessiox"] = "bench-session"\n',
    fetchPlain: FETCH_HEADERS,
    fetchSession: `${FETCH_HEADERS}wrk.headers["mockpoint-session"] = "bench-session"\n`,
  };
  const scenarios = { plain: SCENARIOS.get };
  for (const [key, script] of Object.entries(scripts)) {
    const scriptFile = join(work, `session-${key}.lua`);
    writeFileSync(scriptFile, script);
    scenarios[key] = { ...SCENARIOS.get, scriptFile };
  }
  const url = `${mock.url}/endpoint/${SCENARIOS.get.endpoint.name}`;
  load(url, scenarios.session, 2); // warm-up (JIT) of the namespace's path
  load(url, scenarios.fetchSession, 1);
  const keys = Object.keys(scenarios);
  const runs = Object.fromEntries(keys.map((key) => [key, []]));
  for (let i = 0; i < SESSION_ROUNDS; i++) {
    // The pair that decides (plain, session) side by side, first one then the other first.
    for (const key of i % 2 === 0 ? keys : [...keys].reverse()) {
      const before = cpuMicros(mock);
      const r = load(url, scenarios[key], SESSION_SECONDS);
      runs[key].push({ rps: r.rps, us: (cpuMicros(mock) - before) / r.requests, errors: r.errors });
    }
  }
  const us = Object.fromEntries(keys.map((key) => [key, median(runs[key].map((r) => r.us))]));
  /** The rounds' ratios of `a` to `b` (req/s, and CPU per request the other way up): median and range. */
  const ratios = (a, b) => ({
    rps: spread(runs[a].map((r, i) => r.rps / runs[b][i].rps)),
    cpu: spread(runs[a].map((r, i) => r.us / runs[b][i].us)),
  });
  return {
    runs: runs.plain.length,
    session: ratios('session', 'plain'),
    sameBytes: ratios('session', 'sameBytes'),
    fetch: ratios('fetchSession', 'fetchPlain'),
    us,
    errors: keys.flatMap((key) => runs[key].map((r) => r.errors)).filter((e) => e),
  };
}

/** The middle value (of an odd count; the mean of the two middle ones of an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of `values` with their smallest and largest. */
function spread(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(
  `mockpoint bench: Node ${process.version}, load by wrk (1 thread), ${ROUNDS} x ${DURATION_S}s per server and path, 127.0.0.1`,
);
try {
  const mock = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1']);
  const idle = memory(mock);
  const bareIdle = await start([join(root, 'bench/bare-server.mjs')]);
  const bareIdleMemory = memory(bareIdle);
  await stop(bareIdle);
  const results = [];
  for (const key of ['get', 'post', 'signed', 'delay']) {
    if (!ONLY.has(key)) continue;
    const r = await benchPath(key, mock);
    results.push(r);
    console.log(`\n${r.scenario.title}, ${r.scenario.connections} connections`);
    console.log(`  bare node:http   ${fmt(r.bare.rps).padStart(8)} req/s   p99 ${fmt(r.bare.p99Ms, 2)} ms`);
    console.log(`  mockpoint        ${fmt(r.mock.rps).padStart(8)} req/s   p99 ${fmt(r.mock.p99Ms, 2)} ms`);
    console.log(
      `  ratio            ${fmt(r.mock.rps / r.bare.rps, 2)} x req/s (rounds ${fmt(r.ratios.min, 2)}–${fmt(r.ratios.max, 2)}), ${fmt(r.mock.p99Ms / r.bare.p99Ms, 2)} x p99`,
    );
    console.log(
      `  CPU per request  ${fmt(r.mock.us, 1)} µs vs ${fmt(r.bare.us, 1)} µs bare (${fmt(r.mock.us / r.bare.us, 2)} x, medians)`,
    );
    if (r.errors.length) console.log(`  errors: ${r.errors.join(', ')}`);
    if (key === 'get') {
      console.log(
        `  memory           idle RSS ${fmt(idle.rssMb, 1)} MB (bare ${fmt(bareIdleMemory.rssMb, 1)} MB); peak RSS under this load ${fmt(r.mock.peakMb, 1)} MB (bare ${fmt(r.bare.peakMb, 1)} MB)`,
      );
    }
  }
  if (ONLY.has('routes')) {
    const sweep = await benchRoutes();
    console.log(
      `\nGET of the last of n routes on one name, cached ~1 KB JSON, status 201, 50 connections; a fresh daemon, counts alternated`,
    );
    console.log(`  bare             ${fmt(sweep.bare.rps).padStart(8)} req/s   p99 ${fmt(sweep.bare.p99Ms, 2)} ms`);
    for (const r of sweep.counts) {
      console.log(
        `  ${String(r.n).padStart(5)} route${r.n === 1 ? ' ' : 's'}  mockpoint ${fmt(r.mock.rps).padStart(8)} req/s   p99 ${fmt(r.mock.p99Ms, 2)} ms   ratio ${fmt(r.mock.rps / sweep.bare.rps, 2)} x req/s, ${fmt(r.mock.p99Ms / sweep.bare.p99Ms, 2)} x p99${r.errors.length ? `   errors: ${[...new Set(r.errors)].join(', ')}` : ''}`,
      );
    }
    const first = sweep.counts[0];
    const last = sweep.counts.at(-1);
    if (first && last && last !== first) {
      console.log(`  ${last.n} routes / 1 route: ${fmt(last.mock.rps / first.mock.rps, 2)} x req/s (same daemon)`);
    }
    console.log(
      `  RSS of the sweep's daemon at its end ${fmt(sweep.rssMb, 1)} MB; load average ${fmt(loadavg()[0], 1)}`,
    );
  }
  const post = results.find((r) => r.scenario === SCENARIOS.post);
  const signed = results.find((r) => r.scenario === SCENARIOS.signed);
  if (post && signed) {
    // Each against its own bare run, so drift of the machine's load between the two cancels out.
    const cost = 1 - signed.mock.rps / signed.bare.rps / (post.mock.rps / post.bare.rps);
    console.log(`\nchecking a signature costs ${fmt(cost * 100, 1)} % of the webhook POST's req/s (vs bare, each)`);
    const direct = signedVsPlain(mock);
    console.log(
      `  the same daemon, checked vs unchecked POST alternated ${direct.runs} x: ${fmt(direct.rpsRatio, 2)} x req/s; CPU per request ${fmt(direct.signedUs, 1)} µs vs ${fmt(direct.plainUs, 1)} µs (${fmt(direct.cpuRatio, 2)} x, medians)`,
    );
    console.log(
      `  the check alone (the signed request's bytes to the unchecked name: ${fmt(direct.sameBytesUs, 1)} µs): ${fmt(direct.checkRatio, 2)} x CPU per request`,
    );
  }
  if (ONLY.has('session')) {
    const session = await sessionVsPlain(mock);
    const { us } = session;
    const range = (r) => `${fmt(r.median, 2)} x (${fmt(r.min, 2)}–${fmt(r.max, 2)})`;
    const line = (r, a, b) =>
      `${range(r.rps)} req/s; CPU per request ${range(r.cpu)}, ${fmt(us[a], 1)} vs ${fmt(us[b], 1)} µs`;
    console.log(
      `\nGET /endpoint/{name} in a test session (mockpoint-session header) vs the same GET without one, ${session.runs} rounds of ${SESSION_SECONDS} s runs alternated; each: the median of the rounds' ratios (their range)${session.errors.length ? `   errors: ${session.errors.join(', ')}` : ''}`,
    );
    console.log(`  wrk's request (Host alone):       ${line(session.session, 'session', 'plain')}`);
    console.log(`  vs the same bytes, no session:    ${line(session.sameBytes, 'session', 'sameBytes')}`);
    console.log(`  with the headers fetch sends:     ${line(session.fetch, 'fetchSession', 'fetchPlain')}`);
  }
  await stop(mock);
  if (ONLY.has('adds')) {
    const one = await benchDurableAdds(1);
    const many = await benchDurableAdds(50);
    console.log('\ndurable adds  PUT /api/endpoint/add, LevelDB with fsync');
    for (const adds of [one, many]) {
      console.log(
        `  ${String(adds.writers).padStart(2)} writer${adds.writers === 1 ? ' ' : 's'}   ${fmt(adds.rps).padStart(6)} adds/s   p99 ${fmt(adds.p99Ms, 1)} ms${adds.errors ? `   errors: ${adds.errors}` : ''}`,
      );
    }
    console.log(`  50 writers / 1 writer: ${fmt(many.rps / one.rps, 1)} x`);
  }
  if (ONLY.has('bun') && existsSync(bun)) {
    const version = spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const onBun = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1'], {}, undefined, bun);
    const idleOnBun = memory(onBun);
    console.log(
      `\nthe daemon run by Bun ${version} (Bun.serve), against a bare Bun.serve and a bare node:http; load average ${fmt(loadavg()[0], 1)}`,
    );
    for (const key of ['get', 'post', 'delay']) {
      const r = await benchBun(key, onBun);
      console.log(`\n${r.scenario.title}, ${r.scenario.connections} connections`);
      const cpu = (x) => `   CPU ${fmt(x.us, 1)} us/req`;
      console.log(
        `  bare Bun.serve          ${fmt(r.bun.rps).padStart(8)} req/s   p99 ${fmt(r.bun.p99Ms, 2)} ms${cpu(r.bun)}`,
      );
      console.log(
        `  bare node:http          ${fmt(r.node.rps).padStart(8)} req/s   p99 ${fmt(r.node.p99Ms, 2)} ms${cpu(r.node)}`,
      );
      console.log(
        `  mockpoint on Bun        ${fmt(r.mock.rps).padStart(8)} req/s   p99 ${fmt(r.mock.p99Ms, 2)} ms${cpu(r.mock)}`,
      );
      console.log(
        `  ratio                   ${fmt(r.mock.rps / r.bun.rps, 2)} x bare Bun.serve, ${fmt(r.mock.rps / r.node.rps, 2)} x bare node:http (req/s); CPU/req ${fmt(r.mock.us / r.bun.us, 2)} x bare Bun.serve's`,
      );
      if (r.errors.length) console.log(`  errors: ${r.errors.join(', ')}`);
    }
    console.log(
      `\n  idle RSS of the daemon on Bun ${fmt(idleOnBun.rssMb, 1)} MB (peak under this load ${fmt(memory(onBun).peakMb, 1)} MB)`,
    );
    await stop(onBun);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
