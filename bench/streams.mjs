// pnpm bench (streams): two short measurements on 127.0.0.1, each server in its own process.
//
// 1. A streamed answer: BENCH_STREAM_READERS concurrent readers (default 1,000) of a 10-event
//    SSE stream, events 10 ms apart; the time from sending the request to the last byte (the
//    terminating chunk), p50/p99 — against a bare node:http server writing the same SSE bytes
//    with the same setTimeout chain, in the same run. Reported as a ratio (mockpoint / bare).
// 2. The live journal's fan-out: BENCH_WATCHERS followers (default 100) of
//    /api/requests/stream while webhooks are POSTed at BENCH_RATE per second (default 2,000)
//    for BENCH_SECONDS (default 2) by BENCH_SENDERS processes (default 4) on keep-alive
//    connections; the rate offered and the rate answered are reported as measured. Every follower
//    must see every entry; the delay from sending a webhook to each follower receiving it, p50/p99.
//
// The load average is printed with each line: the machine may be shared.
//
//   BENCH_STREAM_READERS=500 BENCH_WATCHERS=50 BENCH_RATE=1000 node bench/streams.mjs
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, stop } from './server-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const READERS = Number(process.env.BENCH_STREAM_READERS ?? 1000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 4);
const EVENTS = 10;
const GAP_MS = 10;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const load = () => loadavg()[0].toFixed(1);

// ---- 1. streamed answer vs bare node:http ----

/** The events both servers send: an OpenAI-like chunk, 10 ms apart. */
const events = Array.from({ length: EVENTS }, (_, i) => ({
  id: String(i + 1),
  data: { id: 'chatcmpl-bench', choices: [{ index: 0, delta: { content: `token ${i + 1}` } }] },
  delay: GAP_MS,
}));

/** The bare server: writes the same SSE frames with a setTimeout chain (run as a child with BENCH_BARE_SSE=1). */
function bareSse() {
  const frames = events.map((e) => `id: ${e.id}\ndata: ${JSON.stringify(e.data)}\n\n`);
  const server = import('node:http').then(({ createServer }) =>
    createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': '*',
      });
      res.flushHeaders();
      let i = 0;
      const next = () => {
        res.write(frames[i++]);
        if (i < frames.length) timer = setTimeout(next, GAP_MS);
        else res.end();
      };
      let timer = setTimeout(next, GAP_MS);
      res.on('close', () => clearTimeout(timer));
    }),
  );
  server.then((s) => s.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${s.address().port}`)));
  process.on('SIGTERM', () =>
    server.then((s) => {
      s.closeAllConnections();
      s.close(() => process.exit(0));
    }),
  );
}

/** READERS requests at once; resolves with each one's time to its last byte, in ms, sorted. */
async function readAll(url, method = 'GET') {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const times = await Promise.all(
    Array.from(
      { length: READERS },
      () =>
        new Promise((resolve, reject) => {
          const started = performance.now();
          const req = request(url, { method, agent }, (res) => {
            let bytes = 0;
            res.on('data', (chunk) => {
              bytes += chunk.length;
            });
            res.on('end', () => (bytes > 0 ? resolve(performance.now() - started) : reject(new Error('empty stream'))));
            res.on('error', reject);
          });
          req.on('error', reject);
          req.end();
        }),
    ),
  );
  agent.destroy();
  return times.sort((a, b) => a - b);
}

async function streamedAnswer() {
  const mock = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1']);
  const bare = await start([fileURLToPath(import.meta.url)], { BENCH_BARE_SSE: '1' });
  try {
    const put = await fetch(`${mock.url}/api/endpoints/llm/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { stream: { format: 'sse', events } } }] }),
    });
    if (put.status !== 200) throw new Error(`PUT routes: ${put.status} ${await put.text()}`);
    // Same bytes on both: checked once.
    const [a, b] = await Promise.all([
      fetch(`${mock.url}/endpoint/llm/`).then((r) => r.text()),
      fetch(`${bare.url}/`).then((r) => r.text()),
    ]);
    if (a !== b) throw new Error('the two servers stream different bytes');
    // One pass each first, not counted: both servers warmed up (JIT, the route compiled).
    await readAll(`${mock.url}/endpoint/llm/`);
    await readAll(`${bare.url}/`);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const m = await readAll(`${mock.url}/endpoint/llm/`);
      const n = await readAll(`${bare.url}/`);
      rounds.push({ m, n });
    }
    const best = (key) => rounds.map((r) => r[key]).sort((x, y) => percentile(x, 99) - percentile(y, 99))[0];
    const m = best('m');
    const n = best('n');
    const ideal = EVENTS * GAP_MS;
    console.log(
      `streamed answer: ${READERS} concurrent readers of ${EVENTS} SSE events ${GAP_MS} ms apart (ideal ${ideal} ms), best of ${ROUNDS}, load ${load()}:\n` +
        `  mockpoint p50 ${percentile(m, 50).toFixed(0)} ms, p99 ${percentile(m, 99).toFixed(0)} ms; ` +
        `bare node:http p50 ${percentile(n, 50).toFixed(0)} ms, p99 ${percentile(n, 99).toFixed(0)} ms; ` +
        `ratio p99 ${(percentile(m, 99) / percentile(n, 99)).toFixed(2)}x`,
    );
  } finally {
    await Promise.all([stop(mock), stop(bare)]);
  }
}

// ---- 2. journal stream fan-out ----

const now = () => performance.timeOrigin + performance.now();

