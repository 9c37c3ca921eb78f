// pnpm bench (websocket): BENCH_WS_CLIENTS concurrent WebSocket clients (default 1,000), each
// receiving a scripted stream of 20 text frames 10 ms apart, on 127.0.0.1, each server in its own
// process: the mockpoint daemon (a route whose answer is a websocket script; every frame journaled)
// against a bare `ws` server sending the same frames with the same setTimeout chain, in the same run.
// The time from opening the connection to the last frame, p50/p99, best of BENCH_ROUNDS (default 2),
// after one pass each that is not counted. The load average is printed: the machine may be shared.
//
//   BENCH_WS_CLIENTS=500 node bench/websocket.mjs
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { start, stop } from './server-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const FRAMES = 20;
const GAP_MS = 10;

const frames = Array.from({ length: FRAMES }, (_, i) => ({
  json: { type: 'tick', n: i + 1, text: `frame ${i + 1} of ${FRAMES}` },
  delay: GAP_MS,
}));
const texts = frames.map((frame) => JSON.stringify(frame.json));

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const load = () => loadavg()[0].toFixed(1);

/** The bare server (run as a child with BENCH_BARE_WS=1): the same frames, a setTimeout chain per connection. */
function bareServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false }, () =>
    console.log(`listening on http://127.0.0.1:${wss.address().port}`),
  );
  wss.on('connection', (ws) => {
    let i = 0;
    let timer;
    const next = () => {
      ws.send(texts[i++]);
      if (i < texts.length) timer = setTimeout(next, GAP_MS);
    };
    timer = setTimeout(next, GAP_MS);
    ws.on('close', () => clearTimeout(timer));
    ws.on('error', () => undefined);
  });
  process.on('SIGTERM', () => {
    for (const client of wss.clients) client.terminate();
    wss.close(() => process.exit(0));
  });
}

/** CLIENTS connections at once; resolves with each one's time to its last frame, in ms, sorted. */
async function readAll(url) {
  const times = await Promise.all(
    Array.from(
      { length: CLIENTS },
      () =>
        new Promise((resolve, reject) => {
          const started = performance.now();
          const socket = new WebSocket(url, { perMessageDeflate: false });
          let count = 0;
          socket.on('message', (data) => {
            if (data.toString() !== texts[count]) reject(new Error(`frame ${count + 1} differs: ${data}`));
            if (++count === FRAMES) {
              resolve(performance.now() - started);
              socket.close();
            }
          });
          socket.on('error', reject);
        }),
    ),
  );
  return times.sort((a, b) => a - b);
}

async function main() {
  const mock = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1', '--max-sockets-per-name', '100000']);
  const bare = await start([fileURLToPath(import.meta.url)], { BENCH_BARE_WS: '1' });
  try {
    const put = await fetch(`${mock.url}/api/endpoints/ticks/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { websocket: { onOpen: frames } } }] }),
    });
    if (put.status !== 200) throw new Error(`PUT routes: ${put.status} ${await put.text()}`);
    const mockUrl = `${mock.url.replace('http', 'ws')}/endpoint/ticks`;
    const bareUrl = bare.url.replace('http', 'ws');
    await readAll(mockUrl);
    await readAll(bareUrl);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const m = await readAll(mockUrl);
      const n = await readAll(bareUrl);
      rounds.push({ m, n });
    }
    const best = (key) => rounds.map((r) => r[key]).sort((x, y) => percentile(x, 99) - percentile(y, 99))[0];
    const m = best('m');
    const n = best('n');
    console.log(
      `websocket: ${CLIENTS} concurrent clients, each ${FRAMES} scripted frames ${GAP_MS} ms apart (ideal ${FRAMES * GAP_MS} ms), best of ${ROUNDS}, load ${load()}:\n` +
        `  mockpoint p50 ${percentile(m, 50).toFixed(0)} ms, p99 ${percentile(m, 99).toFixed(0)} ms; ` +
        `bare ws p50 ${percentile(n, 50).toFixed(0)} ms, p99 ${percentile(n, 99).toFixed(0)} ms; ` +
        `ratio p99 ${(percentile(m, 99) / percentile(n, 99)).toFixed(2)}x`,
    );
  } finally {
    await stop(mock);
    await stop(bare);
  }
}

if (process.env.BENCH_BARE_WS === '1') bareServer();
else await main();
