// Every kind of call with the official client @grpc/grpc-js, over HTTP/2 cleartext (prior
// knowledge) on the daemon's plain port, its service loaded by @grpc/proto-loader from the same
// .proto the test PUTs: unary, server, client and bidirectional streaming in schema mode and from
// routes (a stream's delays, a client stream's template, a bidirectional script answered message
// by message), a status with details, metadata and trailers as grpc-js reads them, and the
// messages-per-call limit on a client stream. Each call's journal entry holds its messages both
// ways. Every process listens on 127.0.0.1.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, useDaemons } from './helpers/daemon.js';
import { CHAT, chatDaemon } from './helpers/grpc.js';

useDaemons();

interface Ask {
  text?: string;
}
interface Say {
  text: string;
  n: number;
}
type Done<T> = (error: grpc.ServiceError | null, value?: T) => void;

/** The grpc-js client proto-loader builds for `chat.v1.Chat` (typed by hand: it is built at run time). */
interface ChatClient extends grpc.Client {
  Get(request: Ask, metadata: grpc.Metadata, done: Done<Say>): grpc.ClientUnaryCall;
  Get(request: Ask, done: Done<Say>): grpc.ClientUnaryCall;
  Listen(request: Ask): grpc.ClientReadableStream<Say>;
  Upload(done: Done<Say>): grpc.ClientWritableStream<Ask>;
  Talk(): grpc.ClientDuplexStream<Ask, Say>;
}

