// The daemon's own gRPC services against the built daemon, with official clients: server
// reflection (v1 and v1alpha) through grpc-js with a service definition @grpc/proto-loader loads
// from the published reflection.proto (written below, not the daemon's copy), listing services
// and describing one (its FileDescriptorProtos decoded with Buf's runtime); the health service
// through grpc-js (Check, and Watch's first message). Native gRPC runs over TLS (--https and the
// local CA); the bidirectional reflection call sends its requests and half-closes before reading
// the answers, which is what the daemon's native path serves today. Every process listens on 127.0.0.1.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, startDaemon, useDaemons } from './helpers/daemon.js';
import { putProtos } from './helpers/grpc.js';

useDaemons();

const COMMON = `syntax = "proto3";
package shop.v1;
message Money { string currency = 1; int64 cents = 2; }
`;
const ORDERS = `syntax = "proto3";
package shop.v1;
import "shop/v1/common.proto";
import "google/protobuf/timestamp.proto";
service Orders { rpc GetOrder(GetOrderRequest) returns (Order); }
message GetOrderRequest { string id = 1; }
message Order { string id = 1; Money total = 2; google.protobuf.Timestamp placed = 3; }
`;
const BILLING = `syntax = "proto3";
package billing.v1;
service Invoices { rpc Get(GetRequest) returns (GetRequest); }
message GetRequest { string id = 1; }
`;

/**
 * grpc/reflection/{version}/reflection.proto as github.com/grpc/grpc-proto publishes it (comments dropped).
 *
 * A second copy on purpose, kept apart from the daemon's (core's `grpc/daemon-protos.ts`), as is
 * HEALTH_PROTO below: it is the client's side of the published contract. Were the client built from
 * the daemon's own copy, a wrong field number, type or package there would be on both ends of the
 * call and the test would still pass; against this copy such a drift fails it. Do not import one
 * from the other.
 */
function reflectionProto(version: string): string {
  return `syntax = "proto3";
package grpc.reflection.${version};
service ServerReflection {
  rpc ServerReflectionInfo(stream ServerReflectionRequest) returns (stream ServerReflectionResponse);
}
message ServerReflectionRequest {
  string host = 1;
  oneof message_request {
    string file_by_filename = 3;
    string file_containing_symbol = 4;
    ExtensionRequest file_containing_extension = 5;
    string all_extension_numbers_of_type = 6;
    string list_services = 7;
  }
}
message ExtensionRequest { string containing_type = 1; int32 extension_number = 2; }
message ServerReflectionResponse {
  string valid_host = 1;
  ServerReflectionRequest original_request = 2;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ExtensionNumberResponse all_extension_numbers_response = 5;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ExtensionNumberResponse { string base_type_name = 1; repeated int32 extension_number = 2; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
`;
}

