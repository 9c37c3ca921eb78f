// Outgoing deliveries: BENCH_DELIVERIES signed deliveries (Standard Webhooks, a 1 KB body;
// default 2,000) from an in-process app (memory store, 50 in flight) to a local node:http
// receiver, timed from the first POST /api/deliveries to the last delivery done — against a
// bare Node loop doing the same HMAC (node:crypto) and fetch POST with 50 in flight, in the
// same run. Reported as deliveries/s and a ratio (mockpoint / bare). Prints the load average:
// the machine may be shared.
//
//   BENCH_DELIVERIES=10000 node bench/deliveries.mjs
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { createApp, createClient } from '../packages/core/dist/index.js';

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 2000);
const IN_FLIGHT = 50;
const KEY = Buffer.from('bench delivery key of 32 bytes!!');
const SECRET = `whsec_${KEY.toString('base64')}`;
const DATA = { type: 'bench.event', padding: 'x'.repeat(1000) };

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${receiver.address().port}/hook`;

async function bare() {
  const body = JSON.stringify(DATA);
  let next = 0;
  const started = performance.now();
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
  return COUNT / ((performance.now() - started) / 1000);
}

async function mockpoint() {
  const app = createApp();
  const client = createClient({ baseUrl: 'http://bench.local', app });
  const started = performance.now();
  for (let i = 0; i < COUNT; i++) {
    await client.deliver({ url, data: DATA, sign: { scheme: 'standard', secret: SECRET } });
  }
  // Only the newest 1,000 finished deliveries are kept: wait on the pending count, not on each id.
  const { store } = app.mockpoint.deliveries;
  while ((await store.pendingCount()) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const rate = COUNT / ((performance.now() - started) / 1000);
  const failed = (await client.deliveries({ limit: 1000 })).filter((d) => d.state !== 'delivered');
  if (failed.length > 0) throw new Error(`${failed.length} deliveries not delivered`);
  await app.mockpoint.deliveries.close();
  return rate;
}

const bareRate = await bare();
const ourRate = await mockpoint();
console.log(
  `deliveries: ${COUNT} signed 1 KB deliveries, ${IN_FLIGHT} in flight: mockpoint ${ourRate.toFixed(0)}/s, bare node loop ${bareRate.toFixed(0)}/s, ratio ${(ourRate / bareRate).toFixed(2)} (load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')})`,
);
receiver.close();
