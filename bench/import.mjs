// pnpm bench (import): `mockpoint import` of a 5,000-mapping WireMock folder (mappings/ + __files/, as
// WireMock's recorder writes it) and of a 2,000-entry HAR (seconds and peak RSS of the CLI process),
// then the daemon serving the imported file: the route first in the list against the route last in it
// (the goal: the last ≥ 0.9 × the first), and WireMock itself (the `wiremock` npm package's jar)
// answering the same mappings, in the same run, on 127.0.0.1, wrk (1 thread, 50 connections).
//
//   BENCH_SECONDS=3 BENCH_ROUNDS=3 node bench/import.mjs
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop } from './server-process.mjs';
import { wrkNumbers } from './wrk-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MAPPINGS = Number(process.env.BENCH_MAPPINGS ?? 5000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 2000);
const work = mkdtempSync(join(tmpdir(), 'mockpoint-bench-import-'));

if (spawnSync('wrk', ['--version']).error !== undefined) {
  console.error('mockpoint bench: wrk is not installed (Debian: apt-get install wrk)');
  process.exit(1);
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A WireMock root as its recorder writes one: a file per mapping, every tenth body in __files/. */
function wireMockFolder() {
  const dir = join(work, 'wiremock');
  mkdirSync(join(dir, 'mappings'), { recursive: true });
  mkdirSync(join(dir, '__files'));
  for (let i = 0; i < MAPPINGS; i++) {
    const body = JSON.stringify({ id: i, name: `item ${i}`, tags: ['a', 'b'], price: 1.5 });
    const response = { status: 200, headers: { 'Content-Type': 'application/json' } };
    if (i % 10 === 0) {
      writeFileSync(join(dir, '__files', `body-items-${i}.json`), body);
      response.bodyFileName = `body-items-${i}.json`;
    } else response.body = body;
    const mapping = {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      request: { url: `/api/items/${i}?view=full`, method: 'GET' },
      response,
      persistent: true,
    };
    writeFileSync(join(dir, 'mappings', `items_${i}-${mapping.id}.json`), JSON.stringify(mapping, null, 2));
  }
  return dir;
}

function harFile() {
  const entries = Array.from({ length: ENTRIES }, (_, i) => ({
    startedDateTime: new Date(0).toISOString(),
    time: 1,
    request: { method: 'GET', url: `https://api.example.com/v1/things/${i}?page=1`, headers: [], queryString: [] },
    response: {
      status: 200,
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { mimeType: 'application/json', size: 40, text: JSON.stringify({ id: i, ok: true }) },
    },
    timings: { send: 0, wait: 1, receive: 0 },
  }));
  const file = join(work, 'recording.har');
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'bench', version: '1' }, entries } }));
  return file;
}

/** `mockpoint import …` as a process: seconds, and its peak RSS (reported by the process itself at exit). */
function runImport(source, out) {
  const rss = `data:text/javascript,process.on('exit',()=>process.stderr.write('MAXRSS '+process.resourceUsage().maxRSS+'\\n'))`;
  const began = performance.now();
  const run = spawnSync(process.execPath, ['--import', rss, cli, 'import', source, '--name', 'api', '--out', out], {
    encoding: 'utf8',
  });
  const seconds = (performance.now() - began) / 1000;
  if (run.status !== 0) throw new Error(`import ${source}: ${run.stderr}`);
  const kib = Number(/MAXRSS (\d+)/.exec(run.stderr)?.[1]);
  return { seconds, rssMiB: kib / 1024, summary: run.stderr.split('\n').find((l) => / of /.test(l)) ?? '' };
}

function load(url, seconds = SECONDS) {
  const r = spawnSync('wrk', ['-t1', '-c50', `-d${seconds}s`, '--latency', '--timeout', '10s', url], {
    encoding: 'utf8',
  });
  return wrkNumbers(r.stdout);
}

