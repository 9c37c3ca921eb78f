import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { compileProtos } from './compile-protos.js';
import { daemonRegistry } from './daemon-protos.js';
import { check, SERVING } from './health.js';
import { type GrpcView, type ReflectionAnswer, reflect } from './reflection.js';

const SHOP = `syntax = "proto2";
package shop;
message Order { optional string id = 1; extensions 100 to 200; enum Kind { A = 0; B = 1; } }
extend Order { optional string note = 100; }
service Orders { rpc Get(Order) returns (Order); }
`;

async function view(): Promise<GrpcView> {
  const registries = [await compileProtos({ 'shop.proto': SHOP }), await daemonRegistry()];
  return { services: async () => ['shop.Orders', 'grpc.health.v1.Health'], registries: async () => registries };
}

function names(answer: ReflectionAnswer): string[] {
  if (answer.case !== 'fileDescriptorResponse') return [answer.case];
  return answer.value.fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name);
}

describe('reflect', () => {
  it('finds the file of a type, a member of one (method, field, enum value) and an extension', async () => {
    const daemon = await view();
    const ask = (c: string, value: unknown) =>
      reflect(daemon, { host: '', messageRequest: { case: c, value } as never });
    for (const symbol of ['shop.Order', '.shop.Orders.Get', 'shop.Order.id', 'shop.Order.Kind.B', 'shop.note']) {
      expect(names(await ask('fileContainingSymbol', symbol))).toEqual(['shop.proto']);
    }
    expect(names(await ask('fileContainingExtension', { containingType: 'shop.Order', extensionNumber: 100 }))).toEqual(
      ['shop.proto'],
    );
    expect(await ask('fileContainingExtension', { containingType: 'shop.Order', extensionNumber: 101 })).toEqual({
      case: 'errorResponse',
      value: { errorCode: 5, errorMessage: 'no extension 101 of shop.Order' },
    });
    expect(await ask('allExtensionNumbersOfType', 'shop.Order')).toEqual({
      case: 'allExtensionNumbersResponse',
      value: { baseTypeName: 'shop.Order', extensionNumber: [100] },
    });
    expect(await ask('fileContainingSymbol', 'shop.Order.nope')).toEqual({
      case: 'errorResponse',
      value: { errorCode: 5, errorMessage: 'no symbol shop.Order.nope' },
    });
    expect(await ask('fileByFilename', 'grpc/reflection/v1/reflection.proto')).toMatchObject({
      case: 'fileDescriptorResponse',
    });
    expect((await reflect(daemon, { host: '', messageRequest: { case: undefined } })).case).toBe('errorResponse');
  });

  it('health: SERVING for the server and a service answered, NOT_FOUND otherwise', async () => {
    const daemon = await view();
    expect(await check(daemon, '')).toEqual({ status: SERVING });
    expect(await check(daemon, 'shop.Orders')).toEqual({ status: SERVING });
    await expect(check(daemon, 'other.Service')).rejects.toThrow('unknown service other.Service');
  });
});
