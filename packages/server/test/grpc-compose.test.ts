// The pipeline's cross-cutting settings on gRPC-family calls, through the
// built daemon (docs/design.md#every-feature-composes, issue #63): chaos (a 503 fault, a reset, a
// timeout, latency), a route's rate limit, an enforced signature check and a
// queued fault, each in the protocol's own form over Connect, gRPC-Web and
// native gRPC (h2c); and the one combination that cannot mean anything (a
// body signature on a name with streaming requests) refused when saved.

import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create, type DescMessage, type DescService, toBinary } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Type as Type } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, useDaemons } from './helpers/daemon.js';
import { CHAT, chatService, handMadeService, putProtos, sharedChatDaemon } from './helpers/grpc.js';

useDaemons();
// One daemon for the file: each test settles chaos, routes and signatures on `chat` (and names of
// its own), so everything is deleted after each test, and chat.proto is put anew for the next.
const chatOnShared = sharedChatDaemon();

/** A service of unary and server-streaming methods only: a body signature means something on it. */
const SIG = `syntax = "proto3";
package sig.v1;
message Ask { string text = 1; }
message Say { string text = 1; int32 n = 2; }
service Sig {
  rpc Get(Ask) returns (Say);
  rpc Listen(Ask) returns (stream Say);
}
`;

function sigService(): DescService {
  return handMadeService({
    file: 'sig.proto',
    package: 'sig.v1',
    messages: {
      Ask: [['text', 1, Type.STRING]],
      Say: [
        ['text', 1, Type.STRING],
        ['n', 2, Type.INT32],
      ],
    },
    service: 'Sig',
    methods: [
      ['Get', 'Ask', 'Say'],
      ['Listen', 'Ask', 'Say', false, true],
    ],
  });
}

interface Say {
  text?: string;
  n?: number;
}
type CallOptions = { headers?: Record<string, string>; timeoutMs?: number };
interface Client {
  get(request: { text?: string }, options?: CallOptions): Promise<Say>;
  listen(request: { text?: string }, options?: CallOptions): AsyncIterable<Say>;
}

type Protocol = 'connect' | 'grpc-web' | 'grpc';

function transportOf(daemon: Daemon, protocol: Protocol): Transport {
  if (protocol === 'connect')
    return createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1', useBinaryFormat: true });
  if (protocol === 'grpc-web') return createGrpcWebTransport({ baseUrl: daemon.url, httpVersion: '1.1' });
  return createGrpcTransport({ baseUrl: daemon.url });
}

function clientOf(daemon: Daemon, protocol: Protocol, service = chatService()): Client {
  return createClient(service, transportOf(daemon, protocol)) as unknown as Client;
}

/** The error a call failed with, or `undefined` when it answered. */
async function failure(call: Promise<unknown>): Promise<ConnectError | undefined> {
  return call.then(
    () => undefined,
    (error: unknown) => ConnectError.from(error),
  );
}

/** Every message of a server stream, then its error (or `undefined`). */
async function drain(stream: AsyncIterable<Say>): Promise<[Say[], ConnectError | undefined]> {
  const got: Say[] = [];
  try {
    for await (const one of stream) got.push(one);
    return [got, undefined];
  } catch (error) {
    return [got, ConnectError.from(error)];
  }
}

