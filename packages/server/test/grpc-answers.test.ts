// What gRPC-family calls answer on the built daemon, with Connect's own Node
// clients: every call kind in schema mode (Connect over HTTP/1.1, gRPC-Web's
// server streaming, native gRPC over HTTP/2 with --https), and routes — a
// unary answer with status, details, metadata and trailers; a server stream
// with delays cut by a reset; a client stream's template; a bidirectional
// script; a delay the client's deadline hits. Every process listens on 127.0.0.1.

import { readFile } from 'node:fs/promises';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { type Daemon, useDaemons } from './helpers/daemon.js';
import { chatService, sharedChatDaemon } from './helpers/grpc.js';

useDaemons();
// One daemon (in memory, with HTTPS) for the file: everything is deleted after each test, and
// chat.proto is put anew for the next.
const chatOnShared = sharedChatDaemon({ args: ['--memory', '--https', '--https-port', '0'] });

interface Say {
  text: string;
  n: number;
}

type Options = { timeoutMs?: number; onHeader?: (headers: Headers) => void; onTrailer?: (trailers: Headers) => void };

/** A client of `chat.v1.Chat` over `transport` (typed by hand: the descriptor is built at run time). */
function chatClient(transport: Transport) {
  return createClient(chatService(), transport) as unknown as {
    get(request: { text?: string }, options?: Options): Promise<Say>;
    listen(request: { text?: string }, options?: Options): AsyncIterable<Say>;
    upload(requests: AsyncIterable<{ text: string }>, options?: Options): Promise<Say>;
    talk(requests: AsyncIterable<{ text: string }>, options?: Options): AsyncIterable<Say>;
  };
}

async function* each<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

async function all<T>(messages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const message of messages) out.push(message);
  return out;
}

