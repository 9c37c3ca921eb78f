// pnpm bench (gRPC): unary calls/s of native gRPC over HTTP/2 cleartext (h2c, prior
// knowledge) on mockpoint's plain port, schema mode (docs/grpc.md), against a bare
// @grpc/grpc-js server answering the same method with the same message
// (bench/bare-grpc.mjs), in the same run, on 127.0.0.1. The load is a grpc-js
// client in this process: one channel (one HTTP/2 connection), IN_FLIGHT calls
// kept in flight for BENCH_SECONDS, rounds alternating the order of the servers.
// Then a server stream's messages/s: /echo.v1.Echo/Listen answered by a route whose
// `messages` are BENCH_STREAM_MESSAGES copies of that same reply (no delays), against
// the bare server sending the same messages; IN_FLIGHT calls kept in flight.
//
// BENCH_UNARY_ROUTE=body gives the name, for the unary rounds, one HTTP route matching the body
// (which no call can take): the calls then walk the pipeline, and are read as they stream (the
// routes do not read a call's bytes) rather than whole first.
//
//   BENCH_SECONDS=5 BENCH_ROUNDS=2 BENCH_IN_FLIGHT=32 BENCH_STREAM_MESSAGES=100 node bench/grpc.mjs
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ECHO_PROTO, echoFile } from './grpc-echo.mjs';
import { start, stop } from './server-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.BENCH_CLI ?? join(root, 'packages/server/dist/cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 32);
const STREAM_MESSAGES = Number(process.env.BENCH_STREAM_MESSAGES ?? 100);
const UNARY_ROUTE = process.env.BENCH_UNARY_ROUTE;
if (UNARY_ROUTE !== undefined && UNARY_ROUTE !== 'body') throw new Error('BENCH_UNARY_ROUTE: body, or unset');

const tests = createRequire(new URL('../packages/server/test/package.json', import.meta.url));
const grpc = tests(tests.resolve('@grpc/grpc-js'));
const {
  create,
  fromBinary,
  toBinary,
  toJson,
  messages: { SayRequest, SayReply },
} = await echoFile();
const REQUEST = Buffer.from(toBinary(SayRequest, create(SayRequest, { text: 'hello', count: 3 })));
const asIs = (bytes) => bytes;

function call(client) {
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest('/echo.v1.Echo/Say', asIs, asIs, REQUEST, (error, reply) =>
      error ? reject(error) : resolve(reply),
    ),
  );
}

/** A server-streaming call of Listen: the messages received, in order (rejects unless it ends OK). */
function listen(client) {
  return new Promise((resolve, reject) => {
    const got = [];
    const stream = client.makeServerStreamRequest('/echo.v1.Echo/Listen', asIs, asIs, REQUEST);
    stream.on('data', (message) => got.push(message));
    stream.on('error', reject);
    stream.on('end', () => resolve(got));
  });
}

/** Calls/s (or, with `listen`, messages/s) with IN_FLIGHT calls kept in flight for `seconds`, on a fresh channel. */
async function load(address, seconds = SECONDS, kind = call) {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    await kind(client);
    let done = 0;
    const until = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < until) {
        const answer = await kind(client);
        done += kind === listen ? answer.length : 1;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return done / ((performance.now() - started) / 1000);
  } finally {
    client.close();
  }
}

