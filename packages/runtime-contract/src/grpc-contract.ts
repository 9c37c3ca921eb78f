/**
 * The gRPC part of the runtime contract: definitions put as `.proto` sources,
 * then one unary call in each protocol the Fetch API serves (Connect JSON,
 * Connect binary, gRPC-Web) answered with the very bytes the engine answers on
 * Node (a reference app in the test process, on a memory store: schema mode is
 * seeded by the method and the request, so every runtime must agree), and a
 * native gRPC request over HTTP/1.1 answered with the documented Trailers-Only
 * `unimplemented`.
 *
 * The request messages are written out as bytes (three of them, commented): the
 * contract talks HTTP only, like every other check.
 *
 * @module
 */
import { createApp, MemoryStore, type MockpointApp } from '@mockpoint/core';
import { expect } from 'vitest';
import type { Check, Target } from './contract.js';
import { oneRequest } from './one-request.js';

/** Two files, one importing the other and a well-known type. */
export const GRPC_PROTOS = {
  'rt/v1/common.proto': 'syntax = "proto3";\npackage rt.v1;\nmessage Money { string currency = 1; int64 units = 2; }\n',
  'rt/v1/orders.proto': [
    'syntax = "proto3";',
    'package rt.v1;',
    'import "rt/v1/common.proto";',
    'import "google/protobuf/timestamp.proto";',
    'service Orders { rpc GetOrder(GetOrderRequest) returns (Order); }',
    'message GetOrderRequest { string id = 1; }',
    'enum State { STATE_UNSPECIFIED = 0; STATE_OPEN = 1; STATE_SHIPPED = 2; }',
    'message Order {',
    '  string id = 1; repeated string items = 2; google.protobuf.Timestamp placed = 3;',
    '  Money total = 4; State state = 5; map<string, int32> counts = 6; bytes tag = 7; double weight = 8;',
    '}',
    '',
  ].join('\n'),
};

/** A service of its own for the native check (a service belongs to one name). */
const NATIVE_PROTO =
  'syntax = "proto3";\npackage rt.native;\nservice Orders { rpc GetOrder(Req) returns (Req); }\nmessage Req { string id = 1; }\n';

const CALL_PATH = '/rt.v1.Orders/GetOrder';
/** `GetOrderRequest { id: "7" }`: field 1, wire type 2 (0x0a), length 1, "7". */
const REQUEST_BINARY = Uint8Array.of(0x0a, 0x01, 0x37);
/** The same message in one gRPC-Web data frame: flag 0, a 4-byte big-endian length, the message. */
const REQUEST_GRPC_WEB = Uint8Array.of(0, 0, 0, 0, REQUEST_BINARY.length, ...REQUEST_BINARY);

/** One request with a byte body of `type` on a connection of its own; the answer's bytes. */
function callBytes(target: Target, method: string, path: string, body: Uint8Array | string, type: string) {
  return oneRequest(method, `${target.url}${path}`, { headers: { 'content-type': type }, body });
}

/** The engine in this (Node) process, on a memory store: what every runtime must answer. */
let reference: Promise<MockpointApp> | undefined;

function referenceApp(): Promise<MockpointApp> {
  reference ??= (async () => {
    const app = createApp({ store: new MemoryStore() });
    const put = await app.request('/api/endpoints/rt-grpc/grpc', {
      method: 'PUT',
      body: JSON.stringify({ protos: GRPC_PROTOS }),
    });
    if (put.status !== 201) throw new Error(`reference put: ${put.status} ${await put.text()}`);
    return app;
  })();
  return reference;
}

async function referenceAnswer(body: Uint8Array | string, type: string): Promise<Buffer> {
  const app = await referenceApp();
  const answer = await app.request(CALL_PATH, { method: 'POST', headers: { 'content-type': type }, body });
  expect(answer.status).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
}

/** The three requests of the unary check: the body and its content type. */
const UNARY_CALLS = [
  { protocol: 'connect', body: '{"id":"7"}', type: 'application/json' },
  { protocol: 'connect', body: REQUEST_BINARY, type: 'application/proto' },
  { protocol: 'grpc-web', body: REQUEST_GRPC_WEB, type: 'application/grpc-web+proto' },
] as const;

