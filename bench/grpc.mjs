// pnpm bench (gRPC): unary calls/s of native gRPC over HTTP/2 cleartext (h2c, prior
// knowledge) on mockpoint's plain port, schema mode (docs/grpc.md), against a bare
// @grpc/grpc-js server answering the same method with the same message
// (bench/bare-grpc.mjs), in the same run, on 127.0.0.1. The load is a grpc-js
// client in this process: one channel (one HTTP/2 connection), IN_FLIGHT calls
// kept in flight for BENCH_SECONDS, rounds alternating the order of the servers.
//
//   BENCH_SECONDS=5 BENCH_ROUNDS=2 BENCH_IN_FLIGHT=32 node bench/grpc.mjs
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

const tests = createRequire(new URL('../packages/server/test/package.json', import.meta.url));
const grpc = tests(tests.resolve('@grpc/grpc-js'));
const {
  create,
  toBinary,
  messages: { SayRequest },
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

/** Calls/s with IN_FLIGHT calls kept in flight for `seconds`, on a fresh channel. */
async function load(address, seconds = SECONDS) {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    await call(client);
    let done = 0;
    const until = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < until) {
        await call(client);
        done++;
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
  return { ...server, address: new URL(server.url).host };
}

async function bare(reply) {
  const server = await start([join(root, 'bench/bare-grpc.mjs')], { BENCH_REPLY: reply.toString('base64') });
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
  console.log(`\nunary /echo.v1.Echo/Say (${REQUEST.length}-byte request, ${reply.length}-byte reply)`);
  for (const [key, rps] of Object.entries(totals)) console.log(`  ${key.padEnd(12)} ${fmt(rps).padStart(8)} calls/s`);
  console.log(`  mockpoint: ${fmt(totals.mockpoint / totals.bare, 2)} x bare grpc-js`);
} finally {
  for (const server of started) await stop(server);
}
