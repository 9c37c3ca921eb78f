// Native gRPC answered on the HTTP/2 stream without Connect's handler (grpc-direct.ts), against
// the same calls that still go through Connect's handler (application/grpc+json, a compressed
// request): the same status, trailers, metadata and journal entry. Over h2c on 127.0.0.1.
import { connect, type IncomingHttpHeaders } from 'node:http2';
import { gzipSync } from 'node:zlib';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { afterEach, describe, expect, it } from 'vitest';
import type { GrpcCall } from '../../grpc/call-record.js';
import type { DirectMethod } from '../../grpc/direct-call.js';
import { createApp } from '../../index.js';
import { type ServedApp, serve } from './index.js';

const PROTO = `syntax = "proto3";
package echo.v1;
service Echo {
  rpc Say(SayRequest) returns (SayReply);
  rpc Get(SayRequest) returns (SayReply);
}
message SayRequest { string text = 1; }
message SayReply { string text = 1; int32 count = 2; }
`;

let served: ServedApp | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A message in gRPC's envelope. */
function envelope(message: Uint8Array, flags = 0): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out[0] = flags;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

const binary = (text: string) => new BinaryWriter().tag(1, WireType.LengthDelimited).string(text).finish();
const json = (text: string) => new TextEncoder().encode(JSON.stringify({ text }));

interface Answer {
  headers: IncomingHttpHeaders;
  trailers: IncomingHttpHeaders;
  body: Buffer;
}