/** Opens one follower of every name's requests; calls `onEntry(n, lagMs)` per request event. */
function follow(url, onEntry) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/requests/stream`, { agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream: ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.includes('event: journal')) resolve(req);
          if (frame.includes('event: request')) {
            const at = now();
            const sent = /"query":\{"n":"(\d+)","t":"([\d.]+)"/.exec(frame);
            if (sent) onEntry(Number(sent[1]), at - Number(sent[2]));
          }
          end = buffer.indexOf('\n\n');
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The followers, in a process of their own (so that parsing their streams does not slow the
 * load generator): prints `ready`, then, on stdin's end, counts and lags as JSON.
 */
async function followers() {
  const url = process.env.BENCH_URL;
  const seen = Array.from({ length: WATCHERS }, () => 0);
  const lags = [];
  const reqs = await Promise.all(
    Array.from({ length: WATCHERS }, (_, w) =>
      follow(url, (_n, lag) => {
        seen[w]++;
        lags.push(lag);
      }),
    ),
  );
  console.log('ready');
  const total = Number(process.env.BENCH_TOTAL);
  const deadline = Date.now() + 30_000;
  while (seen.some((count) => count < total) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const req of reqs) req.destroy();
  lags.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      complete: seen.filter((count) => count === total).length,
      p50: percentile(lags, 50),
      p99: percentile(lags, 99),
      max: lags.at(-1),
    }),
  );
  process.exit(0);
}

/**
 * One sender, in a process of its own: POSTs webhooks n = BENCH_INDEX, +SENDERS, ... below
 * BENCH_TOTAL, paced in 10 ms ticks at RATE / SENDERS per second on keep-alive connections, then
 * prints when it began, when it had offered the last one, when the last answer came (epoch ms),
 * and how many were answered 2xx or failed.
 */
async function sender() {
  const url = process.env.BENCH_URL;
  const total = Number(process.env.BENCH_TOTAL);
  const index = Number(process.env.BENCH_INDEX);
  const mine = [];
  for (let n = index; n < total; n += SENDERS) mine.push(n);
  const rate = RATE / SENDERS;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const body = JSON.stringify({ type: 'payment_intent.succeeded', data: { amount: 2000 } });
  let ok = 0;
  let failed = 0;
  let last = 0;
  const post = (n) =>
    new Promise((resolve) => {
      const req = request(`${url}/endpoint/hook?n=${n}&t=${now().toFixed(3)}`, { method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode < 300) ok++;
          else failed++;
          last = now();
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  const perTick = Math.max(1, Math.round(rate / 100));
  const pending = [];
  const first = now();
  const began = performance.now();
  for (let i = 0; i < mine.length; i += perTick) {
    for (const n of mine.slice(i, i + perTick)) pending.push(post(n));
    const wait = began + ((i + perTick) / rate) * 1000 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const offered = now();
  await Promise.all(pending);
  agent.destroy();
  console.log(JSON.stringify({ first, offered, last, ok, failed }));
  process.exit(0);
}

async function fanOut() {
  const mock = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1', '--journal-size', '100000']);
  try {
    await fetch(`${mock.url}/api/endpoints/hook`, { method: 'PUT', body: JSON.stringify({ data: { ok: true } }) });
    const total = RATE * SECONDS;
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_FOLLOWERS: '1', BENCH_URL: mock.url, BENCH_TOTAL: String(total) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const ready = new Promise((resolve) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('ready')) resolve();
      });
    });
    const finished = new Promise((resolve) => child.once('exit', resolve));
    await ready;
    // The webhooks come from SENDERS processes of their own, each offering its share of the rate
    // on keep-alive connections: one Node process alone cannot offer 2,000 POSTs/s on a busy machine.
    const senders = Array.from({ length: SENDERS }, (_, index) => {
      const sender = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
        env: {
          ...process.env,
          BENCH_SENDER: '1',
          BENCH_URL: mock.url,
          BENCH_TOTAL: String(total),
          BENCH_INDEX: String(index),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let said = '';
      sender.stdout.on('data', (chunk) => {
        said += chunk;
      });
      return new Promise((resolve) => sender.once('exit', () => resolve(JSON.parse(said))));
    });
    const sent = await Promise.all(senders);
    await finished;
    const result = JSON.parse(out.slice(out.indexOf('{')));
    const first = Math.min(...sent.map((s) => s.first));
    const offeredS = (Math.max(...sent.map((s) => s.offered)) - first) / 1000;
    const answeredS = (Math.max(...sent.map((s) => s.last)) - first) / 1000;
    const ok = sent.reduce((sum, s) => sum + s.ok, 0);
    const failed = sent.reduce((sum, s) => sum + s.failed, 0);
    console.log(
      `journal stream fan-out: ${WATCHERS} followers of /api/requests/stream (in their own process), ${total} webhooks from ${SENDERS} sender processes, target ${RATE}/s: offered ${(total / offeredS).toFixed(0)}/s, answered ${(ok / answeredS).toFixed(0)}/s (${ok} answered, ${failed} failed), load ${load()}:\n` +
        `  ${result.complete}/${WATCHERS} followers saw every entry; delivery lag (send to follower) p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms`,
    );
  } finally {
    await stop(mock);
  }
}

if (process.env.BENCH_BARE_SSE === '1') bareSse();
else if (process.env.BENCH_FOLLOWERS === '1') await followers();
else if (process.env.BENCH_SENDER === '1') await sender();
else {
  const only = new Set((process.env.BENCH_ONLY ?? 'stream,fanout').split(','));
  if (only.has('stream')) await streamedAnswer();
  if (only.has('fanout')) await fanOut();
}
