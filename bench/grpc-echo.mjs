// The service bench/grpc.mjs calls, as .proto source (for mockpoint) and as Buf
// descriptors built by hand as protoc would (for the bare server and the client).
import { createRequire } from 'node:module';

export const ECHO_PROTO = `syntax = "proto3";
package echo.v1;
service Echo {
  rpc Say(SayRequest) returns (SayReply);
  rpc Listen(SayRequest) returns (stream SayReply);
}
message SayRequest { string text = 1; int32 count = 2; }
message SayReply { string text = 1; int32 count = 2; repeated string tags = 3; }
`;

/** Buf's runtime (the core's copy) and the two messages. */
export async function echoFile() {
  const core = createRequire(new URL('../packages/core/package.json', import.meta.url));
  const protobuf = await import(core.resolve('@bufbuild/protobuf'));
  const wkt = await import(core.resolve('@bufbuild/protobuf/wkt'));
  const { LABEL_OPTIONAL: optional, LABEL_REPEATED: repeated } = { LABEL_OPTIONAL: 1, LABEL_REPEATED: 3 };
  const [STRING, INT32] = [9, 5];
  const field = (name, number, type, label = optional) => ({ name, number, type, label, jsonName: name });
  const file = protobuf.create(wkt.FileDescriptorProtoSchema, {
    name: 'echo/v1/echo.proto',
    package: 'echo.v1',
    syntax: 'proto3',
    messageType: [
      { name: 'SayRequest', field: [field('text', 1, STRING), field('count', 2, INT32)] },
      {
        name: 'SayReply',
        field: [field('text', 1, STRING), field('count', 2, INT32), field('tags', 3, STRING, repeated)],
      },
    ],
  });
  const registry = protobuf.createFileRegistry(file, () => undefined);
  return {
    ...protobuf,
    messages: {
      SayRequest: registry.getMessage('echo.v1.SayRequest'),
      SayReply: registry.getMessage('echo.v1.SayReply'),
    },
  };
}