async function mockpoint() {
  const server = await start([cli, '--memory', '--port', '0', '--host', '127.0.0.1']);
  const put = await fetch(`${server.url}/api/endpoints/echo/grpc`, {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'echo/v1/echo.proto': ECHO_PROTO } }),
  });
  if (put.status !== 201) throw new Error(`definitions: ${put.status} ${await put.text()}`);
  if (UNARY_ROUTE === 'body') {
    const routes = [{ id: 'http-body', match: { body: { kind: 'bench' } }, answer: { data: {} } }];
    const put = await fetch(`${server.url}/api/endpoints/echo/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes }),
    });
    if (put.status !== 200) throw new Error(`routes: ${put.status} ${await put.text()}`);
  }
  return { ...server, address: new URL(server.url).host };
}

/** A route answering Listen with STREAM_MESSAGES copies of `reply`, in proto3 JSON. */
async function streamRoute(server, reply) {
  const message = toJson(SayReply, fromBinary(SayReply, reply));
  const routes = [
    {
      match: { grpc: { method: 'Listen' } },
      answer: { grpc: { messages: Array.from({ length: STREAM_MESSAGES }, () => ({ message })) } },
    },
  ];
  const put = await fetch(`${server.url}/api/endpoints/echo/routes`, {
    method: 'PUT',
    body: JSON.stringify({ routes }),
  });
  if (put.status !== 200) throw new Error(`routes: ${put.status} ${await put.text()}`);
}

async function bare(reply) {
  const server = await start([join(root, 'bench/bare-grpc.mjs')], {
    BENCH_REPLY: reply.toString('base64'),
    BENCH_STREAM_MESSAGES: String(STREAM_MESSAGES),
  });
  return { ...server, address: new URL(server.url).host };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(
  `mockpoint bench (native gRPC, h2c): Node ${process.version}, grpc-js client, 1 channel, ${IN_FLIGHT} in flight, ${ROUNDS} x ${SECONDS}s per server, 127.0.0.1`,
);
const started = [];
try {
  const first = await mockpoint();
  started.push(first);
  // The bare server answers exactly the message mockpoint answers the request with.
  const client = new grpc.Client(first.address, grpc.credentials.createInsecure());
  const reply = await call(client).finally(() => client.close());
  const servers = { mockpoint: first, bare: await bare(reply) };
  started.push(servers.bare);
  const check = new grpc.Client(servers.bare.address, grpc.credentials.createInsecure());
  const bareReply = await call(check).finally(() => check.close());
  if (!reply.equals(bareReply)) throw new Error('mockpoint and the bare server answer different messages');
  for (const server of Object.values(servers)) await load(server.address, 1); // warm-up
  const totals = { mockpoint: 0, bare: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const keys = round % 2 === 0 ? ['mockpoint', 'bare'] : ['bare', 'mockpoint'];
    for (const key of keys) totals[key] += (await load(servers[key].address)) / ROUNDS;
  }
  const routed = UNARY_ROUTE === 'body' ? ', beside an HTTP route matching the body' : '';
  console.log(`\nunary /echo.v1.Echo/Say (${REQUEST.length}-byte request, ${reply.length}-byte reply${routed})`);
  for (const [key, rps] of Object.entries(totals)) console.log(`  ${key.padEnd(12)} ${fmt(rps).padStart(8)} calls/s`);
  console.log(`  mockpoint: ${fmt(totals.mockpoint / totals.bare, 2)} x bare grpc-js`);

  // A server stream (the route is added after the unary rounds, which stay in schema mode with no route).
  await streamRoute(servers.mockpoint, reply);
  const streamed = {};
  for (const [key, server] of Object.entries(servers)) {
    const check = new grpc.Client(server.address, grpc.credentials.createInsecure());
    streamed[key] = await listen(check).finally(() => check.close());
  }
  const same = (a, b) => a.length === b.length && a.every((message, i) => message.equals(b[i]));
  if (streamed.mockpoint.length !== STREAM_MESSAGES || !same(streamed.mockpoint, streamed.bare))
    throw new Error('mockpoint and the bare server stream different messages');
  for (const server of Object.values(servers)) await load(server.address, 1, listen); // warm-up
  const rates = { mockpoint: 0, bare: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const keys = round % 2 === 0 ? ['mockpoint', 'bare'] : ['bare', 'mockpoint'];
    for (const key of keys) rates[key] += (await load(servers[key].address, SECONDS, listen)) / ROUNDS;
  }
  console.log(`\nserver stream /echo.v1.Echo/Listen (${STREAM_MESSAGES} messages of ${reply.length} bytes per call)`);
  for (const [key, mps] of Object.entries(rates)) console.log(`  ${key.padEnd(12)} ${fmt(mps).padStart(8)} messages/s`);
  console.log(`  mockpoint: ${fmt(rates.mockpoint / rates.bare, 2)} x bare grpc-js`);
} finally {
  for (const server of started) await stop(server);
}