async function send(daemon: Daemon, method: string, path: string, body?: unknown) {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

/** The journal's last gRPC entry of `name`. */
async function lastCall(daemon: Daemon, name: string): Promise<Record<string, unknown> | undefined> {
  const journal = (await send(daemon, 'GET', `/api/endpoints/${name}/requests`)).json as {
    requests: Record<string, unknown>[];
  };
  const calls = journal.requests.filter((entry) => entry.grpc !== undefined);
  return calls.at(-1);
}

const PROTOCOLS: Protocol[] = ['connect', 'grpc-web', 'grpc'];

describe.each(PROTOCOLS)('cross-cutting settings on %s calls', (protocol) => {
  it('chaos: a 503 is unavailable, a reset cuts the call, a timeout holds it, latency delays it', async () => {
    const daemon = await chatOnShared();
    const client = clientOf(daemon, protocol);
    expect((await client.get({ text: 'a' })).text).toBeTypeOf('string');

    expect((await send(daemon, 'PUT', '/api/endpoints/chat/chaos', { rate: 1, faults: ['503'] })).status).toBe(200);
    const unavailable = await failure(client.get({ text: 'a' }));
    expect(unavailable?.code).toBe(Code.Unavailable);
    expect(unavailable?.rawMessage).toContain('chaos');
    const [said, streamed] = await drain(client.listen({ text: 'a' }));
    expect([said, streamed?.code]).toEqual([[], Code.Unavailable]);
    expect(await lastCall(daemon, 'chat')).toMatchObject({
      answeredBy: { chaos: '503' },
      grpc: { method: 'Listen', code: 'unavailable' },
    });

    expect((await send(daemon, 'PUT', '/api/endpoints/chat/chaos', { rate: 1, faults: ['reset'] })).status).toBe(200);
    const [cutSaid, cut] = await drain(client.listen({ text: 'a' }));
    expect(cutSaid).toEqual([]);
    expect(cut).toBeDefined();
    expect(cut?.code).not.toBe(Code.Unavailable);
    expect(await lastCall(daemon, 'chat')).toMatchObject({ answeredBy: { chaos: 'reset' } });

    expect((await send(daemon, 'PUT', '/api/endpoints/chat/chaos', { rate: 1, faults: ['timeout'] })).status).toBe(200);
    const held = await failure(client.get({ text: 'a' }, { timeoutMs: 300 }));
    expect(held?.code).toBe(Code.DeadlineExceeded);

    const latency = { distribution: 'uniform', min: 400, max: 400 };
    expect((await send(daemon, 'PUT', '/api/endpoints/chat/chaos', { rate: 0, faults: ['503'], latency })).status).toBe(
      200,
    );
    const started = performance.now();
    expect((await client.get({ text: 'a' })).text).toBeTypeOf('string');
    // The latency is the behaviour: the call answers no sooner than it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);

    expect((await send(daemon, 'DELETE', '/api/endpoints/chat/chaos')).status).toBe(204);
    expect((await client.get({ text: 'a' })).text).toBeTypeOf('string');
  });

  it("a route's rate limit is resource_exhausted; a queued reset cuts the call", async () => {
    const daemon = await chatOnShared();
    const client = clientOf(daemon, protocol);
    const route = {
      id: 'limited',
      match: { grpc: { service: 'chat.v1.Chat', method: 'Get' } },
      answer: { grpc: { message: { text: 'routed' } } },
      rateLimit: { limit: 1, per: '1h' },
    };
    expect((await send(daemon, 'PUT', '/api/endpoints/chat/routes', { routes: [route] })).status).toBe(200);
    expect((await client.get({ text: 'a' })).text).toBe('routed');
    const exhausted = await failure(client.get({ text: 'a' }));
    expect(exhausted?.code).toBe(Code.ResourceExhausted);
    expect(exhausted?.metadata.get('retry-after')).toMatch(/^\d+$/);
    expect(await lastCall(daemon, 'chat')).toMatchObject({
      answeredBy: { route: 'limited' },
      rateLimited: true,
      grpc: { code: 'resource_exhausted' },
    });

    const queued = { fault: 'reset', grpc: { messages: [{ message: { n: 1 } }] } };
    expect((await send(daemon, 'POST', '/api/endpoints/chat/queue', { answers: [queued] })).status).toBe(201);
    const [said, cut] = await drain(client.listen({ text: 'a' }));
    expect(said.map((one) => one.n)).toEqual([1]);
    expect(cut).toBeDefined();
  });

  it('an enforced signature check: unsigned is unauthenticated, signed over the body as sent passes', async () => {
    const daemon = await chatOnShared();
    // A name for each protocol: the daemon remembers a signed body it took (replays), past a delete.
    const sig = `sig-${protocol}`;
    expect(await putProtos(daemon, sig, { 'sig.proto': SIG })).toBe(201);
    const settings = { scheme: 'github', secret: 'compose-secret', enforce: true };
    expect((await send(daemon, 'PUT', `/api/endpoints/${sig}/signature`, settings)).status).toBe(200);
    const service = sigService();
    const client = clientOf(daemon, protocol, service);

    const refused = await failure(client.get({ text: 'a' }));
    expect(refused?.code).toBe(Code.Unauthenticated);
    expect(refused?.rawMessage).toContain('signature');
    const [said, streamed] = await drain(client.listen({ text: 'a' }));
    expect([said, streamed?.code]).toEqual([[], Code.Unauthenticated]);

    // The body as sent: Connect's binary body is the message; gRPC-Web and gRPC frame it (5-byte prefix).
    const input = service.methods[0]?.input as DescMessage;
    const signed = (text: string) => {
      const message = toBinary(input, create(input, { text } as never));
      const framed = new Uint8Array(5 + message.length);
      new DataView(framed.buffer).setUint32(1, message.length);
      framed.set(message, 5);
      const body = protocol === 'connect' ? message : framed;
      return { 'x-hub-signature-256': `sha256=${createHmac('sha256', 'compose-secret').update(body).digest('hex')}` };
    };
    const headers = signed('a');
    expect((await client.get({ text: 'a' }, { headers })).text).toBeTypeOf('string');
    const wrong = { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };
    expect((await failure(client.get({ text: 'a' }, { headers: wrong })))?.code).toBe(Code.Unauthenticated);

    // Not enforced: the call is answered, and the journal entry carries the outcome as an HTTP request's.
    const recorded = { ...settings, enforce: false };
    expect((await send(daemon, 'PUT', `/api/endpoints/${sig}/signature`, recorded)).status).toBe(200);
    expect((await client.get({ text: 'b' }, { headers: signed('b') })).text).toBeTypeOf('string');
    expect(await lastCall(daemon, sig)).toMatchObject({ signature: { scheme: 'github', status: 'valid' } });
    expect((await client.get({ text: 'a' })).text).toBeTypeOf('string');
    expect(await lastCall(daemon, sig)).toMatchObject({ signature: { status: 'missing' } });
  });
});

describe('the protocol forms and the refused combination', () => {
  it("a Connect unary call under a 503 fault is HTTP 503 with Connect's JSON error", async () => {
    const daemon = await chatOnShared();
    expect((await send(daemon, 'PUT', '/api/endpoints/chat/chaos', { rate: 1, faults: ['503'] })).status).toBe(200);
    const response = await fetch(`${daemon.url}/chat.v1.Chat/Get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'connect-protocol-version': '1' },
      body: JSON.stringify({ text: 'a' }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'unavailable' });
  });

  it("the namespace's chaos reaches a call of a name without its own", async () => {
    const daemon = await chatOnShared();
    const client = clientOf(daemon, 'connect');
    expect((await send(daemon, 'PUT', '/api/chaos', { rate: 1, faults: ['503'] })).status).toBe(200);
    expect((await failure(client.get({ text: 'a' })))?.code).toBe(Code.Unavailable);
    expect(await lastCall(daemon, 'chat')).toMatchObject({ answeredBy: { chaos: '503', namespace: true } });
    expect((await send(daemon, 'DELETE', '/api/chaos')).status).toBe(204);
    expect((await client.get({ text: 'a' })).text).toBeTypeOf('string');
  });

  it('an enforced signature and streaming requests on one name: 400 SETTING_NOT_FOR_KIND, saved either way', async () => {
    const daemon = await chatOnShared();
    const settings = { scheme: 'github', secret: 'compose-secret', enforce: true };
    const onStreams = await send(daemon, 'PUT', '/api/endpoints/chat/signature', settings);
    expect(onStreams.status).toBe(400);
    expect(onStreams.json).toMatchObject({
      error: { code: 'SETTING_NOT_FOR_KIND', message: expect.stringContaining('/chat.v1.Chat/Upload') },
    });
    // Not enforced, the check records and refuses nothing: saved.
    expect((await send(daemon, 'PUT', '/api/endpoints/chat/signature', { ...settings, enforce: false })).status).toBe(
      200,
    );

    expect((await send(daemon, 'PUT', '/api/endpoints/signed/signature', settings)).status).toBe(200);
    const streams = await send(daemon, 'PUT', '/api/endpoints/signed/grpc', {
      protos: { 'chat2.proto': CHAT.replace('package chat.v1', 'package chat.v2') },
    });
    expect(streams.status).toBe(400);
    expect(streams.json).toMatchObject({ error: { code: 'SETTING_NOT_FOR_KIND' } });
    expect(await putProtos(daemon, 'signed', { 'sig.proto': SIG })).toBe(201);
  });
});

/** grpc-js's client for `chat.v1.Chat`, built by proto-loader (typed by hand: it is built at run time). */
interface GrpcJsChat extends grpc.Client {
  Get(request: { text?: string }, done: (error: grpc.ServiceError | null, value?: Say) => void): grpc.ClientUnaryCall;
}

async function grpcJsChat(daemon: Daemon): Promise<GrpcJsChat> {
  const file = join(await makeTempDir(), 'chat.proto');
  await writeFile(file, CHAT);
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(file, { keepCase: true })) as unknown as {
    chat: { v1: { Chat: new (address: string, credentials: grpc.ChannelCredentials) => GrpcJsChat } };
  };
  return new loaded.chat.v1.Chat(new URL(daemon.url).host, grpc.credentials.createInsecure());
}

/** The status code a grpc-js unary call ended with (0: ok). */
function grpcJsCode(client: GrpcJsChat): Promise<number> {
  return new Promise((resolve) => client.Get({ text: 'a' }, (error) => resolve(error === null ? 0 : error.code)));
}

describe('grpc-js over h2c (the native fast path)', () => {
  it('reads chaos as UNAVAILABLE and a rate limit as RESOURCE_EXHAUSTED', async () => {
    const daemon = await chatOnShared();
    const client = await grpcJsChat(daemon);
    try {
      expect(await grpcJsCode(client)).toBe(grpc.status.OK);
      expect((await send(daemon, 'PUT', '/api/endpoints/chat/chaos', { rate: 1, faults: ['503'] })).status).toBe(200);
      expect(await grpcJsCode(client)).toBe(grpc.status.UNAVAILABLE);
      expect((await send(daemon, 'DELETE', '/api/endpoints/chat/chaos')).status).toBe(204);
      const route = {
        match: { grpc: { method: 'Get' } },
        answer: { grpc: { message: { text: 'routed' } } },
        rateLimit: { limit: 1, per: '1h' },
      };
      expect((await send(daemon, 'PUT', '/api/endpoints/chat/routes', { routes: [route] })).status).toBe(200);
      expect(await grpcJsCode(client)).toBe(grpc.status.OK);
      expect(await grpcJsCode(client)).toBe(grpc.status.RESOURCE_EXHAUSTED);
    } finally {
      client.close();
    }
  });
});
