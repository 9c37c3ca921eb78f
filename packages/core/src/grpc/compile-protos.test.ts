import { Edition, FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { MockpointError } from '../registry/errors.js';
import { compileDescriptorSet, compileProtos } from './compile-protos.js';

const common = `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
message Money { string currency = 1; int64 units = 2; google.protobuf.Timestamp at = 3; }
`;
const orders = `syntax = "proto3";
package shop.v1;
import "shop/v1/common.proto";
import "google/protobuf/empty.proto";
service Orders {
  rpc Get(GetRequest) returns (Order);
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);
}
message GetRequest { string id = 1; }
message Order {
  string id = 1;
  Money total = 2;
  repeated string items = 3;
  enum State { STATE_UNSPECIFIED = 0; OPEN = 1; }
  State state = 4;
  map<string, Money> item_prices = 5;
  oneof x { string a = 6; int32 b = 7; }
  message Line { Money price = 1; }
  repeated Line lines = 8;
}
`;

async function failure(files: Record<string, string>): Promise<MockpointError> {
  const error = await compileProtos(files).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MockpointError);
  return error as MockpointError;
}

describe('compileProtos', () => {
  it('builds files that import each other and the well-known types', async () => {
    const registry = await compileProtos({ 'shop/v1/common.proto': common, 'shop/v1/orders.proto': orders });
    const service = registry.getService('shop.v1.Orders');
    expect(service?.methods.map((m) => `${m.name}:${m.input.typeName}->${m.output.typeName}`)).toEqual([
      'Get:shop.v1.GetRequest->shop.v1.Order',
      'Ping:google.protobuf.Empty->google.protobuf.Empty',
    ]);
    const order = registry.getMessage('shop.v1.Order');
    expect(order?.file.name).toBe('shop/v1/orders');
    expect(order?.field.total?.message?.typeName).toBe('shop.v1.Money');
    expect(order?.fields.find((f) => f.name === 'item_prices')?.fieldKind).toBe('map');
    expect(order?.field.lines?.message?.typeName).toBe('shop.v1.Order.Line');
    expect(order?.field.state?.enum?.typeName).toBe('shop.v1.Order.State');
    expect(order?.oneofs.map((o) => o.name)).toEqual(['x']);
    expect(registry.getMessage('shop.v1.Money')?.field.at?.message?.typeName).toBe('google.protobuf.Timestamp');
  });

  it("keeps each file's syntax or edition: proto3's implicit presence, proto2's, 2023's features", async () => {
    const registry = await compileProtos({
      'p3.proto':
        'syntax = "proto3";\npackage p3;\nmessage M { string a = 1; optional string b = 2; repeated int32 r = 3; }\n',
      'p2.proto': 'syntax = "proto2";\npackage p2;\nmessage M { optional string a = 1; repeated int32 r = 2; }\n',
      'e.proto':
        'edition = "2023";\npackage e;\nmessage M { string a = 1; int32 b = 2 [features.field_presence = IMPLICIT]; }\n',
    });
    expect(registry.getFile('p3.proto')?.edition).toBe(Edition.EDITION_PROTO3);
    expect(registry.getFile('p2.proto')?.edition).toBe(Edition.EDITION_PROTO2);
    expect(registry.getFile('e.proto')?.edition).toBe(Edition.EDITION_2023);
    const presence = (type: string) => registry.getMessage(type)?.fields.map((f) => [f.name, f.presence]);
    expect(presence('p3.M')).toEqual([
      ['a', FeatureSet_FieldPresence.IMPLICIT],
      ['b', FeatureSet_FieldPresence.EXPLICIT],
      ['r', FeatureSet_FieldPresence.IMPLICIT],
    ]);
    expect(presence('e.M')).toEqual([
      ['a', FeatureSet_FieldPresence.EXPLICIT],
      ['b', FeatureSet_FieldPresence.IMPLICIT],
    ]);
    expect(registry.getMessage('p3.M')?.oneofs).toEqual([]);
  });

  it('refuses an unknown syntax at its statement, and a method type no file declares where the method names it', async () => {
    const syntax = await failure({ 's.proto': '// x\nsyntax = "{roto3";\nmessage A {}\n' });
    expect(syntax.details).toEqual({ file: 's.proto', line: 2, column: 1 });
    const method = await failure({
      'm.proto': 'syntax = "proto3";\nmessage A {}\nservice S {\n  rpc Get(Aa) returns (A);\n}\n',
    });
    expect(method.message).toBe('invalid proto: m.proto:4:11: no such type: Aa');
  });

  it('refuses a syntax error with its file, line and column', async () => {
    const error = await failure({ 'a.proto': 'syntax = "proto3";\nmessage A {\n  string x = 1;\n  int32 = 2;\n}\n' });
    expect(error.code).toBe('INVALID_PROTO');
    expect(error.message).toBe("invalid proto: a.proto:4:9: illegal name '='");
    expect(error.details).toEqual({ file: 'a.proto', line: 4, column: 9 });
  });

  it('refuses an unknown type where the field names it', async () => {
    const error = await failure({ 'b.proto': 'syntax = "proto3";\npackage p;\nmessage B {\n  Missing m = 1;\n}\n' });
    expect(error.message).toMatch(/^invalid proto: b\.proto:4:3: no such Type or Enum 'Missing'/);
  });

  it('refuses an import that is neither given nor well known, at the import', async () => {
    const error = await failure({ 'c.proto': 'syntax = "proto3";\n\nimport "other/d.proto";\n' });
    expect(error.message).toBe(
      'invalid proto: c.proto:3:1: the imported file "other/d.proto" is neither one of the files given nor a well-known type',
    );
  });

  it('reads a binary FileDescriptorSet, and refuses bytes that are none', async () => {
    const { toBinary, create } = await import('@bufbuild/protobuf');
    const { FileDescriptorSetSchema } = await import('@bufbuild/protobuf/wkt');
    const registry = await compileProtos({ 'shop/v1/common.proto': common, 'shop/v1/orders.proto': orders });
    const files = [...registry.files].filter((f) => f.name.startsWith('shop/')).map((f) => f.proto);
    const bytes = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: files }));
    expect(compileDescriptorSet(bytes).getService('shop.v1.Orders')?.methods).toHaveLength(2);
    expect(() => compileDescriptorSet(new Uint8Array([0xff, 0xff, 0xff]))).toThrow(/^invalid proto: descriptorSet: /);
  });
});

