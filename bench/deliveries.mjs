// Outgoing deliveries: BENCH_DELIVERIES signed deliveries (Standard Webhooks, a 1 KB body;
// default 2,000) from an in-process app — the daemon's delivery store (LevelDB, every write
// fsynced; BENCH_STORE=memory for the memory store), 50 attempts in flight — to a local node:http
// receiver, timed from the first POST /api/deliveries to the last delivery recorded done,
// against a bare Node loop doing the same HMAC (node:crypto) and fetch POST with 50 in flight (and
// one doing it with node:http, the stricter baseline),
// in the same run. The deliveries are handed over by 50 callers of the typed client, at most
// BENCH_WINDOW (default 500) ahead of the receiver (the app takes 1,000 pending). Reported as
// deliveries/s and a ratio (mockpoint / bare) per round (BENCH_ROUNDS, default 2; bare and
// mockpoint alternate). Prints the load average: the machine may be shared.
//
//   BENCH_DELIVERIES=10000 node bench/deliveries.mjs
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/deliveries.mjs   # where the time goes
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, createClient } from '../packages/core/dist/index.js';
import { LevelStore } from '../packages/core/dist/level.js';
// A build from before the node:http transport has none: it then sends with fetch.
import * as nodeEntry from '../packages/core/dist/node.js';

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 500);
const STORE = process.env.BENCH_STORE ?? 'level';
const IN_FLIGHT = 50;
const KEY = Buffer.from('bench delivery key of 32 bytes!!');
const SECRET = `whsec_${KEY.toString('base64')}`;
const DATA = { type: 'bench.event', padding: 'x'.repeat(1000) };

let received = 0;
/** Woken by the next arrival. */
const waiting = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(204).end();
    received++;
    for (const wake of waiting.splice(0)) wake();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${receiver.address().port}/hook`;

/** Rate (per s) and CPU time of this process per delivery (µs: sender and receiver, user + system). */
async function measure(run) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { rate: COUNT / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / COUNT };
}

async function bare() {
  const body = JSON.stringify(DATA);
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < COUNT) {
        const id = `msg_${next++}`;
        const ts = Math.floor(Date.now() / 1000);
        const sig = createHmac('sha256', KEY).update(`${id}.${ts}.${body}`).digest('base64');
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${sig}` },
          body,
        });
        await response.arrayBuffer();
      }
    }),
  );
}

/** The same with node:http (a keep-alive agent) in place of fetch: the stricter baseline. */
async function bareHttp() {
  const body = Buffer.from(JSON.stringify(DATA));
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  let next = 0;
  const post = (headers) =>
    new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < COUNT) {
        const id = `msg_${next++}`;
        const ts = Math.floor(Date.now() / 1000);
        const sig = createHmac('sha256', KEY).update(`${id}.${ts}.`).update(body).digest('base64');
        await post({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${sig}` });
      }
    }),
  );
  agent.destroy();
}

async function mockpoint() {
  const dir = STORE === 'level' ? mkdtempSync(join(tmpdir(), 'mockpoint-bench-deliveries-')) : undefined;
  const store = dir === undefined ? undefined : await LevelStore.open({ dir });
  // As the daemon makes it: LevelDB deliveries, sent with node:http (BENCH_SEND=fetch: the portable transport).
  const send = process.env.BENCH_SEND === 'fetch' ? undefined : nodeEntry.nodeDeliverySend?.();
  const app = createApp({ store, deliveries: await store?.openDeliveries(), deliverySend: send });
  const client = createClient({ baseUrl: 'http://bench.local', app });
  try {
    received = 0;
    let submitted = 0;
    const result = await measure(async () => {
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (submitted < COUNT) {
            if (submitted - received >= WINDOW) {
              await new Promise((resolve) => waiting.push(resolve));
              continue;
            }
            submitted++;
            await client.deliver({ url, data: DATA, sign: { scheme: 'standard', secret: SECRET } });
          }
        }),
      );
      // Only the newest 1,000 finished deliveries are kept: wait on the pending count, not on each id.
      const deliveries = app.mockpoint.deliveries.store;
      while ((await deliveries.pendingCount()) > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    });
    const failed = (await client.deliveries({ limit: 1000 })).filter((d) => d.state !== 'delivered');
    if (failed.length > 0) throw new Error(`${failed.length} deliveries not delivered: ${JSON.stringify(failed[0])}`);
    return result;
  } finally {
    await app.mockpoint.deliveries.close();
    await store?.close();
    send?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

const rounds = [];
const ratio = (ours, theirs) =>
  `${theirs.rate.toFixed(0)}/s, CPU ${theirs.cpuUs.toFixed(0)} µs: ratio ${(ours.rate / theirs.rate).toFixed(2)}, CPU ratio ${(theirs.cpuUs / ours.cpuUs).toFixed(2)}`;
for (let round = 0; round < ROUNDS; round++) {
  const viaFetch = await measure(bare);
  const viaHttp = await measure(bareHttp);
  const ours = await mockpoint();
  rounds.push(
    `round ${round + 1}: mockpoint ${ours.rate.toFixed(0)}/s, CPU ${ours.cpuUs.toFixed(0)} µs per delivery; ` +
      `bare fetch loop ${ratio(ours, viaFetch)}; bare node:http loop ${ratio(ours, viaHttp)}`,
  );
}
// The CPU ratio (the bare loop's CPU time per delivery over mockpoint's, this process: sender and
// receiver) is what the rate ratio tends to when the machine is CPU-bound, and is steadier than
// rates on a shared machine.
console.log(
  `deliveries: ${COUNT} signed 1 KB deliveries, ${IN_FLIGHT} in flight, ${STORE} store, ${process.env.BENCH_SEND === 'fetch' || !nodeEntry.nodeDeliverySend ? 'fetch' : 'node:http'} transport (load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')})\n  ${rounds.join('\n  ')}`,
);
receiver.close();
