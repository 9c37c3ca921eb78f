// A call to a method no stored definitions declare, or to a service no endpoint owns, is
// `unimplemented` (gRPC status 12) in each protocol's own form, with a message that says what to
// put, as real clients read it: Connect (JSON and binary, unary and a server stream) and gRPC-Web
// through Connect's Node transports, native gRPC (h2c) through Connect's gRPC transport and
// grpc-js. A method the definitions declare without a route stays schema mode (docs/grpc.md), and
// a plain JSON POST to such a path keeps the app's 404.
import { FieldDescriptorProto_Type as Type } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { type Daemon, useDaemons } from './helpers/daemon.js';
import { grpcDaemon, handMadeService } from './helpers/grpc.js';

useDaemons();

const ECHO = `syntax = "proto3";
package echo.v1;
service Echo { rpc Say(Text) returns (Text); }
message Text { string text = 1; }
`;
const UNKNOWN_METHOD =
  /the protobuf definitions of endpoint "echo" declare echo\.v1\.Echo without a method (Nope|Listen)/;
const UNKNOWN_SERVICE =
  /no endpoint's protobuf definitions declare the service other\.v1\.Svc \(those declared: echo\.v1\.Echo\): put a \.proto/;

/** The client's view of a package's service: `Say` (declared), `Nope` and `Listen` (a server stream) that no `.proto` stored declares. */
function service(pkg: string, name: string) {
  return handMadeService({
    file: `${pkg}.proto`,
    package: pkg,
    messages: { Text: [['text', 1, Type.STRING]] },
    service: name,
    methods: [
      ['Say', 'Text', 'Text'],
      ['Nope', 'Text', 'Text'],
      ['Listen', 'Text', 'Text', false, true],
    ],
  });
}

type Client = {
  say(input: { text: string }): Promise<{ text: string }>;
  nope(input: { text: string }): Promise<unknown>;
  listen(input: { text: string }): AsyncIterable<unknown>;
};

function client(transport: Transport, pkg = 'echo.v1', name = 'Echo'): Client {
  return createClient(service(pkg, name), transport) as unknown as Client;
}

/** The code and message a call ended with (`ok` when it did not fail). */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    const { code, rawMessage } = ConnectError.from(error);
    return `${Code[code]}: ${rawMessage}`;
  }
}

async function drained(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream);
}

function transports(daemon: Daemon): Record<string, Transport> {
  const baseUrl = daemon.url;
  return {
    'Connect JSON': createConnectTransport({ baseUrl, httpVersion: '1.1', useBinaryFormat: false }),
    'Connect binary': createConnectTransport({ baseUrl, httpVersion: '1.1' }),
    'gRPC-Web': createGrpcWebTransport({ baseUrl, httpVersion: '1.1' }),
    'native gRPC (h2c)': createGrpcTransport({ baseUrl }),
  };
}

/** A unary call of `path` with grpc-js (native gRPC over h2c): its status code and details. */
function grpcJs(daemon: Daemon, path: string): Promise<string> {
  const client = new grpc.Client(`127.0.0.1:${daemon.port}`, grpc.credentials.createInsecure());
  const asIs = (bytes: Buffer) => bytes;
  return new Promise<string>((resolve) => {
    client.makeUnaryRequest(path, asIs, asIs, Buffer.alloc(0), (error) =>
      resolve(error ? `${grpc.status[error.code]}: ${error.details}` : 'ok'),
    );
  }).finally(() => client.close());
}

describe('a call to a method no definitions declare', () => {
  it('is unimplemented, saying what to put, in each protocol’s form', async () => {
    const daemon = await grpcDaemon({ 'echo.proto': ECHO }, { name: 'echo' });
    for (const [protocol, transport] of Object.entries(transports(daemon))) {
      const echo = client(transport);
      // Declared, with no route: schema mode, as before.
      expect(await outcome(() => echo.say({ text: 'hi' })), protocol).toBe('ok');
      expect(await outcome(() => echo.nope({ text: 'hi' })), protocol).toMatch(
        new RegExp(`^Unimplemented: ${UNKNOWN_METHOD.source}`),
      );
      expect(await outcome(() => drained(echo.listen({ text: 'hi' }))), protocol).toMatch(
        new RegExp(`^Unimplemented: ${UNKNOWN_METHOD.source}`),
      );
      const other = client(transport, 'other.v1', 'Svc');
      expect(await outcome(() => other.say({ text: 'hi' })), protocol).toMatch(
        new RegExp(`^Unimplemented: ${UNKNOWN_SERVICE.source}`),
      );
    }
    expect(await grpcJs(daemon, '/echo.v1.Echo/Nope')).toMatch(new RegExp(`^UNIMPLEMENTED: ${UNKNOWN_METHOD.source}`));
    expect(await grpcJs(daemon, '/other.v1.Svc/Say')).toMatch(new RegExp(`^UNIMPLEMENTED: ${UNKNOWN_SERVICE.source}`));
  });

  it('keeps the app’s 404 for a plain JSON POST, which no Connect client sends without its version header', async () => {
    const daemon = await grpcDaemon({ 'echo.proto': ECHO }, { name: 'echo' });
    const answer = await fetch(`${daemon.url}/other.v1.Svc/Say`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ success: false, error: { code: 'ROUTE_NOT_FOUND' } });
  });
});