describe('extensions', () => {
  it('compiles a top-level extend as protoc does: in the file, not in the extended message', async () => {
    const registry = await compileProtos({
      'p2.proto': `syntax = "proto2";
package p2;
message Order { optional string id = 1; extensions 100 to 200; }
extend Order { optional string note = 100; }
`,
    });
    const order = registry.getMessage('p2.Order');
    expect(order?.fields.map((field) => field.name)).toEqual(['id']);
    expect(order && registry.getExtensionFor(order, 100)?.typeName).toBe('p2.note');
    expect(registry.getFile('p2.proto')?.extensions.map((extension) => extension.name)).toEqual(['note']);
  });
});

describe('what protoc refuses', () => {
  it('refuses a field number outside 1 to 536870911 or in 19000 to 19999, naming the field', async () => {
    const cases: [string, string][] = [
      ['0', 'number 0; field numbers are 1 to 536870911'],
      ['536870912', 'number 536870912; field numbers are 1 to 536870911'],
      ['4294967295', 'number 4294967295; field numbers are 1 to 536870911'],
      ['19000', 'number 19000; field numbers 19000 to 19999 are reserved for the protobuf implementation'],
      ['19999', 'number 19999; field numbers 19000 to 19999 are reserved for the protobuf implementation'],
    ];
    for (const [number, why] of cases) {
      const source = `syntax = "proto3";\npackage p;\nmessage M {\n  string ok = 1;\n  message In { int32 bad = ${number}; }\n}\n`;
      const error = await failure({ 'm.proto': source });
      expect(error.message).toBe(`invalid proto: m.proto:5:22: field "bad" of p.M.In has ${why}`);
      expect(error.details).toEqual({ file: 'm.proto', line: 5, column: 22 });
    }
    const edges =
      'syntax = "proto3";\nmessage M { string a = 1; string b = 18999; string c = 20000; string d = 536870911; }\n';
    expect((await compileProtos({ 'm.proto': edges })).getMessage('M')?.fields).toHaveLength(4);
  });

  it('refuses a descriptor set whose field number protoc would refuse', async () => {
    const { toBinary, create } = await import('@bufbuild/protobuf');
    const { FileDescriptorSetSchema } = await import('@bufbuild/protobuf/wkt');
    const file = {
      name: 'd.proto',
      syntax: 'proto3',
      messageType: [{ name: 'M', field: [{ name: 'x', number: 0, type: 9, label: 1 }] }],
    };
    const bytes = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [file] } as never));
    expect(() => compileDescriptorSet(bytes)).toThrow(
      'invalid proto: d.proto: field "x" of M has number 0; field numbers are 1 to 536870911',
    );
  });

  it("refuses a file at a well-known type's path, naming it", async () => {
    const error = await failure({
      'google/protobuf/timestamp.proto':
        'syntax = "proto3";\npackage google.protobuf;\nmessage Timestamp { string when = 1; }\n',
      'a.proto':
        'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\nmessage A { google.protobuf.Timestamp at = 1; }\n',
    });
    expect(error.message).toBe(
      'invalid proto: google/protobuf/timestamp.proto: "google/protobuf/timestamp.proto" is the path of a well-known type, which every import of it gets from Google\'s own file; give your file another path',
    );
  });
});