async function chatClient(daemon: Daemon): Promise<ChatClient> {
  const file = join(await makeTempDir(), 'chat.proto');
  await writeFile(file, CHAT);
  const definition = protoLoader.loadSync(file, { keepCase: true, longs: Number, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    chat: { v1: { Chat: new (address: string, credentials: grpc.ChannelCredentials) => ChatClient } };
  };
  return new loaded.chat.v1.Chat(new URL(daemon.url).host, grpc.credentials.createInsecure());
}

async function put(daemon: Daemon, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${daemon.url}${path}`, { method: 'PUT', body: JSON.stringify(body) });
  await response.text();
  return response.status;
}

function unary(client: ChatClient, request: Ask): Promise<{ reply?: Say; error?: grpc.ServiceError }> {
  return new Promise((resolve) => client.Get(request, (error, reply) => resolve(error ? { error } : { reply })));
}

/** Each message of a server stream with the ms since the call started, and how it ended. */
function listen(
  client: ChatClient,
  request: Ask,
): Promise<{ got: { say: Say; at: number }[]; status: grpc.StatusObject }> {
  const started = Date.now();
  const call = client.Listen(request);
  const got: { say: Say; at: number }[] = [];
  call.on('data', (say: Say) => got.push({ say, at: Date.now() - started }));
  call.on('error', () => undefined);
  return new Promise((resolve) => call.on('status', (status) => resolve({ got, status })));
}

function upload(client: ChatClient, asks: Ask[]): Promise<{ reply?: Say; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const call = client.Upload((error, reply) => resolve(error ? { error } : { reply }));
    for (const ask of asks) call.write(ask);
    call.end();
  });
}

interface Entry {
  path: string;
  subpath: string;
  answeredBy?: unknown;
  grpc: {
    method: string;
    protocol: string;
    code: string;
    statusMessage?: string;
    messages: unknown[];
    responses: unknown[];
  };
}

/** The journal's entries for `chat` (newest last). */
async function journal(daemon: Daemon): Promise<Entry[]> {
  const read = (await (await fetch(`${daemon.url}/api/endpoints/chat/requests`)).json()) as { requests: Entry[] };
  return read.requests;
}

const summary = (entries: Entry[]) =>
  entries.map(({ grpc }) => [grpc.protocol, grpc.method, grpc.code, grpc.messages, grpc.responses]);

describe('grpc-js, every kind of call, over h2c on the plain port', () => {
  it('schema mode answers unary, server, client and bidirectional streaming calls; each is journaled both ways', async () => {
    const daemon = await chatDaemon();
    const client = await chatClient(daemon);
    try {
      const one = await unary(client, { text: 'a' });
      expect(one.error).toBeUndefined();
      expect(one.reply).toEqual({ text: expect.any(String), n: expect.any(Number) });
      // Deterministic: the same request, the same message.
      expect((await unary(client, { text: 'a' })).reply).toEqual(one.reply);
      const listened = await listen(client, { text: 'a' });
      expect(listened.status.code).toBe(grpc.status.OK);
      expect(listened.got).toHaveLength(2);
      const uploaded = await upload(client, [{ text: 'a' }, { text: 'b' }]);
      expect(uploaded.error).toBeUndefined();
      const talked = await new Promise<Say[]>((resolve, reject) => {
        const call = client.Talk();
        const out: Say[] = [];
        call.on('data', (say: Say) => out.push(say));
        call.on('error', reject);
        call.on('end', () => resolve(out));
        for (const text of ['a', 'b', 'c']) call.write({ text });
        call.end();
      });
      expect(talked).toHaveLength(3);
      const entries = await journal(daemon);
      expect(summary(entries)).toEqual([
        ['grpc', 'Get', 'ok', [{ text: 'a' }], [one.reply]],
        ['grpc', 'Get', 'ok', [{ text: 'a' }], [one.reply]],
        ['grpc', 'Listen', 'ok', [{ text: 'a' }], listened.got.map(({ say }) => say)],
        ['grpc', 'Upload', 'ok', [{ text: 'a' }, { text: 'b' }], [uploaded.reply]],
        ['grpc', 'Talk', 'ok', [{ text: 'a' }, { text: 'b' }, { text: 'c' }], talked],
      ]);
      // Native calls journal the path they requested (not /endpoint/{name}/…), the method as subpath.
      expect(entries.map(({ path, subpath }) => [path, subpath])).toEqual(
        ['Get', 'Get', 'Listen', 'Upload', 'Talk'].map((method) => [
          `/chat.v1.Chat/${method}`,
          `/chat.v1.Chat/${method}`,
        ]),
      );
    } finally {
      client.close();
    }
  });

  it('routes: a server stream`s messages in order and spaced by their delays; a client stream`s template', async () => {
    const daemon = await chatDaemon();
    const routes = [
      {
        match: { grpc: { method: 'Listen' } },
        answer: {
          grpc: {
            messages: [{ message: { n: 1 } }, { message: { n: 2 }, delay: 400 }, { message: { n: 3 }, delay: 400 }],
          },
        },
      },
      {
        match: { grpc: { method: 'Upload' } },
        answer: { template: true, grpc: { message: { text: '{{messages.0.text}}+{{messages.2.text}}' } } },
      },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    const client = await chatClient(daemon);
    try {
      const { got, status } = await listen(client, {});
      expect(status.code).toBe(grpc.status.OK);
      expect(got.map(({ say }) => say.n)).toEqual([1, 2, 3]);
      // Streamed, not sent at the end: each message arrives about its delay after the one before.
      const at = got.map((message) => message.at);
      const gaps = at.slice(1).map((time, i) => time - (at[i] as number));
      expect(gaps).toHaveLength(2);
      for (const gap of gaps) expect(gap, JSON.stringify(got)).toBeGreaterThanOrEqual(300);
      const uploaded = await upload(client, [{ text: 'x' }, { text: 'y' }, { text: 'z' }]);
      expect(uploaded.reply).toEqual({ text: 'x+z', n: 0 });
    } finally {
      client.close();
    }
    expect(summary(await journal(daemon))).toEqual([
      ['grpc', 'Listen', 'ok', [{}], [{ n: 1 }, { n: 2 }, { n: 3 }]],
      ['grpc', 'Upload', 'ok', [{ text: 'x' }, { text: 'y' }, { text: 'z' }], [{ text: 'x+z' }]],
    ]);
  });

  it('routes: a bidirectional script answers each message before the client sends the next (full duplex)', async () => {
    const daemon = await chatDaemon();
    const routes = [
      {
        match: { grpc: { method: 'Talk' } },
        answer: {
          template: true,
          grpc: {
            on: [
              { match: { body: { text: 'quiet' } }, send: [] },
              { send: [{ message: { text: 're: {{body.text}}' } }] },
            ],
          },
        },
      },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    const client = await chatClient(daemon);
    try {
      const call = client.Talk();
      const replies: Say[] = [];
      let waiting: ((say: Say) => void) | undefined;
      call.on('data', (say: Say) => {
        replies.push(say);
        waiting?.(say);
      });
      const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
      call.on('error', () => undefined);
      const next = () => new Promise<Say>((resolve) => (waiting = resolve));
      // Each reply comes while the client's side is still open; only then is the next message sent.
      for (const text of ['one', 'two', 'three']) {
        const reply = next();
        call.write({ text });
        expect(await reply).toEqual({ text: `re: ${text}`, n: 0 });
      }
      call.write({ text: 'quiet' });
      call.end();
      expect((await status).code).toBe(grpc.status.OK);
      expect(replies.map((say) => say.text)).toEqual(['re: one', 're: two', 're: three']);
    } finally {
      client.close();
    }
    expect(summary(await journal(daemon))).toEqual([
      [
        'grpc',
        'Talk',
        'ok',
        [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'quiet' }],
        [{ text: 're: one' }, { text: 're: two' }, { text: 're: three' }],
      ],
    ]);
  });

  it('routes: grpc-js reads a status with its message, details and trailers, and the metadata a route sends', async () => {
    const daemon = await chatDaemon();
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
            trailers: { 'x-cost': '3' },
          },
        },
      },
      {
        id: 'ok',
        match: { grpc: { method: 'Get' } },
        answer: { grpc: { message: { text: 'hi', n: 1 }, metadata: { 'x-shard': '7' }, trailers: { 'x-cost': '2' } } },
      },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    const client = await chatClient(daemon);
    try {
      const { error } = await unary(client, { text: 'gone' });
      expect(error?.code).toBe(grpc.status.NOT_FOUND);
      expect(error?.details).toBe('no such chat');
      expect(error?.metadata.get('x-cost')).toEqual(['3']);
      // The details travel as a google.rpc.Status in grpc-status-details-bin (grpc-js leaves it to the caller).
      const details = error?.metadata.get('grpc-status-details-bin')[0] as Buffer;
      expect(Buffer.isBuffer(details)).toBe(true);
      expect(details.includes(Buffer.from('type.googleapis.com/google.rpc.ErrorInfo'))).toBe(true);
      expect(details.includes(Buffer.from('no such chat'))).toBe(true);
      // A message with leading metadata and trailers.
      const answered = await new Promise<{ reply?: Say; headers?: grpc.Metadata; status?: grpc.StatusObject }>(
        (resolve) => {
          const seen: { headers?: grpc.Metadata; status?: grpc.StatusObject } = {};
          let reply: Say | undefined;
          const call = client.Get({ text: 'hello' }, (error, value) => {
            expect(error).toBeNull();
            reply = value;
          });
          call.on('metadata', (headers) => (seen.headers = headers));
          call.on('status', (status) => resolve({ ...seen, reply, status }));
        },
      );
      expect(answered.reply).toEqual({ text: 'hi', n: 1 });
      expect(answered.headers?.get('x-shard')).toEqual(['7']);
      expect(answered.status?.code).toBe(grpc.status.OK);
      expect(answered.status?.metadata.get('x-cost')).toEqual(['2']);
    } finally {
      client.close();
    }
    const entries = await journal(daemon);
    expect(
      entries.map(({ answeredBy, grpc }) => [answeredBy, grpc.code, grpc.statusMessage, grpc.messages, grpc.responses]),
    ).toEqual([
      [{ route: 'gone' }, 'not_found', 'no such chat', [{ text: 'gone' }], undefined],
      [{ route: 'ok' }, 'ok', undefined, [{ text: 'hello' }], [{ text: 'hi', n: 1 }]],
    ]);
  });

  it('a client stream of more than MOCKPOINT_MAX_GRPC_STREAM_MESSAGES is refused RESOURCE_EXHAUSTED; the next call is answered', async () => {
    const daemon = await chatDaemon({ env: { MOCKPOINT_MAX_GRPC_STREAM_MESSAGES: '3' } });
    const routes = [
      {
        match: { grpc: { method: 'Upload' } },
        answer: { template: true, grpc: { message: { text: '{{messages.2.text}}' } } },
      },
    ];
    expect(await put(daemon, '/api/endpoints/chat/routes', { routes })).toBe(200);
    const client = await chatClient(daemon);
    try {
      const asks = (count: number) => Array.from({ length: count }, (_, i) => ({ text: `m${i}` }));
      const refused = await upload(client, asks(5));
      expect(refused.error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(refused.error?.details).toMatch(/MOCKPOINT_MAX_GRPC_STREAM_MESSAGES/);
      const answered = await upload(client, asks(3));
      expect(answered.error).toBeUndefined();
      expect(answered.reply?.text).toBe('m2');
    } finally {
      client.close();
    }
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
    const entries = await journal(daemon);
    expect(entries.map(({ grpc }) => [grpc.method, grpc.code, grpc.responses])).toEqual([
      ['Upload', 'resource_exhausted', undefined],
      ['Upload', 'ok', [{ text: 'm2' }]],
    ]);
  });
});