async function put(daemon: Daemon, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${daemon.url}${path}`, { method: 'PUT', body: JSON.stringify(body) });
  await response.text();
  return response.status;
}

describe('gRPC answers on the daemon', () => {
  it('answers all four kinds of call in schema mode over Connect, and server streaming over gRPC-Web', async () => {
    const daemon = await chatOnShared();
    const client = chatClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    expect(typeof (await client.get({ text: 'a' })).text).toBe('string');
    const listened = await all(client.listen({ text: 'a' }));
    expect(listened).toHaveLength(2);
    const web = chatClient(createGrpcWebTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    expect(await all(web.listen({ text: 'a' }))).toEqual(listened);
    expect(typeof (await client.upload(each([{ text: 'a' }, { text: 'b' }]))).n).toBe('number');
    expect(await all(client.talk(each([{ text: 'a' }, { text: 'b' }, { text: 'c' }])))).toHaveLength(3);
    const journal = (await (await fetch(`${daemon.url}/api/endpoints/chat/requests`)).json()) as {
      requests: { grpc: { method: string; messages: unknown[]; responses: unknown[]; code: string } }[];
    };
    expect(
      journal.requests.map(({ grpc }) => [grpc.method, grpc.messages.length, grpc.responses.length, grpc.code]),
    ).toEqual([
      ['Get', 1, 1, 'ok'],
      ['Listen', 1, 2, 'ok'],
      ['Listen', 1, 2, 'ok'],
      ['Upload', 2, 1, 'ok'],
      ['Talk', 3, 3, 'ok'],
    ]);
  });

  it('answers every kind natively over HTTP/2 with --https (Connect gRPC transport)', async () => {
    const daemon = await chatOnShared();
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const ca = await readFile(caFile as string, 'utf8');
    const client = chatClient(createGrpcTransport({ baseUrl: https, nodeOptions: { ca } }));
    const plain = chatClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    expect(await client.get({ text: 'a' })).toEqual(await plain.get({ text: 'a' }));
    expect(await all(client.listen({ text: 'a' }))).toEqual(await all(plain.listen({ text: 'a' })));
    expect(await client.upload(each([{ text: 'a' }]))).toEqual(await plain.upload(each([{ text: 'a' }])));
    expect(await all(client.talk(each([{ text: 'a' }, { text: 'b' }])))).toHaveLength(2);
  });

  it('routes answer native gRPC too: status, details, metadata and trailers; a reset after the messages', async () => {
    const daemon = await chatOnShared();
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const ca = await readFile(caFile as string, 'utf8');
    const routes = [
      {
        match: { grpc: { method: 'Get' } },
        answer: {
          grpc: {
            status: { code: 7, message: 'not you', details: [{ type: 'google.rpc.ErrorInfo', value: 'CgNmb28=' }] },
            metadata: { 'x-shard': '7' },
            trailers: { 'x-cost': '3' },
          },
        },
      },
      {
        match: { grpc: { method: 'Listen' } },
        answer: { fault: 'reset', grpc: { messages: [{ message: { n: 1 } }] } },
      },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    const client = chatClient(createGrpcTransport({ baseUrl: https, nodeOptions: { ca } }));
    const denied = await client.get({}).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(denied?.code).toBe(Code.PermissionDenied);
    expect(denied?.rawMessage).toBe('not you');
    expect(denied?.details.map((detail) => ('type' in detail ? detail.type : ''))).toEqual(['google.rpc.ErrorInfo']);
    expect(denied?.metadata.get('x-shard')).toBe('7');
    expect(denied?.metadata.get('x-cost')).toBe('3');
    const received: Say[] = [];
    const cut = await (async () => {
      for await (const say of client.listen({})) received.push(say);
    })().then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(received.map((say) => say.n)).toEqual([1]);
    // No status was sent: the stream ends without trailers (Connect's Node handler ends it when its
    // body breaks; it sends no RST_STREAM), which the client reports as a missing status.
    expect([cut?.code, cut?.rawMessage]).toEqual([Code.Internal, 'protocol error: missing status']);
  });

  it('routes answer: a status with details, metadata and trailers; streams, templates and scripts', async () => {
    const daemon = await chatOnShared();
    const routes = [
      {
        id: 'gone',
        match: { grpc: { method: 'Get', message: { text: 'gone' } } },
        answer: {
          grpc: {
            status: {
              code: 'not_found',
              message: 'no such chat',
              details: [{ type: 'google.rpc.ErrorInfo', value: 'CgNmb28=' }],
            },
            metadata: { 'x-shard': '7' },
          },
        },
      },
      {
        id: 'ok',
        match: { grpc: { method: 'Get' } },
        answer: { grpc: { message: { text: 'hi', n: 1 }, trailers: { 'x-cost': '3' } } },
      },
      {
        match: { grpc: { method: 'Listen' } },
        answer: { grpc: { messages: [{ message: { n: 1 } }, { message: { n: 2 }, delay: 50 }] } },
      },
      {
        match: { grpc: { method: 'Upload' } },
        answer: { template: true, grpc: { message: { text: '{{messages.1.text}}' } } },
      },
      {
        match: { grpc: { method: 'Talk' } },
        answer: { grpc: { on: [{ match: { body: { text: 'ping' } }, send: [{ message: { text: 'pong' } }] }] } },
      },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    for (const transport of [
      createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }),
      createGrpcWebTransport({ baseUrl: daemon.url, httpVersion: '1.1' }),
    ]) {
      const client = chatClient(transport);
      const error = await client.get({ text: 'gone' }).then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
      expect(error?.code).toBe(Code.NotFound);
      expect(error?.rawMessage).toBe('no such chat');
      expect(error?.details.map((detail) => ('type' in detail ? detail.type : ''))).toEqual(['google.rpc.ErrorInfo']);
      expect(error?.metadata.get('x-shard')).toBe('7');
      let trailers: Headers | undefined;
      expect(await client.get({ text: 'x' }, { onTrailer: (t) => (trailers = t) })).toMatchObject({ text: 'hi', n: 1 });
      expect(trailers?.get('x-cost')).toBe('3');
      expect((await all(client.listen({}))).map((say) => say.n)).toEqual([1, 2]);
    }
    const client = chatClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    expect((await client.upload(each([{ text: 'a' }, { text: 'b' }]))).text).toBe('b');
    expect(
      (await all(client.talk(each([{ text: 'ping' }, { text: 'other' }, { text: 'ping' }])))).map((s) => s.text),
    ).toEqual(['pong', 'pong']);
    const journal = (await (await fetch(`${daemon.url}/api/endpoints/chat/requests`)).json()) as {
      requests: { answeredBy: unknown; grpc: { code: string; statusMessage?: string } }[];
    };
    expect(
      journal.requests.slice(0, 2).map(({ answeredBy, grpc }) => [answeredBy, grpc.code, grpc.statusMessage]),
    ).toEqual([
      [{ route: 'gone' }, 'not_found', 'no such chat'],
      [{ route: 'ok' }, 'ok', undefined],
    ]);
  });

  it('faults: a reset cuts a stream after its messages; a delay past the deadline is deadline_exceeded', async () => {
    const daemon = await chatOnShared();
    const routes = [
      {
        match: { grpc: { method: 'Listen' } },
        answer: { fault: 'reset', grpc: { messages: [{ message: { n: 1 } }] } },
      },
      { match: { grpc: { method: 'Get' } }, answer: { delay: 5000, grpc: { message: { text: 'late' } } } },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    const client = chatClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    const received: Say[] = [];
    const cut = await (async () => {
      for await (const say of client.listen({})) received.push(say);
    })().then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(received.map((say) => say.n)).toEqual([1]);
    // The connection is cut with no end-stream message: Connect's Node client reports the broken
    // response ("aborted"), not a status the server sent.
    expect(cut?.code).toBe(Code.Aborted);
    expect(cut?.rawMessage).toBe('aborted');
    const late = await client.get({}, { timeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(late?.code).toBe(Code.DeadlineExceeded);
  });
});