export const GRPC_CHECKS: readonly Check[] = [
  {
    id: 'grpc',
    title:
      'gRPC: definitions put, a unary call over Connect (JSON, binary) and gRPC-Web answered as on Node, journaled',
    async run(target) {
      const put = await callBytes(
        target,
        'PUT',
        '/api/endpoints/rt-grpc/grpc',
        JSON.stringify({ protos: GRPC_PROTOS }),
        'application/json',
      );
      expect(put.status, put.body.toString()).toBe(201);
      expect(JSON.parse(put.body.toString())).toEqual({ protos: GRPC_PROTOS, services: ['rt.v1.Orders'] });
      for (const { body, type } of UNARY_CALLS) {
        const answer = await callBytes(target, 'POST', CALL_PATH, body, type);
        expect(answer.status, answer.body.toString()).toBe(200);
        expect(answer.headers.get('content-type')).toBe(type);
        expect(answer.body.toString('base64')).toBe((await referenceAnswer(body, type)).toString('base64'));
      }
      // The JSON answer is a whole Order (every field set by schema mode).
      const json = await callBytes(target, 'POST', CALL_PATH, '{"id":"7"}', 'application/json');
      expect(Object.keys(JSON.parse(json.body.toString())).sort()).toEqual(
        ['counts', 'id', 'items', 'placed', 'state', 'tag', 'total', 'weight'].sort(),
      );
      const read = await callBytes(target, 'GET', '/api/endpoints/rt-grpc/requests', '', 'application/json');
      const { requests } = JSON.parse(read.body.toString()) as {
        requests: { subpath: string; answeredBy: string; grpc: { protocol: string; message: unknown; code: string } }[];
      };
      expect(requests.slice(0, 3).map(({ subpath, answeredBy, grpc }) => [subpath, answeredBy, grpc])).toEqual(
        UNARY_CALLS.map(({ protocol }) => [
          CALL_PATH,
          'grpc',
          expect.objectContaining({ service: 'rt.v1.Orders', method: 'GetOrder', protocol, message: { id: '7' } }),
        ]),
      );
    },
  },
  {
    id: 'grpc-native-fetch',
    title: 'native gRPC over the Fetch API: a Trailers-Only unimplemented (grpc-status 12 in the headers, no body)',
    fetchOnly: true,
    async run(target) {
      const put = await callBytes(
        target,
        'PUT',
        '/api/endpoints/rt-grpc-native/grpc',
        JSON.stringify({ protos: { 'rt/native.proto': NATIVE_PROTO } }),
        'application/json',
      );
      expect(put.status, put.body.toString()).toBe(201);
      const answer = await callBytes(
        target,
        'POST',
        '/rt.native.Orders/GetOrder',
        REQUEST_GRPC_WEB,
        'application/grpc',
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/grpc');
      expect(answer.headers.get('grpc-status')).toBe('12');
      expect(answer.headers.get('grpc-message')).toMatch(/./);
      expect(answer.body.length).toBe(0);
    },
  },
];

/**
 * Lazy loading, on a runtime of its own (nothing put before): no protobuf module is loaded at
 * start nor by a call-shaped request to a daemon without definitions; putting some loads them.
 * Runs where the entry can count the modules (Bun, Deno); the daemon's is
 * packages/server/test/lazy-modules.test.ts.
 */
export const GRPC_LAZY = {
  title: 'gRPC loaded lazily: no protobuf module until definitions are put, not even for a call-shaped request',
  async run(target: Target): Promise<void> {
    const { protobufModules } = target;
    if (protobufModules === undefined) throw new Error('this runtime cannot count the modules it loaded');
    expect(await protobufModules()).toBe(0);
    const call = await callBytes(target, 'POST', CALL_PATH, '{"id":"7"}', 'application/json');
    expect(call.status).toBe(404);
    expect(await protobufModules()).toBe(0);
    const put = await callBytes(
      target,
      'PUT',
      '/api/endpoints/rt-lazy/grpc',
      JSON.stringify({ protos: { 'rt/lazy.proto': NATIVE_PROTO.replace('rt.native', 'rt.lazy') } }),
      'application/json',
    );
    expect(put.status, put.body.toString()).toBe(201);
    expect(await protobufModules()).toBeGreaterThan(0);
  },
};
