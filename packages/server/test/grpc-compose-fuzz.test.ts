// Seeded fuzz of what a gRPC-family call brings to the pipeline's signature check (issue #63) on the
// built daemon: random code points in the signature metadata (`X-Hub-Signature-256`, as the bytes
// HTTP can carry) and in the request message, over Connect (JSON and binary) and gRPC-Web, to a name
// that enforces a GitHub check. Every answer is a Connect or gRPC-Web error the client can read
// (`unauthenticated`, or `invalid_argument` for a message with no proto3 form): never a 5xx,
// never a hang (10 s each); `GET /api/health` answers within the fuzz bound (5 s) throughout.
import { create, type DescMessage, toBinary } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Type as Type } from '@bufbuild/protobuf/wkt';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll } from './helpers/daemon.js';
import { chatDaemon, handMadeService, putProtos } from './helpers/grpc.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());

const SEED = 63;
const CASES = 120;

const SIG = `syntax = "proto3";
package sig.v1;
message Ask { string text = 1; }
message Say { string text = 1; }
service Sig { rpc Get(Ask) returns (Say); }
`;

const ask = handMadeService({
  file: 'sig.proto',
  package: 'sig.v1',
  messages: { Ask: [['text', 1, Type.STRING]], Say: [['text', 1, Type.STRING]] },
  service: 'Sig',
  methods: [['Get', 'Ask', 'Say']],
}).methods[0]?.input as DescMessage;

/** Random code points as a header value: their UTF-8 bytes as Latin-1, without control characters. */
function headerValue(random: () => number): string {
  const bytes = new TextEncoder().encode(randomText(random, 1 + Math.floor(random() * 80)));
  return Array.from(
    bytes.filter((byte) => byte >= 0x20 && byte !== 0x7f),
    (byte) => String.fromCharCode(byte),
  )
    .join('')
    .trim();
}

/** A gRPC-Web answer's status: Trailers-Only (in the headers), or its trailer frame's (flag 0x80). */
function grpcWebStatus(headers: Headers, body: Uint8Array): string | undefined {
  const header = headers.get('grpc-status');
  if (header !== null) return header;
  let at = 0;
  while (at + 5 <= body.length) {
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    if (((body[at] as number) & 0x80) !== 0) {
      const text = new TextDecoder().decode(body.subarray(at + 5, at + 5 + length));
      return /grpc-status:\s*(\d+)/i.exec(text)?.[1];
    }
    at += 5 + length;
  }
  return undefined;
}

function framed(message: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + message.length);
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

it(`answers randomly signed gRPC-family calls to an enforcing name with a readable error (seed ${SEED}, ${CASES} cases)`, async () => {
  const daemon = await chatDaemon();
  expect(await putProtos(daemon, 'sig', { 'sig.proto': SIG })).toBe(201);
  const settings = { scheme: 'github', secret: 'fuzz-secret', enforce: true };
  const put = await fetch(`${daemon.url}/api/endpoints/sig/signature`, {
    method: 'PUT',
    body: JSON.stringify(settings),
  });
  expect(put.status).toBe(200);
  const random = prng(SEED);
  const health = await watchWhileFuzzing(daemon);
  for (let i = 0; i < CASES; i++) {
    const text = randomText(random, Math.floor(random() * 200));
    const signature = headerValue(random);
    const kind = Math.floor(random() * 3);
    const where = `case ${i} (kind ${kind})`;
    const message = toBinary(ask, create(ask, { text: new TextDecoder().decode(new TextEncoder().encode(text)) }));
    const [type, body] =
      kind === 0
        ? ['application/json', `{"text":${jsonString(text)}}`]
        : kind === 1
          ? ['application/proto', message]
          : ['application/grpc-web+proto', framed(message)];
    const response = await fetch(`${daemon.url}/sig.v1.Sig/Get`, {
      method: 'POST',
      headers: { 'content-type': type, 'x-hub-signature-256': signature },
      body: body as BodyInit,
      signal: AbortSignal.timeout(10_000),
    });
    const answer = new Uint8Array(await response.arrayBuffer());
    if (kind === 2) {
      expect(response.status, where).toBe(200);
      expect(grpcWebStatus(response.headers, answer), where).toBe('16');
    } else {
      expect([400, 401], where).toContain(response.status);
      const json = JSON.parse(new TextDecoder().decode(answer)) as { code?: string };
      expect(['unauthenticated', 'invalid_argument'], where).toContain(json.code);
      if (response.status === 401) expect(json.code, where).toBe('unauthenticated');
    }
  }
  await health.check();
});
