/**
 * What the gRPC tests of the daemon share: a daemon whose endpoint holds
 * protobuf definitions, the put of definitions, services described by hand as
 * protoc would (the client's descriptor, not the daemon's compiler's), and
 * the `chat.v1.Chat` service most of them call.
 *
 * @module
 */
import { create, createFileRegistry, type DescService } from '@bufbuild/protobuf';
import {
  FileDescriptorProtoSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from '@bufbuild/protobuf/wkt';
import { CHAT_PROTO } from '@mockpoint/testkit/grpc-protos';
import { expect } from 'vitest';
import { type CliOptions, type Daemon, sharedDaemon, startDaemon } from './daemon.js';

export const CHAT = CHAT_PROTO;

/** One file of one service, described by hand: its messages' scalar fields and its methods. */
export interface HandMadeService {
  /** The file's name, e.g. `chat.proto`. */
  file: string;
  package: string;
  /** Each message's fields: name, number, type (all optional, as proto3's). */
  messages: Record<string, [name: string, number: number, type: Type][]>;
  service: string;
  /** Each method: name, input and output message (of this package), client and server streaming. */
  methods: [name: string, input: string, output: string, clientStreaming?: boolean, serverStreaming?: boolean][];
}

/** `spec`'s service as a Connect client needs it, described as protoc would. */
export function handMadeService(spec: HandMadeService): DescService {
  const file = create(FileDescriptorProtoSchema, {
    name: spec.file,
    package: spec.package,
    syntax: 'proto3',
    messageType: Object.entries(spec.messages).map(([name, fields]) => ({
      name,
      field: fields.map(([field, number, type]) => ({
        name: field,
        number,
        type,
        label: Label.OPTIONAL,
        jsonName: field,
      })),
    })),
    service: [
      {
        name: spec.service,
        method: spec.methods.map(([name, input, output, clientStreaming = false, serverStreaming = false]) => ({
          name,
          inputType: `.${spec.package}.${input}`,
          outputType: `.${spec.package}.${output}`,
          clientStreaming,
          serverStreaming,
        })),
      },
    ],
  });
  return createFileRegistry(file, () => undefined).getService(`${spec.package}.${spec.service}`) as DescService;
}

/** `chat.v1.Chat` described by hand, as protoc would. */
export function chatService(): DescService {
  return handMadeService({
    file: 'chat.proto',
    package: 'chat.v1',
    messages: {
      Ask: [['text', 1, Type.STRING]],
      Say: [
        ['text', 1, Type.STRING],
        ['n', 2, Type.INT32],
      ],
    },
    service: 'Chat',
    methods: [
      ['Get', 'Ask', 'Say'],
      ['Listen', 'Ask', 'Say', false, true],
      ['Upload', 'Ask', 'Say', true, false],
      ['Talk', 'Ask', 'Say', true, true],
    ],
  });
}

/** `PUT /api/endpoints/{name}/grpc` with `.proto` sources; resolves the status. */
export async function putProtos(daemon: Daemon, name: string, protos: Record<string, string>): Promise<number> {
  const response = await fetch(`${daemon.url}/api/endpoints/${name}/grpc`, {
    method: 'PUT',
    body: JSON.stringify({ protos }),
  });
  await response.text();
  return response.status;
}

/** How {@link grpcDaemon} starts: the daemon's options (`--memory` unless `args` are given), the name, its record. */
export interface GrpcDaemonOptions extends CliOptions {
  /** The endpoint that holds the definitions (`chat` unless given). */
  name?: string;
  /** The name's record, put first (`201`) when given. */
  record?: unknown;
}

/** A daemon whose endpoint holds `protos` (the put checked `201`). */
export async function grpcDaemon(protos: Record<string, string>, options: GrpcDaemonOptions = {}): Promise<Daemon> {
  const { name = 'chat', record, ...cli } = options;
  const daemon = await startDaemon({ ...cli, args: cli.args ?? ['--memory'] });
  if (record !== undefined) {
    const put = await fetch(`${daemon.url}/api/endpoints/${name}`, { method: 'PUT', body: JSON.stringify(record) });
    expect(put.status, await put.text()).toBe(201);
  }
  expect(await putProtos(daemon, name, protos)).toBe(201);
  return daemon;
}

/** A daemon whose endpoint `chat` holds {@link CHAT}. */
export function chatDaemon(options: GrpcDaemonOptions = {}): Promise<Daemon> {
  return grpcDaemon({ 'chat.proto': CHAT }, options);
}

/**
 * One daemon for a test file's tests ({@link sharedDaemon} with `clean`, `--memory` unless `args`
 * say otherwise): everything on it is deleted after each test that used it, and the getter puts
 * {@link CHAT} under `chat` anew (call it once a test).
 */
export function sharedChatDaemon(options: CliOptions = {}): () => Promise<Daemon> {
  const shared = sharedDaemon({ ...options, args: options.args ?? ['--memory'] }, { clean: true });
  return async () => {
    const daemon = await shared();
    expect(await putProtos(daemon, 'chat', { 'chat.proto': CHAT })).toBe(201);
    return daemon;
  };
}
