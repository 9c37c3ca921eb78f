/**
 * What the gRPC tests of the daemon share: the `chat.v1.Chat` service's
 * source and the same service described by hand, as protoc would (the
 * client's descriptor, not the daemon's compiler's).
 *
 * @module
 */
import { create, createFileRegistry, type DescService } from '@bufbuild/protobuf';
import {
  FileDescriptorProtoSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from '@bufbuild/protobuf/wkt';

export const CHAT = `syntax = "proto3";
package chat.v1;
service Chat {
  rpc Get(Ask) returns (Say);
  rpc Listen(Ask) returns (stream Say);
  rpc Upload(stream Ask) returns (Say);
  rpc Talk(stream Ask) returns (stream Say);
}
message Ask { string text = 1; }
message Say { string text = 1; int32 n = 2; }
`;

/** `chat.v1.Chat` described by hand, as protoc would. */
export function chatService(): DescService {
  const field = (name: string, number: number, type: Type) => ({
    name,
    number,
    type,
    label: Label.OPTIONAL,
    jsonName: name,
  });
  const method = (name: string, clientStreaming: boolean, serverStreaming: boolean) => ({
    name,
    inputType: '.chat.v1.Ask',
    outputType: '.chat.v1.Say',
    clientStreaming,
    serverStreaming,
  });
  const file = create(FileDescriptorProtoSchema, {
    name: 'chat.proto',
    package: 'chat.v1',
    syntax: 'proto3',
    messageType: [
      { name: 'Ask', field: [field('text', 1, Type.STRING)] },
      { name: 'Say', field: [field('text', 1, Type.STRING), field('n', 2, Type.INT32)] },
    ],
    service: [
      {
        name: 'Chat',
        method: [
          method('Get', false, false),
          method('Listen', false, true),
          method('Upload', true, false),
          method('Talk', true, true),
        ],
      },
    ],
  });
  return createFileRegistry(file, () => undefined).getService('chat.v1.Chat') as DescService;
}
