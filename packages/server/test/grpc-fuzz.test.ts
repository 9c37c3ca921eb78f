// Seeded fuzz of gRPC-family calls against the built daemon (--memory), with definitions put as a
// descriptor set built here (helpers/random-message.ts): random bytes and random code points as
// Connect JSON and binary bodies, gRPC-Web frames of random flags and lengths, the same frames as
// native gRPC over HTTP/2 cleartext (the direct path), sent in random pieces, random call paths,
// and random well-formed messages of the methods' input types. Every answer is a well-formed
// Connect or gRPC-Web message or error (never a 5xx, never a hang: each call has 10 s), a
// well-formed message is always answered with a message of the output type, `GET /api/health`
// answers within the fuzz bound (5 s) throughout, and the daemon's stderr shows no error. Then random `.proto`
// sources (mutations of a valid file and random text) to `PUT …/grpc`: always 201 or
// 400 INVALID_PROTO naming a given file, with its line and column.
import { type ClientHttp2Session, connect, constants } from 'node:http2';
import { create, type DescMessage, fromBinary, toBinary, toJsonString } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { type Daemon, startDaemon, useDaemons } from './helpers/daemon.js';
import { KINDS_FILE, KINDS_REGISTRY, randomMessage, wellFormed } from './helpers/random-message.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons({ kill: 'file' });

const SEED = 52;
const CASES = 150;
/** Each kind of case stops early past this (the machine is shared; the count is the goal). */
const KIND_BUDGET_MS = 40_000;

const ECHO = '/fuzz.v1.Kinds/Echo';
const everything = KINDS_REGISTRY.getMessage('fuzz.v1.Everything') as DescMessage;

interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

