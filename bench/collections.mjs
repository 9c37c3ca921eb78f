// pnpm bench (collections): a resource route (docs/state.md) against a bare
// node:http server doing the same work in memory on parsed objects, keeping a
// list's answer until the next write as mockpoint does (bench/bare-collection.mjs), and against json-server 0.17.4 on the same data,
// in the same run, on 127.0.0.1: a filtered, sorted, paged list of 1,000 items,
// a GET of one item, and writes: each POST's item deleted by a later request
// (json-server rewrites its whole file on each). Each server is a process of its own; wrk (1 thread) loads it.
//
//   BENCH_SECONDS=5 BENCH_ROUNDS=2 node bench/collections.mjs
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop } from './server-process.mjs';
import { alternatedRounds, wrkNumbers } from './wrk-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-collections-'));

const items = Array.from({ length: 1000 }, (_, i) => ({
  id: i + 1,
  title: `item ${i + 1}`,
  views: (i * 7919) % 1000,
  tags: ['a', 'b'],
  owner: { name: `user ${i % 50}` },
}));
const LIST = '?views_gte=500&_sort=views&_order=desc&_page=2&_limit=20';
const ONE = '/500';
const NEW_ITEM = JSON.stringify({ title: 'new', views: 1, tags: [] });

if (spawnSync('wrk', ['--version']).error !== undefined) {
  console.error('mockpoint bench: wrk is not installed (Debian: apt-get install wrk)');
  process.exit(1);
}

function load(url, { script, connections = 50 } = {}, seconds = SECONDS) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  if (script) {
    const file = join(work, `s${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(file, script);
    args.push('-s', file);
  }
  const r = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  return wrkNumbers(r.stdout);
}

// Each answer's Location is deleted by a later request: POSTs and DELETEs alternate, the collection stays near 1,000 items.
const POST_DELETE = `
local made = {}
function request()
  local location = table.remove(made)
  if location then return wrk.format("DELETE", location) end
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, ${JSON.stringify(NEW_ITEM)})
end
function response(status, headers, body)
  local location = headers["Location"] or headers["location"]
  if status == 201 and location then table.insert(made, (location:gsub("^https?://[^/]+", ""))) end
end
`;

/** A fresh mockpoint daemon with `items` as collection `items` of `api`, served at /endpoint/api/items. */
async function mockpoint() {
  const server = await start([
    cli,
    '--memory',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--max-collection-items',
    '10000000',
    '--max-collection-bytes',
    String(1024 * 1024 * 1024),
  ]);
  const put = await fetch(`${server.url}/api/endpoints/api/collections`, {
    method: 'PUT',
    body: JSON.stringify({ items }),
  });
  if (put.status !== 200) throw new Error(`collections: ${put.status} ${await put.text()}`);
  const routes = await fetch(`${server.url}/api/endpoints/api/routes`, {
    method: 'PUT',
    body: JSON.stringify({ routes: [{ match: { path: '/items' }, answer: { resource: 'items' } }] }),
  });
  if (routes.status !== 200) throw new Error(`routes: ${routes.status} ${await routes.text()}`);
  return { ...server, base: `${server.url}/endpoint/api/items` };
}

async function bare() {
  const server = await start([join(root, 'bench/bare-collection.mjs')], { BENCH_ITEMS: JSON.stringify(items) });
  return { ...server, base: `${server.url}/endpoint/api/items` };
}

/** json-server 0.17.4 on the same items (its own process), once it answers. */
async function jsonServer() {
  const dir = mkdtempSync(join(work, 'json-server-'));
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ items }));
  const bin = createRequire(join(root, 'packages/core/package.json')).resolve('json-server/lib/cli/bin.js');
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(
    process.execPath,
    [bin, join(dir, 'db.json'), '--host', '127.0.0.1', '--port', String(port), '--quiet'],
    {
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${url}/db`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('json-server did not start within 10 s');
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The same request to each server, the servers alternated per round; each server fresh for writes. */
async function scenario(title, path, options, servers) {
  for (const [, server] of Object.entries(servers)) load(`${server.base}${path}`, options, 1); // warm-up
  const totals = alternatedRounds(Object.keys(servers), ROUNDS, (key) => load(`${servers[key].base}${path}`, options));
  console.log(`\n${title}`);
  for (const [key, t] of Object.entries(totals)) {
    console.log(
      `  ${key.padEnd(12)} ${fmt(t.rps).padStart(8)} req/s   p99 ${fmt(t.p99Ms, 2)} ms${t.errors ? `   non-2xx: ${t.errors}` : ''}`,
    );
  }
  const ratio = (key) => totals.mockpoint.rps / totals[key].rps;
  console.log(
    `  mockpoint: ${fmt(ratio('bare'), 2)} x bare node:http${totals['json-server'] ? `, ${fmt(ratio('json-server'), 1)} x json-server` : ''}`,
  );
}

console.log(
  `mockpoint bench (collections): Node ${process.version}, 1,000 items, wrk (1 thread, 50 connections), ${ROUNDS} x ${SECONDS}s per server, 127.0.0.1`,
);
const started = [];
try {
  const servers = { mockpoint: await mockpoint(), bare: await bare() };
  const peer = await jsonServer();
  started.push(servers.mockpoint, servers.bare, peer);
  servers['json-server'] = { ...peer, base: `${peer.url}/items` };
  const a = await (await fetch(`${servers.mockpoint.base}${LIST}`)).json();
  const b = await (await fetch(`${servers['json-server'].base}${LIST}`)).json();
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('mockpoint and json-server list different items');
  await scenario(`GET ${LIST} (filter, sort, page 20 of 1,000)`, LIST, {}, servers);
  await scenario(`GET /items${ONE} (one item by id)`, ONE, {}, servers);
  await scenario(
    'POST /items, then DELETE the item it made (writes; the collection stays near 1,000 items)',
    '',
    { script: POST_DELETE },
    servers,
  );
} finally {
  for (const server of started) if (server.child) await stop(server);
  rmSync(work, { recursive: true, force: true });
}
