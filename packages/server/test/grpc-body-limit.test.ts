// A native gRPC message over the limit (issue #86, H1): the call is refused RESOURCE_EXHAUSTED at
// once, and the stream is then reset with NO_ERROR (RFC 9113 §8.1), so the client stops sending and
// its write ends. Before, the status came at once but the stream stayed open: a client writing a
// 6 MB message waited on the flow-control window until the daemon's 30 s request timeout. Each
// path a call takes: read whole first (a name whose settings are not looked up yet), answered
// directly (binary), through Connect's handler (`application/grpc+json`); and the official
// client, grpc-js. Against the built daemon over h2c; every process on 127.0.0.1.
import { connect, type IncomingHttpHeaders } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { expect, it } from 'vitest';
import type { Daemon } from './helpers/daemon.js';
import { useDaemons } from './helpers/daemon.js';
import { grpcDaemon } from './helpers/grpc.js';

useDaemons();

const ECHO = `syntax = "proto3";
package echo.v1;
service Echo {
  rpc Say(SayRequest) returns (SayReply);
}
message SayRequest { string text = 1; bytes blob = 2; }
message SayReply { string text = 1; }
`;

/** What a raw HTTP/2 call saw: its grpc-status (headers or trailers), and when its stream closed. */
interface RawCall {
  status: string | undefined;
  closedMs: number;
  rstCode: number | undefined;
}

/** One call of `/echo.v1.Echo/Say` sending a message of `size` bytes in one write, as `type`. */
function rawCall(daemon: Daemon, size: number, type = 'application/grpc'): Promise<RawCall> {
  return new Promise((resolve, reject) => {
    const session = connect(daemon.url);
    session.on('error', reject);
    const started = performance.now();
    const req = session.request({
      ':method': 'POST',
      ':path': '/echo.v1.Echo/Say',
      'content-type': type,
      te: 'trailers',
    });
    let status: string | undefined;
    const statusOf = (headers: IncomingHttpHeaders) => {
      status ??= headers['grpc-status'] as string | undefined;
    };
    req.on('response', statusOf);
    req.on('trailers', statusOf);
    req.on('data', () => undefined);
    req.on('error', () => undefined);
    req.on('close', () => {
      resolve({ status, closedMs: performance.now() - started, rstCode: req.rstCode });
      session.close();
    });
    const message = Buffer.alloc(5 + size);
    message.writeUInt32BE(size, 1);
    req.end(message);
  });
}

it('a 6 MB message: RESOURCE_EXHAUSTED, then the stream reset (NO_ERROR) within seconds, on every path', async () => {
  const daemon = await grpcDaemon({ 'echo/v1/echo.proto': ECHO }, { name: 'echo' });
  const size = 6_000_000;
  // The first call: the name's settings not looked up yet, so the body is read whole, to the limit.
  const whole = await rawCall(daemon, size);
  // Then the binary call answered directly, and one through Connect's handler.
  const direct = await rawCall(daemon, size);
  const connectJson = await rawCall(daemon, size, 'application/grpc+json');
  for (const [path, call] of Object.entries({ whole, direct, connectJson })) {
    expect([path, call.status, call.rstCode]).toEqual([path, '8', 0]);
    // Before, 30 s: the daemon's request timeout, which closed the stream with CANCEL (8).
    expect(call.closedMs, path).toBeLessThan(10_000);
  }

  // The official client: the same status, promptly.
  const client = new grpc.Client(new URL(daemon.url).host, grpc.credentials.createInsecure());
  const started = performance.now();
  try {
    const code = await new Promise<number>((resolve) => {
      client.makeUnaryRequest(
        '/echo.v1.Echo/Say',
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        Buffer.alloc(size, 1),
        (error) => resolve(error?.code ?? grpc.status.OK),
      );
    });
    expect(code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(performance.now() - started).toBeLessThan(10_000);
  } finally {
    client.close();
  }
  expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
}, 120_000);
