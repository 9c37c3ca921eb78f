// gRPC-family calls against the built daemon with Connect's own Node clients
// (createConnectTransport, JSON and binary; createGrpcWebTransport), over HTTP/1.1 and
// over HTTP/2 with --https:
// definitions put as .proto sources or as a descriptor set the test builds itself
// (not with mockpoint's compiler), schema mode's deterministic answers, the journal,
// the errors of a bad file and of a service another name holds, two replicas on one
// Redis, and definitions that survive SIGKILL on LevelDB. Every process listens on 127.0.0.1.

import { readFile } from 'node:fs/promises';
import {
  create,
  createFileRegistry,
  type DescMethodUnary,
  type DescService,
  fromBinary,
  toBinary,
} from '@bufbuild/protobuf';
import {
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from '@bufbuild/protobuf/wkt';
import { createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import { startTestRedis } from '@mockpoint/testkit/redis-server';
import { describe, expect, it } from 'vitest';
import { type Daemon, killAll, makeTempDir, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
// One daemon (in memory, with HTTPS) for the tests that only call it: each puts shop.v1.Orders under
// `shop`, which one daemon holds once, so everything is deleted after each test. The tests about the
// process (replicas, SIGKILL) start their own.
const shopDaemon = sharedDaemon({ args: ['--memory', '--https', '--https-port', '0'] }, { clean: true });

const ORDERS = `// Orders — “quoted”, with CRLF\r
syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
service Orders {
  rpc GetOrder(GetOrderRequest) returns (Order);
  rpc Watch(GetOrderRequest) returns (stream Order);
}
message GetOrderRequest { string id = 1; }
message Order {
  string id = 1;
  repeated string items = 2;
  google.protobuf.Timestamp placed = 3;
  int64 total_cents = 4;
}
`;

/**
 * The same service, described by hand as protoc would (the clients' descriptor,
 * independent of the daemon's compiler), with google/protobuf/timestamp.proto.
 */
function ordersService(): DescService {
  const field = (name: string, number: number, type: Type, extra: Record<string, unknown> = {}) => ({
    name,
    number,
    type,
    label: Label.OPTIONAL,
    jsonName: name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
    ...extra,
  });
  const file = create(FileDescriptorProtoSchema, {
    name: 'shop/v1/orders.proto',
    package: 'shop.v1',
    syntax: 'proto3',
    dependency: ['google/protobuf/timestamp.proto'],
    messageType: [
      { name: 'GetOrderRequest', field: [field('id', 1, Type.STRING)] },
      {
        name: 'Order',
        field: [
          field('id', 1, Type.STRING),
          field('items', 2, Type.STRING, { label: Label.REPEATED }),
          field('placed', 3, Type.MESSAGE, { typeName: '.google.protobuf.Timestamp' }),
          field('total_cents', 4, Type.INT64),
        ],
      },
    ],
    service: [
      {
        name: 'Orders',
        method: [
          { name: 'GetOrder', inputType: '.shop.v1.GetOrderRequest', outputType: '.shop.v1.Order' },
          {
            name: 'Watch',
            inputType: '.shop.v1.GetOrderRequest',
            outputType: '.shop.v1.Order',
            serverStreaming: true,
          },
        ],
      },
    ],
  });
  const registry = createFileRegistry(file, (name) => {
    if (name !== 'google/protobuf/timestamp.proto') return undefined;
    return create(FileDescriptorProtoSchema, {
      name,
      package: 'google.protobuf',
      syntax: 'proto3',
      messageType: [{ name: 'Timestamp', field: [field('seconds', 1, Type.INT64), field('nanos', 2, Type.INT32)] }],
    });
  });
  const service = registry.getService('shop.v1.Orders');
  if (service === undefined) throw new Error('no service');
  return service;
}

/** The fields of an `Order` the tests read. */
interface Order {
  id: string;
  items: string[];
  placed?: { seconds: bigint };
  totalCents: bigint;
}

/** A Connect client of `shop.v1.Orders` over `transport` (typed by hand: the descriptor is built at run time). */
function ordersClient(transport: Transport) {
  return createClient(ordersService(), transport) as unknown as {
    getOrder(request: { id: string }): Promise<Order>;
    watch(request: { id: string }): AsyncIterable<Order>;
  };
}

async function putGrpc(
  daemon: Daemon,
  name: string,
  body: unknown,
): Promise<{ status: number; json: { error?: Record<string, unknown> } & Record<string, unknown> }> {
  const response = await fetch(`${daemon.url}/api/endpoints/${name}/grpc`, {
    method: 'PUT',
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('gRPC-family calls on the daemon', () => {
  it('answers Connect (JSON and binary) and gRPC-Web clients alike, deterministically, and journals each call', async () => {
    const daemon = await shopDaemon();
    expect((await putGrpc(daemon, 'shop', { protos: { 'shop/v1/orders.proto': ORDERS } })).status).toBe(201);
    const transports = {
      json: createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }),
      binary: createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1', useBinaryFormat: true }),
      grpcWeb: createGrpcWebTransport({ baseUrl: daemon.url, httpVersion: '1.1' }),
    };
    const answers = [];
    for (const transport of Object.values(transports)) {
      answers.push(await ordersClient(transport).getOrder({ id: '7' }));
    }
    const [first] = answers;
    expect(first?.items).toHaveLength(2);
    expect(typeof first?.id).toBe('string');
    expect(first?.placed?.seconds).toBeGreaterThan(1_577_836_800n);
    expect(typeof first?.totalCents).toBe('bigint');
    for (const answer of answers) expect(answer).toEqual(first);
    const other = await ordersClient(transports.binary).getOrder({ id: '8' });
    expect(other).not.toEqual(first);

    const journal = (await (await fetch(`${daemon.url}/api/endpoints/shop/requests`)).json()) as {
      requests: {
        path: string;
        subpath: string;
        answeredBy: string;
        grpc: { protocol: string; message: unknown; code: string };
      }[];
    };
    // The path journaled is the one requested; the subpath names the method, as under /endpoint/{name}.
    expect(journal.requests.map(({ path }) => path)).toEqual(Array(4).fill('/shop.v1.Orders/GetOrder'));
    expect(
      journal.requests.map(({ subpath, answeredBy, grpc }) => [
        subpath,
        answeredBy,
        grpc.protocol,
        grpc.message,
        grpc.code,
      ]),
    ).toEqual([
      ['/shop.v1.Orders/GetOrder', 'grpc', 'connect', { id: '7' }, 'ok'],
      ['/shop.v1.Orders/GetOrder', 'grpc', 'connect', { id: '7' }, 'ok'],
      ['/shop.v1.Orders/GetOrder', 'grpc', 'grpc-web', { id: '7' }, 'ok'],
      ['/shop.v1.Orders/GetOrder', 'grpc', 'connect', { id: '8' }, 'ok'],
    ]);
  });

  it('answers a server-streaming method with two messages, the same for the same request', async () => {
    const daemon = await shopDaemon();
    expect((await putGrpc(daemon, 'shop', { protos: { 'shop/v1/orders.proto': ORDERS } })).status).toBe(201);
    const client = ordersClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    const watched = async () => {
      const orders: Order[] = [];
      for await (const order of client.watch({ id: '7' })) orders.push(order);
      return orders;
    };
    const first = await watched();
    expect(first).toHaveLength(2);
    expect(await watched()).toEqual(first);
  });

  it('serves a descriptor set as it serves sources', async () => {
    const daemon = await shopDaemon();
    const service = ordersService();
    const set = create(FileDescriptorSetSchema, { file: [service.file.proto] });
    const descriptorSet = Buffer.from(toBinary(FileDescriptorSetSchema, set)).toString('base64');
    const put = await putGrpc(daemon, 'shop', { descriptorSet });
    expect(put).toEqual({ status: 201, json: { descriptorSet, services: ['shop.v1.Orders'] } });
    const client = ordersClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' }));
    expect((await client.getOrder({ id: '7' })).items).toHaveLength(2);
  });

  it('refuses a bad file naming file, line and column, and a service another name holds', async () => {
    const daemon = await shopDaemon();
    const bad = await putGrpc(daemon, 'shop', {
      protos: { 'shop/v1/orders.proto': ORDERS.replace('int64 total_cents', 'int64 = total_cents') },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: 'INVALID_PROTO',
      details: { file: 'shop/v1/orders.proto', line: 14, column: 9 },
    });
    expect((await putGrpc(daemon, 'shop', { protos: { 'shop/v1/orders.proto': ORDERS } })).status).toBe(201);
    const taken = await putGrpc(daemon, 'copy', { protos: { 'orders.proto': ORDERS } });
    expect(taken.status).toBe(409);
    expect(taken.json.error).toMatchObject({
      code: 'SERVICE_TAKEN',
      details: { service: 'shop.v1.Orders', endpoint: 'shop' },
    });
  });

  it('refuses at save what protoc refuses: field numbers out of range or reserved, a well-known path', async () => {
    const daemon = await shopDaemon();
    for (const number of [0, 536870912, 4294967295, 19500]) {
      const put = await putGrpc(daemon, 'shop', {
        protos: { 'shop/v1/orders.proto': ORDERS.replace('string id = 1;', `string id = ${number};`) },
      });
      expect(put.status, String(number)).toBe(400);
      expect(put.json.error).toMatchObject({ code: 'INVALID_PROTO', details: { file: 'shop/v1/orders.proto' } });
      expect(put.json.error?.message).toContain(`field "id" of shop.v1.`);
      expect(put.json.error?.message).toContain(`has number ${number}`);
    }
    const timestamp = await putGrpc(daemon, 'shop', {
      protos: {
        'google/protobuf/timestamp.proto':
          'syntax = "proto3";\npackage google.protobuf;\nmessage Timestamp { string at = 1; }\n',
        'shop/v1/orders.proto': ORDERS,
      },
    });
    expect(timestamp.status).toBe(400);
    expect(timestamp.json.error).toMatchObject({
      code: 'INVALID_PROTO',
      details: { file: 'google/protobuf/timestamp.proto' },
    });
    // Nothing was kept: the name holds no definitions.
    expect((await fetch(`${daemon.url}/api/endpoints/shop/grpc`)).status).toBe(404);
  });

  it('answers Connect and gRPC-Web over HTTP/2 with --https', async () => {
    const daemon = await shopDaemon();
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const ca = await readFile(caFile as string, 'utf8');
    expect((await putGrpc(daemon, 'shop', { protos: { 'shop/v1/orders.proto': ORDERS } })).status).toBe(201);
    const overH2 = { baseUrl: https, httpVersion: '2', nodeOptions: { ca } } as const;
    const connect = await ordersClient(createConnectTransport({ ...overH2, useBinaryFormat: true })).getOrder({
      id: '7',
    });
    const grpcWeb = await ordersClient(createGrpcWebTransport(overH2)).getOrder({ id: '7' });
    const plain = await ordersClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' })).getOrder({
      id: '7',
    });
    expect(connect.items).toHaveLength(2);
    expect(grpcWeb).toEqual(connect);
    expect(plain).toEqual(connect);
  });

  it('answers native gRPC over HTTP/2 with --https: the gRPC transport of Connect and grpc-js, with trailers', async () => {
    const daemon = await shopDaemon();
    const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
    const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    const ca = await readFile(caFile as string, 'utf8');
    expect((await putGrpc(daemon, 'shop', { protos: { 'shop/v1/orders.proto': ORDERS } })).status).toBe(201);
    const viaConnect = await ordersClient(createGrpcTransport({ baseUrl: https, nodeOptions: { ca } })).getOrder({
      id: '7',
    });
    const plain = await ordersClient(createConnectTransport({ baseUrl: daemon.url, httpVersion: '1.1' })).getOrder({
      id: '7',
    });
    expect(viaConnect).toEqual(plain);

    // grpc-js, with Buf's runtime as its (de)serializer: the same message, bytes for bytes.
    const service = ordersService();
    const method = service.method.getOrder as DescMethodUnary;
    const client = new grpc.Client(new URL(https).host, grpc.credentials.createSsl(Buffer.from(ca)));
    try {
      const viaGrpcJs = await new Promise<unknown>((resolve, reject) =>
        client.makeUnaryRequest(
          '/shop.v1.Orders/GetOrder',
          (message: { id: string }) => Buffer.from(toBinary(method.input, create(method.input, message))),
          (bytes: Buffer) => fromBinary(method.output, bytes),
          { id: '7' },
          (error, value) => (error ? reject(error) : resolve(value)),
        ),
      );
      expect(viaGrpcJs).toEqual(plain);
      const streamed = await new Promise<{ received: unknown[]; code: number }>((resolve) => {
        const received: unknown[] = [];
        const call = client.makeServerStreamRequest(
          '/shop.v1.Orders/Watch',
          (message: { id: string }) => Buffer.from(toBinary(method.input, create(method.input, message))),
          (bytes: Buffer) => fromBinary(method.output, bytes),
          { id: '7' },
        );
        call.on('data', (message) => received.push(message));
        call.on('status', (status: grpc.StatusObject) => resolve({ received, code: status.code }));
      });
      expect(streamed.code).toBe(grpc.status.OK);
      expect(streamed.received).toHaveLength(2);
    } finally {
      client.close();
    }
    // A native call is journaled once its trailers are written: right after the client has them.
    const calls = async () => {
      const journal = (await (await fetch(`${daemon.url}/api/endpoints/shop/requests`)).json()) as {
        requests: { grpc: { protocol: string; method: string; code: string; message?: unknown } }[];
      };
      return journal.requests.map(({ grpc }) => [grpc.protocol, grpc.method, grpc.code, grpc.message]);
    };
    await expect.poll(calls).toEqual([
      ['grpc', 'GetOrder', 'ok', { id: '7' }],
      ['connect', 'GetOrder', 'ok', { id: '7' }],
      ['grpc', 'GetOrder', 'ok', { id: '7' }],
      ['grpc', 'Watch', 'ok', { id: '7' }],
    ]);
  });

  it('two replicas on one redis-server share the definitions: a put, a replace and a delete on one reach the other', async () => {
    const redis = await startTestRedis();
    try {
      const env = { MOCKPOINT_REDIS_URL: redis.socket };
      const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
      if (a === undefined || b === undefined) throw new Error('two replicas');
      const call = (daemon: Daemon, service: string) =>
        fetch(`${daemon.url}/${service}/GetOrder`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"id":"7"}',
        });
      // B looks first and finds no such service (and remembers that), then A puts the definitions.
      expect((await call(b, 'shop.v1.Orders')).status).toBe(404);
      expect((await putGrpc(a, 'shop', { protos: { 'shop/v1/orders.proto': ORDERS } })).status).toBe(201);
      await expect.poll(async () => (await call(b, 'shop.v1.Orders')).status).toBe(200);
      const renamed = { 'shop/v2/orders.proto': ORDERS.replace('package shop.v1;', 'package shop.v2;') };
      expect((await putGrpc(a, 'shop', { protos: renamed })).status).toBe(200);
      await expect.poll(async () => (await call(b, 'shop.v2.Orders')).status).toBe(200);
      expect((await call(b, 'shop.v1.Orders')).status).toBe(404);
      expect((await fetch(`${a.url}/api/endpoints/shop/grpc`, { method: 'DELETE' })).status).toBe(204);
      await expect.poll(async () => (await call(b, 'shop.v2.Orders')).status).toBe(404);
    } finally {
      await killAll();
      await redis.dispose();
    }
  });

  it('keeps the definitions exactly across SIGKILL right after the answer (LevelDB), and serves them', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const protos = { 'shop/v1/orders.proto': ORDERS };
    expect((await putGrpc(first, 'shop', { protos })).status).toBe(201);
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd });
    const kept = await (await fetch(`${second.url}/api/endpoints/shop/grpc`)).json();
    expect(kept).toEqual({ protos, services: ['shop.v1.Orders'] });
    const client = ordersClient(createConnectTransport({ baseUrl: second.url, httpVersion: '1.1' }));
    expect((await client.getOrder({ id: '7' })).items).toHaveLength(2);
  });
});