async function post(daemon: Daemon, path: string, type: string, body: Uint8Array | string): Promise<Answer> {
  const response = await fetch(`${daemon.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
}

/** A Connect error body: JSON `{ code, message? }` with a code of Connect's. */
function expectConnectError(answer: Answer, where: string): void {
  expect(answer.status, where).toBeGreaterThanOrEqual(400);
  expect(answer.status, where).toBeLessThan(500);
  const json = JSON.parse(new TextDecoder().decode(answer.body)) as { code?: unknown };
  expect(typeof json.code, where).toBe('string');
}

/**
 * A gRPC-Web answer: Trailers-Only (grpc-status in the headers), or frames ending in a trailer
 * frame; its grpc-status (undefined for an HTTP error).
 */
function expectGrpcWeb(answer: Answer, where: string): string | undefined {
  expect(answer.status, where).toBeLessThan(500);
  if (answer.status !== 200) {
    expectConnectError(answer, where);
    return undefined;
  }
  const header = answer.headers.get('grpc-status');
  if (header !== null) return header;
  let at = 0;
  let trailer = '';
  while (at < answer.body.length) {
    const view = new DataView(answer.body.buffer, answer.body.byteOffset + at);
    const flags = view.getUint8(0);
    const length = view.getUint32(1);
    expect(at + 5 + length, where).toBeLessThanOrEqual(answer.body.length);
    if (flags & 0x80) trailer = new TextDecoder().decode(answer.body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  const status = /^grpc-status: ?(\d+)\r\n/im.exec(trailer)?.[1];
  expect(status, where).toBeDefined();
  return status;
}

function randomBytes(random: () => number, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

/** A gRPC-Web frame or two: random flags (mostly 0), a length that matches or not, random payload. */
function randomFrames(random: () => number): Uint8Array {
  const frames: number[] = [];
  for (let count = 1 + Math.floor(random() * 2); count > 0; count--) {
    const payload =
      random() < 0.5
        ? toBinary(everything, randomMessage(everything, random))
        : randomBytes(random, Math.floor(random() * 40));
    const flags =
      random() < 0.6 ? 0 : ([1, 0x80, 0x81, Math.floor(random() * 256)][Math.floor(random() * 4)] as number);
    const roll = random();
    const length =
      roll < 0.6 ? payload.length : roll < 0.8 ? Math.floor(random() * 64) : Math.floor(random() * 2 ** 32);
    frames.push(flags, length >>> 24, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff, ...payload);
  }
  return Uint8Array.from(frames.slice(0, random() < 0.1 ? Math.floor(random() * frames.length) : frames.length));
}

/** One HTTP/2 connection per daemon for the native cases (closed after the run). */
const sessions = new Map<string, ClientHttp2Session>();

function sessionOf(daemon: Daemon): ClientHttp2Session {
  let session = sessions.get(daemon.url);
  if (session === undefined || session.destroyed || session.closed) {
    session = connect(daemon.url);
    session.on('error', () => undefined);
    sessions.set(daemon.url, session);
  }
  return session;
}

/** A native call of `body` sent in random pieces; its `:status` and `grpc-status` (headers or trailers). */
function nativeCall(daemon: Daemon, body: Uint8Array, random: () => number) {
  return new Promise<{ status: number; grpcStatus: string | undefined; reset: number | undefined }>(
    (resolve, reject) => {
      const stream = sessionOf(daemon).request({
        ':method': 'POST',
        ':path': ECHO,
        'content-type': random() < 0.8 ? 'application/grpc' : 'application/grpc+proto',
        te: 'trailers',
      });
      let status = 0;
      let grpcStatus: string | undefined;
      const timer = setTimeout(() => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new Error('no end within 10 s'));
      }, 10_000);
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
        grpcStatus ??= headers['grpc-status'] as string | undefined;
      });
      stream.on('trailers', (trailers) => {
        grpcStatus ??= trailers['grpc-status'] as string | undefined;
      });
      stream.on('data', () => undefined);
      stream.on('error', () => undefined);
      stream.on('close', () => {
        clearTimeout(timer);
        const reset = stream.rstCode === constants.NGHTTP2_NO_ERROR ? undefined : stream.rstCode;
        resolve({ status, grpcStatus, reset });
      });
      let at = 0;
      while (at < body.length) {
        const size = 1 + Math.floor(random() * 16);
        stream.write(body.subarray(at, at + size));
        at += size;
      }
      stream.end();
    },
  );
}

function closeSessions(): void {
  for (const session of sessions.values()) session.close();
  sessions.clear();
}

/** One case of each kind, by index: what is sent and how its answer is checked. */
const KINDS: Record<string, (daemon: Daemon, random: () => number) => Promise<void>> = {
  async connectJson(daemon, random) {
    const body =
      random() < 0.5 ? randomText(random, Math.floor(random() * 60)) : randomBytes(random, Math.floor(random() * 60));
    const answer = await post(daemon, ECHO, 'application/json', body);
    if (answer.status !== 200) {
      expectConnectError(answer, `json ${String(body)}`);
      return;
    }
    expect(typeof JSON.parse(new TextDecoder().decode(answer.body))).toBe('object');
  },
  async connectBinary(daemon, random) {
    const body = randomBytes(random, Math.floor(random() * 80));
    const where = `binary ${Buffer.from(body).toString('base64')}`;
    const answer = await post(daemon, ECHO, 'application/proto', body);
    if (answer.status !== 200) {
      expectConnectError(answer, where);
      return;
    }
    fromBinary(everything, answer.body);
  },
  async grpcWeb(daemon, random) {
    const body = randomFrames(random);
    const type = random() < 0.8 ? 'application/grpc-web+proto' : 'application/grpc-web';
    expectGrpcWeb(await post(daemon, ECHO, type, body), `grpc-web ${Buffer.from(body).toString('base64')}`);
  },
  async nativeH2c(daemon, random) {
    const body = randomFrames(random);
    const where = `native ${Buffer.from(body).toString('base64')}`;
    const answer = await nativeCall(daemon, body, random);
    expect(answer.reset, where).toBeUndefined();
    expect(answer.status, where).toBe(200);
    expect(answer.grpcStatus, where).toMatch(/^\d+$/);
  },
  async callPath(daemon, random) {
    const pick = random();
    const path =
      pick < 0.3
        ? `/fuzz.v1.Kinds/${randomText(random, 1 + Math.floor(random() * 10))}`
        : pick < 0.6
          ? `/${randomText(random, 1 + Math.floor(random() * 12))}/${randomText(random, Math.floor(random() * 8))}`
          : `/fuzz.v1.${randomText(random, 1 + Math.floor(random() * 6))}/Echo`;
    // Lone surrogates have no UTF-8 form: they travel as U+FFFD.
    const url = `/${wellFormed(path).slice(1).split('/').map(encodeURIComponent).join('/')}`;
    const type = ['application/json', 'application/proto', 'application/grpc-web+proto'][
      Math.floor(random() * 3)
    ] as string;
    const answer = await post(daemon, url, type, type === 'application/json' ? '{}' : new Uint8Array());
    expect(answer.status, `path ${url}`).toBeLessThan(500);
  },
  async wellFormed(daemon, random) {
    const message = randomMessage(everything, random);
    const binary = toBinary(everything, message);
    const where = `message ${Buffer.from(binary).toString('base64')}`;
    const overBinary = await post(daemon, ECHO, 'application/proto', binary);
    const framed = Uint8Array.from([
      0,
      binary.length >>> 24,
      (binary.length >>> 16) & 0xff,
      (binary.length >>> 8) & 0xff,
      binary.length & 0xff,
      ...binary,
    ]);
    const overWeb = await post(daemon, ECHO, 'application/grpc-web+proto', framed);
    const webStatus = expectGrpcWeb(overWeb, where);
    let json: string | undefined;
    try {
      json = toJsonString(everything, message);
    } catch {
      // Well-formed on the wire with no proto3 JSON form (a Timestamp past year 9999): refused as such.
      expectConnectError(overBinary, where);
      expect(JSON.parse(new TextDecoder().decode(overBinary.body)).code, where).toBe('invalid_argument');
      expect(webStatus, where).toBe('3');
      return;
    }
    expect(overBinary.status, where).toBe(200);
    fromBinary(everything, overBinary.body);
    expect((await post(daemon, ECHO, 'application/json', json)).status, `${where} ${json}`).toBe(200);
    expect(webStatus, where).toBe('0');
  },
};

it(`answers random gRPC-family calls (seed ${SEED}, ${CASES} of each kind) well-formed, health answering throughout`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const descriptorSet = Buffer.from(
    toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [KINDS_FILE] })),
  ).toString('base64');
  const put = await fetch(`${daemon.url}/api/endpoints/fuzz/grpc`, {
    method: 'PUT',
    body: JSON.stringify({ descriptorSet }),
  });
  expect(put.status).toBe(201);
  const health = await watchWhileFuzzing(daemon);
  const done: Record<string, number> = {};
  try {
    for (const [kind, run] of Object.entries(KINDS)) {
      const random = prng(SEED + kind.length);
      const started = Date.now();
      done[kind] = 0;
      for (let i = 0; i < CASES && Date.now() - started < KIND_BUDGET_MS; i++) {
        await run(daemon, random);
        done[kind] = i + 1;
      }
    }
  } finally {
    closeSessions();
    console.log(`grpc fuzz (seed ${SEED}): cases ${JSON.stringify(done)}`);
    const { worstMs } = await health.check();
    console.log(`grpc fuzz (seed ${SEED}): slowest health ${Math.round(worstMs)} ms`);
  }
  for (const count of Object.values(done)) expect(count).toBeGreaterThanOrEqual(20);
  const journal = (await (await fetch(`${daemon.url}/api/endpoints/fuzz/requests`)).json()) as { requests: unknown[] };
  expect(journal.requests.length).toBeGreaterThan(0);
  expect(daemon.stderr).not.toMatch(/error|uncaught|unhandled/i);
});

const VALID_PROTO = `syntax = "proto3";
package mutant.v1;
import "google/protobuf/timestamp.proto";
service Mutant { rpc Get(GetRequest) returns (Thing); }
message GetRequest { string id = 1; map<string, int64> counts = 2; }
enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }
message Thing { oneof pick { string name = 1; int32 n = 2; } repeated Kind kinds = 3; google.protobuf.Timestamp at = 4; Thing child = 5; }
`;

/** `source` with a few random edits: a character removed, inserted or replaced. */
function mutate(source: string, random: () => number): string {
  let out = source;
  for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
    const at = Math.floor(random() * out.length);
    const insert = random() < 0.5 ? '{};=<>"./ a1\n'.charAt(Math.floor(random() * 13)) : randomText(random, 1);
    const op = random();
    out =
      op < 0.33
        ? out.slice(0, at) + out.slice(at + 1)
        : op < 0.66
          ? out.slice(0, at) + insert + out.slice(at)
          : out.slice(0, at) + insert + out.slice(at + 1);
  }
  return out;
}

it(`answers ${CASES * 2} random .proto sources with 201 or 400 INVALID_PROTO at a file, line and column (seed ${SEED})`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const outcomes: Record<string, number> = {};
  const started = Date.now();
  for (let i = 0; i < CASES * 2 && Date.now() - started < KIND_BUDGET_MS * 2; i++) {
    const source = i % 5 === 4 ? randomText(random, Math.floor(random() * 200)) : mutate(VALID_PROTO, random);
    const files =
      random() < 0.3
        ? { 'a/one.proto': source, 'b/two.proto': 'syntax = "proto3";\nimport "a/one.proto";\n' }
        : { 'a/one.proto': source };
    const response = await fetch(`${daemon.url}/api/endpoints/protos/grpc`, {
      method: 'PUT',
      body: JSON.stringify({ protos: files }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as {
      error?: { code: string; message: string; details?: { file?: string; line?: number; column?: number } };
    };
    const where = `case ${i}: ${JSON.stringify(source)} → ${JSON.stringify(body)}`;
    const outcome =
      response.status === 201 || response.status === 200 ? 'ok' : `${response.status} ${body.error?.code}`;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    if (outcome === 'ok') continue;
    expect(outcome, where).toBe('400 INVALID_PROTO');
    expect(Object.keys(files), where).toContain(body.error?.details?.file);
    expect(typeof body.error?.details?.line, where).toBe('number');
    expect(typeof body.error?.details?.column, where).toBe('number');
  }
  console.log(`grpc .proto fuzz (seed ${SEED}): ${JSON.stringify(outcomes)}`);
  await health.check();
  expect(daemon.stderr).not.toMatch(/error|uncaught|unhandled/i);
});
