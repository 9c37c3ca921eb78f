// pnpm bench (twins): a provider twin's answers (docs/twins.md) against a bare node:http server
// doing the same work in memory on the very objects the twin made (bench/bare-twin.mjs), the
// same body bytes checked before the load, in the same run, on 127.0.0.1: a Stripe customer read
// by id, a list of the newest 10 of 100, writes (each POST's customer deleted by a later request),
// and a GitHub issue read by number (with its ETag and rate-limit headers). Each server is a process
// of its own; wrk (1 thread, 50 connections) loads it. The twins are in memory (BENCH_STORE=level:
// on LevelDB, every write synced; the bare server keeps memory either way).
//
//   BENCH_SECONDS=5 BENCH_ROUNDS=2 BENCH_ONLY=get,list,write,issue node bench/twins.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop } from './server-process.mjs';
import { alternatedRounds, wrkNumbers } from './wrk-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// BENCH_CLI: another build of the daemon to measure (e.g. the previous commit's, for a before/after).
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const STORE = process.env.BENCH_STORE ?? 'memory';
const ONLY = new Set((process.env.BENCH_ONLY ?? 'get,list,write,issue').split(','));
const CUSTOMERS = 100;
const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-twins-'));

const STRIPE_AUTH = 'Bearer sk_test_bench';
const GITHUB_AUTH = 'token ghp_bench';
const ISSUE = '/repos/octocat/app/issues/1';
const FORM = 'email=jenny%40example.com&name=Jenny+Rosen&metadata[plan]=pro';

if (spawnSync('wrk', ['--version']).error !== undefined) {
  console.error('mockpoint bench: wrk is not installed (Debian: apt-get install wrk)');
  process.exit(1);
}

