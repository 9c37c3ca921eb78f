/**
 * An endpoint's protobuf definitions as they are put, checked and kept: the
 * input is bounded, compiled (which refuses a bad file with `INVALID_PROTO`),
 * and kept as a JSON text of the input, exactly, with the services it
 * declares. The compiler (protobufjs and Buf's runtime) is imported only here,
 * on the first definitions put or served: a daemon that holds none never loads it.
 *
 * @module
 */
import type { FileRegistry } from '@bufbuild/protobuf';
import type { GrpcDefinitions, GrpcDefinitionsInput } from '../api/grpc-json.js';
import { fromBase64 } from '../codec/base64.js';
import { utf8Length } from '../codec/utf8-length.js';
import { MockpointError } from '../registry/errors.js';
import { inlineProtoCompiler, type ProtoCompiler } from './proto-compiler.js';

/** Definitions checked: the text to keep, and the registry they build. */
export interface CheckedDefinitions {
  definitions: GrpcDefinitions;
  text: string;
  registry: FileRegistry;
}

/** The size of `input` as the limit counts it: the sources' UTF-8 bytes, or the descriptor set's. */
function sizeOf(input: GrpcDefinitionsInput): number {
  if ('descriptorSet' in input) return Math.floor((input.descriptorSet.length * 3) / 4);
  let bytes = 0;
  for (const [path, source] of Object.entries(input.protos)) bytes += utf8Length(path) + utf8Length(source);
  return bytes;
}

/** Builds the registry of `input`, its sources parsed by `compiler`; throws `INVALID_PROTO`. */
export async function registryOf(
  input: GrpcDefinitionsInput,
  compiler: ProtoCompiler = inlineProtoCompiler(),
): Promise<FileRegistry> {
  const { compileDescriptorSet, registryOfDescribed } = await import('./compile-protos.js');
  if ('protos' in input) return registryOfDescribed(await compiler.describe(input.protos), input.protos);
  const bytes = fromBase64(input.descriptorSet);
  if (bytes === undefined) throw new MockpointError('INVALID_PROTO', 'invalid proto: descriptorSet: not base64');
  return compileDescriptorSet(bytes);
}

/** The full names of the services `registry` declares outside the well-known types, in file order. */
function servicesOf(registry: FileRegistry): string[] {
  const services: string[] = [];
  for (const file of registry.files) {
    for (const service of file.services) services.push(service.typeName);
  }
  return services;
}

/** Checks `input` within `maxBytes` (`GRPC_DEFINITIONS_TOO_LARGE`, `INVALID_PROTO`), its sources parsed by `compiler`; what to keep. */
export async function checkDefinitions(
  input: GrpcDefinitionsInput,
  maxBytes: number,
  compiler?: ProtoCompiler,
): Promise<CheckedDefinitions> {
  const size = sizeOf(input);
  if (size > maxBytes) {
    throw new MockpointError(
      'GRPC_DEFINITIONS_TOO_LARGE',
      `the protobuf definitions are ${size} bytes; at most ${maxBytes} (MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES)`,
    );
  }
  const registry = await registryOf(input, compiler);
  const services = servicesOf(registry);
  const definitions: GrpcDefinitions =
    'protos' in input ? { protos: input.protos, services } : { descriptorSet: input.descriptorSet, services };
  return { definitions, text: JSON.stringify(definitions), registry };
}

/** The definitions of a kept text (as {@link checkDefinitions} made it). */
export function decodeDefinitions(text: string): GrpcDefinitions {
  return JSON.parse(text) as GrpcDefinitions;
}