/** One call over HTTP/2 with prior knowledge: the response's headers, trailers and body. */
function call(url: string, path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  const session = connect(url);
  return new Promise<Answer>((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': path, te: 'trailers', ...headers });
    const answer: Answer = { headers: {}, trailers: {}, body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    stream.on('response', (got) => {
      answer.headers = got;
    });
    stream.on('trailers', (got) => {
      answer.trailers = got;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve({ ...answer, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
    stream.end(body);
  }).finally(() => session.close());
}

/** The headers both paths are compared on: without the date and the codec's content type. */
function comparable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _date, 'content-type': _type, ...rest } = headers;
  return rest;
}

async function start(): Promise<string> {
  served = await serve(createApp(), { overrideGlobalObjects: false });
  const put = await fetch(`${served.url}/api/endpoints/echo/grpc`, {
    method: 'PUT',
    body: JSON.stringify({ protos: { 'echo/v1/echo.proto': PROTO } }),
  });
  expect(put.status, await put.text()).toBe(201);
  return served.url;
}

/** The journal's entries of `echo`, in the order listed, without what differs from call to call. */
async function entries(url: string): Promise<Record<string, unknown>[]> {
  const journal = (await (await fetch(`${url}/api/endpoints/echo/requests`)).json()) as {
    requests: Record<string, unknown>[];
  };
  return journal.requests.map(({ grpc, answeredBy, method, path }) => ({ grpc, answeredBy, method, path }));
}

describe('native gRPC answered directly, and through Connect’s handler', () => {
  it('a route’s status, details, metadata and trailers, and schema mode: the same answer and journal entry both ways', async () => {
    const url = await start();
    const routes = [
      {
        match: { grpc: { method: 'Get' } },
        answer: {
          grpc: {
            metadata: { 'x-shop': 'a' },
            trailers: { 'x-trace': ['1', '2'] },
            status: {
              code: 'not_found',
              message: 'no order 7 — “ünïcode” 100%',
              details: [{ type: 'google.rpc.ErrorInfo', value: btoa('\u0012\u0001x') }],
            },
          },
        },
      },
    ];
    const put = await fetch(`${url}/api/endpoints/echo/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
    expect(put.status, await put.text()).toBe(200);
    const direct = { 'content-type': 'application/grpc' };
    const connect = { 'content-type': 'application/grpc+json' };
    const answers = [
      await call(url, '/echo.v1.Echo/Get', direct, envelope(binary('7'))),
      await call(url, '/echo.v1.Echo/Get', connect, envelope(json('7'))),
      await call(url, '/echo.v1.Echo/Say', direct, envelope(binary('hello'))),
      await call(url, '/echo.v1.Echo/Say', connect, envelope(json('hello'))),
    ];
    const [routedDirect, routedConnect, schemaDirect, schemaConnect] = answers as [Answer, Answer, Answer, Answer];
    expect(routedDirect.headers['content-type']).toBe('application/grpc+proto');
    expect(routedDirect.headers['x-shop']).toBe('a');
    expect(routedDirect.trailers['grpc-status']).toBe('5');
    expect(routedDirect.trailers['grpc-status-details-bin']).toEqual(expect.any(String));
    expect(comparable(routedDirect.headers)).toEqual(comparable(routedConnect.headers));
    expect(routedDirect.trailers).toEqual(routedConnect.trailers);
    expect(schemaDirect.trailers['grpc-status']).toBe('0');
    expect(schemaDirect.trailers).toEqual(schemaConnect.trailers);
    expect(schemaDirect.body.length).toBeGreaterThan(5);
    const [one, two, three, four] = (await entries(url)) as [object, object, object, object];
    expect(one).toMatchObject({ grpc: { code: 'not_found', statusMessage: 'no order 7 — “ünïcode” 100%' } });
    expect(one).toEqual(two);
    expect(three).toMatchObject({ grpc: { code: 'ok', message: { text: 'hello' }, responses: [expect.any(Object)] } });
    expect(three).toEqual(four);
  });

  it('a compressed request (grpc-encoding: gzip) goes to Connect’s handler, which answers unimplemented, as before', async () => {
    const url = await start();
    const answer = await call(
      url,
      '/echo.v1.Echo/Say',
      { 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' },
      envelope(gzipSync(binary('hello')), 1),
    );
    expect(answer.trailers['grpc-status']).toBe('12');
    expect(decodeURIComponent(answer.trailers['grpc-message'] as string)).toMatch(/unknown compression "gzip"/);
    expect(await entries(url)).toMatchObject([{ grpc: { protocol: 'grpc', code: 'unimplemented' } }]);
  });

  it('a deadline (grpc-timeout) the answer`s delay runs past ends the call deadline_exceeded', async () => {
    const url = await start();
    const routes = [{ match: { grpc: { method: 'Say' } }, answer: { delay: 5000, grpc: { message: { text: 'x' } } } }];
    await fetch(`${url}/api/endpoints/echo/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
    const started = Date.now();
    const answer = await call(
      url,
      '/echo.v1.Echo/Say',
      { 'content-type': 'application/grpc', 'grpc-timeout': '200m' },
      envelope(binary('late')),
    );
    expect(answer.trailers['grpc-status']).toBe('4');
    // The bound is the behaviour: ended at the 200 ms deadline, not after the 5 s delay; 4 s leaves a busy machine room.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await entries(url)).toMatchObject([{ grpc: { code: 'deadline_exceeded' } }]);
  });
});

describe('a call whose stream closed before it began (reset while grpc-direct.js was imported)', () => {
  it('ends canceled at once: the call is no unimplemented one', async () => {
    const { createServer, constants } = await import('node:http2');
    const { answerDirect } = await import('./grpc-direct.js');
    const method = { methodKind: 'unary' } as DirectMethod['method'];
    const target: DirectMethod = {
      method,
      answer: () => ({}),
      parse: () => ({}) as never,
      serialize: () => new Uint8Array(0),
      maxStreamMessages: 10,
      readMaxBytes: 1024,
    };
    const call: GrpcCall = { protocol: 'grpc', code: 'ok' };
    const answered = new Promise<string>((resolve) => {
      const server = createServer((req, res) => {
        // As on the first direct call: the stream closes before answerDirect listens for it.
        req.stream.once('close', () => {
          const done = answerDirect(target, req as never, res as never, [], call, {
            chunks: [],
            kept: 0,
            seen: 0,
          });
          const hung = new Promise<string>((late) => setTimeout(late, 2000, 'hung'));
          void Promise.race([done.then(() => 'answered'), hung]).then((how) => {
            server.close();
            resolve(how);
          });
        });
      });
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        const session = connect(`http://127.0.0.1:${port}`);
        session.on('error', () => undefined);
        const stream = session.request({ ':method': 'POST', ':path': '/echo.v1.Echo/Say', te: 'trailers' });
        stream.on('error', () => undefined);
        stream.once('ready', () => {
          stream.close(constants.NGHTTP2_CANCEL);
          // A graceful close: the cancel goes out first, then the session ends.
          session.close();
        });
      });
    });
    expect(await answered).toBe('answered');
    expect(call.code).toBe('canceled');
  });
});