function load(url, { headers = {}, script } = {}, seconds = SECONDS) {
  const args = ['-t1', '-c50', `-d${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  if (script) {
    const file = join(work, `s${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(file, script);
    args.push('-s', file);
  }
  return wrkNumbers(spawnSync('wrk', [...args, url], { encoding: 'utf8' }).stdout);
}

// A POST makes a customer; the next request deletes the one its answer named, so POSTs and DELETEs
// alternate and the collection stays near its 100 customers.
const POST_DELETE = `
local made = {}
function request()
  local id = table.remove(made)
  if id then
    return wrk.format("DELETE", "/endpoint/shop/v1/customers/" .. id, { ["Authorization"] = "${STRIPE_AUTH}" })
  end
  return wrk.format("POST", "/endpoint/shop/v1/customers",
    { ["Authorization"] = "${STRIPE_AUTH}", ["Content-Type"] = "application/x-www-form-urlencoded" }, "${FORM}")
end
function response(status, headers, body)
  if status == 200 then
    local id = body:match('^{[^}]-"id":"(cus_[%w]+)"')
    if id and not body:find('"deleted":true', 1, true) then table.insert(made, id) end
  end
end
`;

async function call(url, init = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return text;
}

/** A fresh daemon with a Stripe twin at `shop` holding 100 customers and a GitHub twin at `code` holding one issue. */
async function mockpoint() {
  const store = STORE === 'level' ? ['--data-dir', mkdtempSync(join(work, 'data-'))] : ['--memory'];
  const server = await start([cli, ...store, '--port', '0', '--host', '127.0.0.1'], {}, children);
  await call(`${server.url}/api/endpoints/shop/twin`, { method: 'PUT', body: '{"provider":"stripe"}' });
  // The bench's own limit, the largest a profile takes: GitHub's 5,000 an hour would end the load within a second.
  const rateLimit = { limit: 1_000_000, per: '1m', style: 'github', status: 403 };
  await call(`${server.url}/api/endpoints/code/twin`, {
    method: 'PUT',
    body: JSON.stringify({ provider: 'github', profile: { rateLimit } }),
  });
  const customers = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const text = await call(`${server.url}/endpoint/shop/v1/customers`, {
      method: 'POST',
      headers: { authorization: STRIPE_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=c${i}%40example.com&name=Customer+${i}`,
    });
    customers.push(JSON.parse(text));
  }
  const github = { authorization: GITHUB_AUTH, 'content-type': 'application/json' };
  await call(`${server.url}/endpoint/code/user/repos`, { method: 'POST', headers: github, body: '{"name":"app"}' });
  await call(`${server.url}/endpoint/code/repos/octocat/app/issues`, {
    method: 'POST',
    headers: github,
    body: '{"title":"Crash on start","body":"Steps: open the app."}',
  });
  const issue = JSON.parse(await call(`${server.url}/endpoint/code${ISSUE}`, { headers: github }));
  return { ...server, customers, issue };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The same load on each server, their order alternated per round. */
function scenario(title, path, options, servers) {
  for (const server of Object.values(servers)) load(`${server.url}${path}`, options, 1); // warm-up
  const totals = alternatedRounds(Object.keys(servers), ROUNDS, (key) => load(`${servers[key].url}${path}`, options));
  console.log(`\n${title}`);
  for (const [key, t] of Object.entries(totals)) {
    console.log(
      `  ${key.padEnd(10)} ${fmt(t.rps).padStart(8)} req/s   p99 ${fmt(t.p99Ms, 2)} ms${t.errors ? `   non-2xx: ${t.errors}` : ''}`,
    );
  }
  const rps = totals.mockpoint.rps / totals.bare.rps;
  const p99 = totals.mockpoint.p99Ms / totals.bare.p99Ms;
  console.log(`  mockpoint: ${fmt(rps, 2)} x bare node:http (p99 ${fmt(p99, 2)} x)`);
}

/** Both servers answer `path` with the same body bytes (the bench's "same work"). */
async function sameBody(servers, path, headers) {
  const [a, b] = await Promise.all([servers.mockpoint, servers.bare].map((s) => call(`${s.url}${path}`, { headers })));
  if (a !== b) throw new Error(`mockpoint and the bare server answer ${path} differently:\n${a}\n${b}`);
}

console.log(
  `mockpoint bench (twins): Node ${process.version}, store ${STORE}, wrk (1 thread, 50 connections), ${ROUNDS} x ${SECONDS}s per server, 127.0.0.1, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
/** Every process started, stopped at the end even when a start or a setup request failed. */
const children = new Set();
try {
  const twin = await mockpoint();
  const stripeVersion = (
    await fetch(`${twin.url}/endpoint/shop/v1/balance`, { headers: { authorization: STRIPE_AUTH } })
  ).headers.get('stripe-version');
  const bare = await start(
    [join(root, 'bench/bare-twin.mjs')],
    { BENCH_TWIN: JSON.stringify({ customers: twin.customers, stripeVersion, issuePath: ISSUE, issue: twin.issue }) },
    children,
  );
  const servers = { mockpoint: twin, bare };
  const one = `/endpoint/shop/v1/customers/${twin.customers[CUSTOMERS - 1].id}`;
  const stripe = { authorization: STRIPE_AUTH };
  const github = { authorization: GITHUB_AUTH };
  await sameBody(servers, one, stripe);
  await sameBody(servers, '/endpoint/shop/v1/customers?limit=10', stripe);
  await sameBody(servers, `/endpoint/code${ISSUE}`, github);
  if (ONLY.has('get')) scenario('Stripe: GET /v1/customers/{id} (one of 100)', one, { headers: stripe }, servers);
  if (ONLY.has('list')) {
    scenario(
      'Stripe: GET /v1/customers?limit=10 (the newest 10 of 100)',
      '/endpoint/shop/v1/customers?limit=10',
      {
        headers: stripe,
      },
      servers,
    );
  }
  if (ONLY.has('write')) {
    scenario(
      'Stripe: POST /v1/customers (a form of 3 fields), then DELETE the customer it made',
      '/',
      {
        script: POST_DELETE,
      },
      servers,
    );
  }
  if (ONLY.has('issue')) {
    scenario(
      'GitHub: GET /repos/{owner}/{repo}/issues/{number} (ETag, rate-limit headers)',
      `/endpoint/code${ISSUE}`,
      {
        headers: github,
      },
      servers,
    );
  }
} finally {
  for (const child of children) await stop({ child });
  rmSync(work, { recursive: true, force: true });
}