const HEALTH_PROTO = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
`;

type GrpcCtor = new (address: string, credentials: grpc.ChannelCredentials) => grpc.Client & Record<string, never>;

/** The grpc-js clients of reflection v1, v1alpha and health, from proto-loader. */
async function clients(): Promise<{ v1: GrpcCtor; v1alpha: GrpcCtor; health: GrpcCtor }> {
  const dir = await makeTempDir();
  const files = {
    'v1.proto': reflectionProto('v1'),
    'v1alpha.proto': reflectionProto('v1alpha'),
    'health.proto': HEALTH_PROTO,
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const definition = protoLoader.loadSync(
    Object.keys(files).map((name) => join(dir, name)),
    { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true },
  );
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: {
      reflection: { v1: { ServerReflection: GrpcCtor }; v1alpha: { ServerReflection: GrpcCtor } };
      health: { v1: { Health: GrpcCtor } };
    };
  };
  return {
    v1: loaded.grpc.reflection.v1.ServerReflection,
    v1alpha: loaded.grpc.reflection.v1alpha.ServerReflection,
    health: loaded.grpc.health.v1.Health,
  };
}

interface ReflectionResponse {
  valid_host: string;
  message_response: string;
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

/** Sends `requests` on one ServerReflectionInfo call, half-closes, and collects the answers. */
function reflect(client: grpc.Client, requests: Record<string, unknown>[]): Promise<ReflectionResponse[]> {
  return new Promise((resolve, reject) => {
    const call = (
      client as unknown as { ServerReflectionInfo(): grpc.ClientDuplexStream<unknown, ReflectionResponse> }
    ).ServerReflectionInfo();
    const answers: ReflectionResponse[] = [];
    call.on('data', (answer: ReflectionResponse) => answers.push(answer));
    call.on('error', reject);
    call.on('end', () => resolve(answers));
    for (const request of requests) call.write({ host: 'localhost', ...request });
    call.end();
  });
}

async function tlsDaemon(): Promise<{ daemon: Daemon; address: string; credentials: grpc.ChannelCredentials }> {
  const daemon = await startDaemon({ args: ['--memory', '--https', '--https-port', '0'] });
  const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0] as string;
  const caFile = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
  const ca = await readFile(caFile as string);
  return { daemon, address: new URL(https).host, credentials: grpc.credentials.createSsl(ca) };
}

describe("the daemon's health and reflection services", () => {
  it('lists every service of every name and describes one with its imports, over reflection v1 and v1alpha', async () => {
    const { daemon, address, credentials } = await tlsDaemon();
    expect(await putProtos(daemon, 'shop', { 'shop/v1/common.proto': COMMON, 'shop/v1/orders.proto': ORDERS })).toBe(
      201,
    );
    expect(await putProtos(daemon, 'billing', { 'billing/v1/invoices.proto': BILLING })).toBe(201);
    const made = await clients();
    for (const Ctor of [made.v1, made.v1alpha]) {
      const client = new Ctor(address, credentials);
      try {
        const [list, symbol, method, byName, missing] = await reflect(client, [
          { list_services: '' },
          { file_containing_symbol: 'shop.v1.Orders' },
          { file_containing_symbol: 'shop.v1.Orders.GetOrder' },
          { file_by_filename: 'shop/v1/common.proto' },
          { file_containing_symbol: 'no.such.Thing' },
        ]);
        expect(list?.valid_host).toBe('localhost');
        expect(list?.list_services_response?.service.map(({ name }) => name).sort()).toEqual([
          'billing.v1.Invoices',
          'grpc.health.v1.Health',
          'grpc.reflection.v1.ServerReflection',
          'grpc.reflection.v1alpha.ServerReflection',
          'shop.v1.Orders',
        ]);
        const described = symbol?.file_descriptor_response?.file_descriptor_proto.map((bytes) =>
          fromBinary(FileDescriptorProtoSchema, bytes),
        );
        expect(described?.map((file) => file.name)).toEqual([
          'shop/v1/orders.proto',
          'shop/v1/common.proto',
          'google/protobuf/timestamp.proto',
        ]);
        const orders = described?.[0];
        expect(orders?.service[0]?.method[0]).toMatchObject({
          name: 'GetOrder',
          inputType: '.shop.v1.GetOrderRequest',
          outputType: '.shop.v1.Order',
        });
        expect(orders?.messageType.find((m) => m.name === 'Order')?.field.map((f) => [f.name, f.typeName])).toEqual([
          ['id', ''],
          ['total', '.shop.v1.Money'],
          ['placed', '.google.protobuf.Timestamp'],
        ]);
        expect(method?.file_descriptor_response?.file_descriptor_proto).toHaveLength(3);
        expect(
          byName?.file_descriptor_response?.file_descriptor_proto.map(
            (bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name,
          ),
        ).toEqual(['shop/v1/common.proto']);
        expect(missing?.error_response).toEqual({
          error_code: grpc.status.NOT_FOUND,
          error_message: 'no symbol no.such.Thing',
        });
      } finally {
        client.close();
      }
    }
    // The reflection describes itself too (grpcurl asks it for its own file).
    const client = new made.v1(address, credentials);
    try {
      const [own] = await reflect(client, [{ file_containing_symbol: 'grpc.health.v1.Health' }]);
      expect(
        own?.file_descriptor_response?.file_descriptor_proto.map(
          (bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name,
        ),
      ).toEqual(['grpc/health/v1/health.proto']);
    } finally {
      client.close();
    }
    // Neither service's calls are journaled: they belong to no name.
    const journal = (await (await fetch(`${daemon.url}/api/endpoints/shop/requests`)).json()) as {
      requests: unknown[];
    };
    expect(journal.requests).toEqual([]);
  });

  it('answers Check SERVING for the server and each service it answers, NOT_FOUND for any other', async () => {
    const { daemon, address, credentials } = await tlsDaemon();
    expect(await putProtos(daemon, 'shop', { 'shop/v1/common.proto': COMMON, 'shop/v1/orders.proto': ORDERS })).toBe(
      201,
    );
    const { health } = await clients();
    const client = new health(address, credentials) as unknown as grpc.Client & {
      Check(
        request: { service: string },
        done: (error: grpc.ServiceError | null, answer?: { status: string }) => void,
      ): void;
      Watch(request: { service: string }): grpc.ClientReadableStream<{ status: string }>;
    };
    /** The first status `Watch` sends; then the client cancels the call. */
    const watchFirst = (service: string) =>
      new Promise<string>((resolve, reject) => {
        const call = client.Watch({ service });
        call.on('data', (answer: { status: string }) => {
          resolve(answer.status);
          call.cancel();
        });
        call.on('error', (error: grpc.ServiceError) => {
          if (error.code !== grpc.status.CANCELLED) reject(error);
        });
      });
    const check = (service: string) =>
      new Promise<string>((resolve) =>
        client.Check({ service }, (error, answer) =>
          resolve(error ? `error ${error.code}` : (answer?.status as string)),
        ),
      );
    try {
      expect(await check('')).toBe('SERVING');
      expect(await check('shop.v1.Orders')).toBe('SERVING');
      expect(await check('grpc.health.v1.Health')).toBe('SERVING');
      expect(await check('billing.v1.Invoices')).toBe(`error ${grpc.status.NOT_FOUND}`);
      expect(await watchFirst('shop.v1.Orders')).toBe('SERVING');
      expect(await watchFirst('billing.v1.Invoices')).toBe('SERVICE_UNKNOWN');
      // Definitions put now are served now, by the same daemon.
      expect(await putProtos(daemon, 'billing', { 'billing/v1/invoices.proto': BILLING })).toBe(201);
      expect(await check('billing.v1.Invoices')).toBe('SERVING');
    } finally {
      client.close();
    }
  });

  it('is not answered while no name holds definitions', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const response = await fetch(`${daemon.url}/grpc.health.v1.Health/Check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('ROUTE_NOT_FOUND');
  });
});
