// Reading the journal from the start while requests are served: BENCH_ENTRIES entries (default
// 6,000: 60 unknown names x 100, each with a 2 KB JSON body) in an in-process app's memory
// journal; then, BENCH_ROUNDS times (default 5), a read of `/api/requests/unknown` (the page's
// mistyped-name inbox, polled every 3 s) and, separately, of `/api/requests/stream?after=0` (its
// whole backlog read), each with a cached `GET /endpoint/cached` sent right behind it. Reports the
// read's own time and the GET's latency while it runs, median and max (ms). Bounded: in-process,
// no port.
//
//   BENCH_ENTRIES=6000 node bench/journal-read.mjs
import { loadavg } from 'node:os';
import { createApp, MemoryStore } from '../packages/core/dist/index.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 6000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const NAMES = Math.max(1, Math.ceil(ENTRIES / 100));

const app = createApp({ store: new MemoryStore() });
const body = JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ id: i, text: 'x'.repeat(32) })) });
for (let i = 0; i < ENTRIES; i++) {
  await app.request(`/endpoint/unknown-${i % NAMES}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
}
await app.request('/api/endpoint/add', {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'cached', data: { ok: true } }),
});
const warm = await app.request('/endpoint/cached');
if (warm.status !== 200) throw new Error(`GET /endpoint/cached answered ${warm.status}`);

/**
 * Runs `read`, sending cached GETs one after another while it runs: the read's time, and the
 * GETs' latencies (each waits for whatever synchronous work the read does on the event loop).
 */
async function measure(read) {
  const gets = [];
  let reading = true;
  const started = performance.now();
  const done = read().finally(() => {
    reading = false;
  });
  while (reading) {
    const getStarted = performance.now();
    // Through the event loop, as a request on a socket would come (a macrotask after the read's work).
    await new Promise((resolve) => setImmediate(resolve));
    const got = await app.request('/endpoint/cached');
    await got.arrayBuffer();
    gets.push(performance.now() - getStarted);
  }
  const detail = await done;
  return { readMs: performance.now() - started, getMaxMs: Math.max(...gets), gets: gets.length, detail };
}

async function readUnknown() {
  const response = await app.request('/api/requests/unknown');
  const json = await response.json();
  if (json.names.length !== Math.min(NAMES, 100)) throw new Error(`unknown: ${json.names.length} names`);
}

async function readStream() {
  const controller = new AbortController();
  const response = await app.request('/api/requests/stream?after=0', { signal: controller.signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = 0;
  let text = '';
  while (seen < ENTRIES) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const frames = text.split('\n\n');
    text = frames.pop() ?? '';
    for (const frame of frames) {
      if (frame.includes('event: request')) seen++;
      if (frame.includes('event: end')) text = 'slow-reader';
    }
    if (text === 'slow-reader') break;
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return `${seen} entries sent${text.includes('slow-reader') || seen < ENTRIES ? ' (cut short)' : ''}`;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [label, read] of [
  ['/api/requests/unknown', readUnknown],
  ['/api/requests/stream?after=0', readStream],
]) {
  const runs = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await measure(read));
  const reads = runs.map((r) => r.readMs);
  const worst = runs.map((r) => r.getMaxMs);
  console.log(
    `${label} with ${ENTRIES} entries: read ${median(reads).toFixed(0)} ms (max ${Math.max(...reads).toFixed(0)}); the slowest cached GET meanwhile ${median(worst).toFixed(0)} ms (median of rounds; max ${Math.max(...worst).toFixed(0)})${runs[0].detail ? `; ${runs[0].detail}` : ''} [load ${loadavg()[0].toFixed(1)}]`,
  );
}
