/**
 * Server reflection's answers (`grpc.reflection.v1` and `v1alpha` alike: the
 * same messages), from the registries of the definitions the daemon holds:
 * the services it answers, and the `FileDescriptorProto` of a file, of the
 * file declaring a symbol or an extension, each with the files it imports
 * (transitively), encoded by Buf's runtime. A request it cannot answer gets
 * the protocol's `error_response` (`NOT_FOUND`, `INVALID_ARGUMENT`), the
 * stream going on.
 *
 * @module
 */
import { type DescFile, type FileRegistry, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';

/** What the daemon's own services read of the definitions it holds. */
export interface GrpcView {
  /** The full names of the services the daemon answers (its own among them), in order. */
  services(): Promise<string[]>;
  /** The registries of the definitions, in the order to search them (the daemon's own last). */
  registries(): Promise<FileRegistry[]>;
}

/** A reflection request as Buf's runtime reads it (v1 and v1alpha have the same shape). */
export interface ReflectionRequest {
  host: string;
  messageRequest:
    | { case: 'fileByFilename' | 'fileContainingSymbol' | 'allExtensionNumbersOfType' | 'listServices'; value: string }
    | { case: 'fileContainingExtension'; value: { containingType: string; extensionNumber: number } }
    | { case: undefined; value?: undefined };
}

/** The `message_response` of a reflection response, as Buf's runtime builds it. */
export type ReflectionAnswer =
  | { case: 'fileDescriptorResponse'; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: 'allExtensionNumbersResponse'; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: 'listServicesResponse'; value: { service: { name: string }[] } }
  | { case: 'errorResponse'; value: { errorCode: number; errorMessage: string } };

const NOT_FOUND = 5;
const INVALID_ARGUMENT = 3;

function error(errorCode: number, errorMessage: string): ReflectionAnswer {
  return { case: 'errorResponse', value: { errorCode, errorMessage } };
}

/** `file` and every file it imports, transitively, each once, `file` first. */
function withDependencies(file: DescFile): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  const visit = (one: DescFile) => {
    if (seen.has(one.name)) return;
    seen.add(one.name);
    out.push(toBinary(FileDescriptorProtoSchema, one.proto));
    for (const dependency of one.dependencies) visit(dependency);
  };
  visit(file);
  return out;
}

function files(file: DescFile): ReflectionAnswer {
  return { case: 'fileDescriptorResponse', value: { fileDescriptorProto: withDependencies(file) } };
}

/**
 * The file declaring `symbol` in `registry`: a message, enum, service or
 * extension, or a member of one (a method, a field, an enum value).
 */
function fileOfSymbol(registry: FileRegistry, symbol: string): DescFile | undefined {
  const found = registry.get(symbol);
  if (found !== undefined) return found.file;
  const parent = registry.get(symbol.slice(0, Math.max(0, symbol.lastIndexOf('.'))));
  const member = symbol.slice(symbol.lastIndexOf('.') + 1);
  if (parent === undefined) return undefined;
  const has =
    (parent.kind === 'service' && parent.methods.some((method) => method.name === member)) ||
    (parent.kind === 'message' && parent.fields.some((field) => field.name === member)) ||
    (parent.kind === 'enum' && parent.values.some((value) => value.name === member));
  return has ? parent.file : undefined;
}

/** The answer to one reflection request. */
export async function reflect(view: GrpcView, request: ReflectionRequest): Promise<ReflectionAnswer> {
  const asked = request.messageRequest;
  switch (asked.case) {
    case 'listServices':
      return { case: 'listServicesResponse', value: { service: (await view.services()).map((name) => ({ name })) } };
    case 'fileByFilename': {
      for (const registry of await view.registries()) {
        const file = registry.getFile(asked.value);
        if (file !== undefined) return files(file);
      }
      return error(NOT_FOUND, `no file ${asked.value}`);
    }
    case 'fileContainingSymbol': {
      const symbol = asked.value.replace(/^\./, '');
      for (const registry of await view.registries()) {
        const file = fileOfSymbol(registry, symbol);
        if (file !== undefined) return files(file);
      }
      return error(NOT_FOUND, `no symbol ${symbol}`);
    }
    case 'fileContainingExtension': {
      const { containingType, extensionNumber } = asked.value;
      for (const registry of await view.registries()) {
        const message = registry.getMessage(containingType.replace(/^\./, ''));
        const extension = message === undefined ? undefined : registry.getExtensionFor(message, extensionNumber);
        if (extension !== undefined) return files(extension.file);
      }
      return error(NOT_FOUND, `no extension ${extensionNumber} of ${containingType}`);
    }
    case 'allExtensionNumbersOfType': {
      const type = asked.value.replace(/^\./, '');
      for (const registry of await view.registries()) {
        if (registry.getMessage(type) === undefined) continue;
        const numbers: number[] = [];
        for (const desc of registry) {
          if (desc.kind === 'extension' && desc.extendee.typeName === type) numbers.push(desc.number);
        }
        return { case: 'allExtensionNumbersResponse', value: { baseTypeName: type, extensionNumber: numbers } };
      }
      return error(NOT_FOUND, `no message type ${type}`);
    }
    default:
      return error(INVALID_ARGUMENT, 'the request asks nothing (no message_request)');
  }
}