async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** WireMock from the `wiremock` npm package on the folder, once its admin API answers (at most 90 s). */
async function wireMock(dir) {
  // The server tests' devDependency (@mockpoint/server-test; they start the same jar).
  const pkg = join(root, 'packages/server/test/node_modules/wiremock');
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const jar = join(pkg, 'build', `wiremock-standalone-${version}.jar`);
  const port = await freePort();
  const child = spawn(
    'java',
    [
      '-jar',
      jar,
      '--port',
      String(port),
      '--bind-address',
      '127.0.0.1',
      '--root-dir',
      dir,
      '--disable-banner',
      '--no-request-journal',
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 360; i++) {
    if (
      await fetch(`${url}/__admin/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url, java: true };
    if (child.exitCode !== null) throw new Error(`WireMock exited ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error('WireMock did not start within 90 s');
}

console.log(
  `mockpoint bench (import): Node ${process.version}, ${fmt(MAPPINGS)} WireMock mappings, ${fmt(ENTRIES)} HAR entries, wrk (1 thread, 50 connections), ${SECONDS}s per run, ${ROUNDS} rounds, 127.0.0.1`,
);
const started = [];
try {
  const folder = wireMockFolder();
  const har = harFile();
  const wmOut = join(work, 'from-wiremock.json');
  const wm = runImport(folder, wmOut);
  console.log(
    `\nimport ${fmt(MAPPINGS)}-mapping WireMock folder: ${fmt(wm.seconds, 2)} s, peak RSS ${fmt(wm.rssMiB)} MiB (${wm.summary.replace('mockpoint import: ', '')})`,
  );
  const h = runImport(har, join(work, 'from-har.json'));
  console.log(
    `import ${fmt(ENTRIES)}-entry HAR: ${fmt(h.seconds, 2)} s, peak RSS ${fmt(h.rssMiB)} MiB (${h.summary.replace('mockpoint import: ', '')})`,
  );

  const routes = JSON.parse(readFileSync(wmOut, 'utf8')).endpoints[0].routes;
  // A WireMock `url` (path and query, equal) is imported as an anchored `url.matches` whose only
  // escapes are of literal characters (`\\?`): its URL is that pattern unescaped.
  const pathOf = (route) => {
    if (route.match.url?.matches !== undefined) return route.match.url.matches.replace(/\\(.)/g, '$1');
    const query = new URLSearchParams(route.match.query ?? {}).toString();
    return `${route.match.path}${query ? `?${query}` : ''}`;
  };
  const first = pathOf(routes[0]);
  const last = pathOf(routes.at(-1));
  const daemon = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1', '--config', wmOut]);
  started.push(daemon);
  const peer = await wireMock(folder);
  started.push(peer);
  const targets = {
    'mockpoint first route': `${daemon.url}/endpoint/api${first}`,
    'mockpoint last route': `${daemon.url}/endpoint/api${last}`,
    'WireMock same first': `${peer.url}${first}`,
    'WireMock same last': `${peer.url}${last}`,
  };
  for (const [name, url] of Object.entries(targets)) {
    const text = await fetch(url).then((r) => r.text());
    if (!text.startsWith('{"id":')) throw new Error(`${name}: ${url} answered ${text.slice(0, 100)}`);
  }
  // Both warm up on both routes first (the JVM's JIT over its first seconds: longer for WireMock), then
  // the four targets are measured in turn, ROUNDS times, and each keeps its median round (as run.mjs does):
  // a single run per target put whatever else the machine did into one of them.
  load(targets['mockpoint first route'], 1);
  load(targets['mockpoint last route'], 1);
  load(targets['WireMock same first'], Math.max(3, SECONDS));
  load(targets['WireMock same last'], Math.max(3, SECONDS));
  const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(targets)) rounds[name].push(load(url));
  }
  const median = (runs) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
  const results = Object.fromEntries(Object.entries(rounds).map(([name, runs]) => [name, median(runs)]));
  console.log(
    `\nserving the imported mappings (GET one mapping's URL; the route list is ${fmt(routes.length)} long; median of ${ROUNDS} rounds)`,
  );
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(22)} ${fmt(r.rps).padStart(8)} req/s   p99 ${fmt(r.p99Ms, 2)} ms${r.errors ? `   non-2xx: ${r.errors}` : ''}`,
    );
  }
  const mp = results['mockpoint last route'].rps / results['mockpoint first route'].rps;
  const vs = results['mockpoint last route'].rps / results['WireMock same last'].rps;
  console.log(`  mockpoint: last route ${fmt(mp, 2)} x first route (goal >= 0.9); last route ${fmt(vs, 2)} x WireMock`);
} finally {
  for (const server of started) {
    if (server.java) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      if (server.child.exitCode === null) process.kill(server.child.pid, 'SIGKILL');
      await exited;
    } else await stop(server);
  }
  rmSync(work, { recursive: true, force: true });
}
