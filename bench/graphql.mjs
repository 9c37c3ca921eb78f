// pnpm bench (GraphQL): schema mode (docs/graphql.md) against a bare node:http
// server parsing, validating and executing the same query with graphql and
// @graphql-tools/mock (bench/bare-graphql.mjs), in the same run, on 127.0.0.1: a
// query of moderate size (a viewer, 5 fields, two nested lists: 2 repositories
// x 2 issues with an author each, about 40 values), POSTed as JSON with
// variables. Each server is a process of its own; wrk (1 thread) loads it.
//
//   BENCH_SECONDS=5 BENCH_ROUNDS=2 node bench/graphql.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeLoad } from './node-load.mjs';
import { start, stop } from './server-process.mjs';
import { wrkNumbers } from './wrk-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-graphql-'));

const SDL = `
scalar DateTime
scalar URI
enum IssueState { OPEN CLOSED }
type User { id: ID! login: String! name: String avatarUrl: URI! createdAt: DateTime! }
type Issue { id: ID! number: Int! title: String! state: IssueState! author: User createdAt: DateTime! }
type Repository {
  id: ID! name: String! description: String stargazerCount: Int! forkCount: Int! isPrivate: Boolean!
  url: URI! updatedAt: DateTime! owner: User! issues(first: Int, states: [IssueState!]): [Issue!]!
}
type Query { viewer: User! repositories(owner: String!, first: Int): [Repository!]! }
`;
const QUERY = `query Dashboard($owner: String!, $first: Int!) {
  viewer { login name avatarUrl createdAt }
  repositories(owner: $owner, first: $first) {
    id name description stargazerCount forkCount isPrivate url updatedAt
    owner { login }
    issues(first: 2, states: [OPEN]) { number title state createdAt author { login avatarUrl } }
  }
}`;
const BODY = JSON.stringify({ query: QUERY, operationName: 'Dashboard', variables: { owner: 'acme', first: 10 } });

// wrk when it is installed; otherwise a Node load generator (slower: it shares the CPU with the servers).
const WRK = spawnSync('wrk', ['--version']).error === undefined;

const scriptFile = join(work, 'post.lua');
writeFileSync(
  scriptFile,
  `wrk.method = "POST"\nwrk.body = ${JSON.stringify(BODY)}\nwrk.headers["Content-Type"] = "application/json"\n`,
);

async function load(url, seconds = SECONDS) {
  if (!WRK) {
    return nodeLoad(url, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json' }, seconds });
  }
  const args = ['-t1', '-c50', `-d${seconds}s`, '--latency', '--timeout', '10s', '-s', scriptFile, url];
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  return wrkNumbers(r.stdout);
}

async function mockpoint() {
  const server = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1']);
  const put = await fetch(`${server.url}/api/endpoints/gql/graphql`, { method: 'PUT', body: SDL });
  if (put.status !== 201) throw new Error(`schema: ${put.status} ${await put.text()}`);
  return { ...server, base: `${server.url}/endpoint/gql/graphql` };
}

async function bare() {
  const server = await start([join(root, 'bench/bare-graphql.mjs')], { BENCH_SDL: SDL });
  return { ...server, base: `${server.url}/graphql` };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(
  `mockpoint bench (GraphQL schema mode): Node ${process.version}, ${WRK ? 'wrk (1 thread, 50 connections)' : 'no wrk: a Node load generator (50 connections)'}, ${ROUNDS} x ${SECONDS}s per server, 127.0.0.1`,
);
const started = [];
try {
  const servers = { mockpoint: await mockpoint(), bare: await bare() };
  started.push(servers.mockpoint, servers.bare);
  // Both answer the query with data of the same shape (the values differ: mockpoint seeds its own).
  const shapes = await Promise.all(
    Object.values(servers).map(async (server) => {
      const answer = await (
        await fetch(server.base, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json' } })
      ).json();
      if (answer.errors) throw new Error(`${server.base}: ${JSON.stringify(answer.errors)}`);
      return JSON.stringify(answer, (_key, value) => (typeof value === 'object' ? value : typeof value));
    }),
  );
  if (shapes[0] !== shapes[1]) throw new Error('mockpoint and the bare server answer different shapes');
  for (const server of Object.values(servers)) await load(server.base, 1); // warm-up
  const totals = { mockpoint: { rps: 0, p99Ms: 0, errors: 0 }, bare: { rps: 0, p99Ms: 0, errors: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    const keys = round % 2 === 0 ? ['mockpoint', 'bare'] : ['bare', 'mockpoint'];
    for (const key of keys) {
      const r = await load(servers[key].base);
      totals[key].rps += r.rps / ROUNDS;
      totals[key].p99Ms += r.p99Ms / ROUNDS;
      totals[key].errors += r.errors;
    }
  }
  console.log(`\nPOST query Dashboard (${Buffer.byteLength(BODY)} bytes; 2 repositories x 2 issues)`);
  for (const [key, t] of Object.entries(totals)) {
    console.log(
      `  ${key.padEnd(12)} ${fmt(t.rps).padStart(8)} req/s   p99 ${fmt(t.p99Ms, 2)} ms${t.errors ? `   non-2xx: ${t.errors}` : ''}`,
    );
  }
  console.log(`  mockpoint: ${fmt(totals.mockpoint.rps / totals.bare.rps, 2)} x bare node:http + graphql`);
} finally {
  for (const server of started) await stop(server);
  rmSync(work, { recursive: true, force: true });
}
