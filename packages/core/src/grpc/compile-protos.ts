/**
 * `.proto` sources to Buf's descriptors: protobufjs parses each file and
 * resolves the imports between them (Google's well-known types come from
 * Buf's own embedded descriptors), then each file becomes the
 * `FileDescriptorProto` protoc would make of it, and Buf's runtime builds a
 * {@link FileRegistry} of them. A problem is `INVALID_PROTO` naming the file,
 * line and column.
 *
 * @module
 */
import { create, createFileRegistry, type FileRegistry, fromBinary } from '@bufbuild/protobuf';
import {
  type DescriptorProto,
  Edition,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  type FileDescriptorSet,
  FileDescriptorSetSchema,
} from '@bufbuild/protobuf/wkt';
import protobuf from 'protobufjs';
import type { MockpointError } from '../registry/errors.js';
import { enumOf, fieldOf, type Init, messageOf, serviceOf } from './descriptor-of.js';
import { checkParseWork } from './parse-work.js';
import { invalid, literal, placeOf, placeOn } from './proto-place.js';
import { checkProtocRules } from './protoc-rules.js';
import { wellKnownFile } from './well-known.js';

/** What one file's first parse tells: its imports and its syntax or edition. */
interface Parsed {
  imports: string[];
  syntax: string;
  /** `proto2`, `proto3`, `2023`, … */
  edition: string;
  package?: string;
}

/** The `syntax` or `edition` values known (protobufjs resolves features for them, Buf's runtime reads them). */
const KNOWN_EDITIONS = ['proto2', 'proto3', '2023', '2024'];

/**
 * The `syntax` or `edition` of a file protobufjs parsed into `root`: protobufjs keeps it on each
 * object the file declares (its parse result has none), plain namespaces saying `proto2`.
 */
function editionOf(ns: protobuf.NamespaceBase): string | undefined {
  for (const nested of ns.nestedArray) {
    const own = (nested as unknown as { _edition?: unknown })._edition;
    const declared =
      nested instanceof protobuf.Type || nested instanceof protobuf.Enum || nested instanceof protobuf.Service;
    if (declared && typeof own === 'string') return own;
    if (!declared && nested instanceof protobuf.Namespace) {
      const inner = editionOf(nested);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Parses `source` alone (imports unresolved), for its imports and syntax; throws `INVALID_PROTO` at the bad token. */
function parseAlone(file: string, source: string): Parsed {
  const root = new protobuf.Root();
  let parsed: protobuf.IParserResult;
  try {
    parsed = protobuf.parse(source, root, { keepCase: true });
  } catch (error) {
    throw parseFailure(file, source, error);
  }
  const edition = editionOf(root) ?? 'proto2';
  if (!KNOWN_EDITIONS.includes(edition)) {
    const place = placeOf(file, source, /\b(syntax|edition)\s*=/);
    throw invalid(place, `unknown syntax or edition "${edition}" (known: ${KNOWN_EDITIONS.join(', ')})`);
  }
  return {
    imports: [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])],
    syntax: edition === 'proto2' || edition === 'proto3' ? edition : 'editions',
    edition,
    package: parsed.package ?? undefined,
  };
}

/** protobufjs's parse error (`illegal token 'x' (file, line 4)`) as `INVALID_PROTO` at its token. */
function parseFailure(file: string, source: string, error: unknown): MockpointError {
  const message = error instanceof Error ? error.message : String(error);
  const line = /line (\d+)\)$/.exec(message);
  const token = /'([^']*)'/.exec(message)?.[1];
  const reason = message.replace(/\s*\([^)]*line \d+\)$/, '');
  return invalid(line === null ? { file } : placeOn(file, source, Number(line[1]), token), reason);
}

/** Checks every import of every file names a given file or a well-known type's. */
function checkImports(files: Record<string, string>, parsed: Map<string, Parsed>): void {
  for (const [file, { imports }] of parsed) {
    for (const target of imports) {
      if (Object.hasOwn(files, target) || wellKnownFile(target) !== undefined) continue;
      const place = placeOf(
        file,
        files[file] ?? '',
        new RegExp(`import\\s+(weak\\s+|public\\s+)?["']${literal(target)}["']`),
      );
      throw invalid(place, `the imported file "${target}" is neither one of the files given nor a well-known type`);
    }
  }
}

/** A resolution failure (`no such Type or Enum 'X' in Type .p.B`) placed where a file names `X`. */
function unresolved(files: Record<string, string>, error: unknown): MockpointError {
  const message = error instanceof Error ? error.message : String(error);
  // `no such Type or Enum 'X' in …` (a field's type), `no such type: X` (a method's).
  const name = /'([^']+)'/.exec(message)?.[1] ?? /no such type: (\S+)/.exec(message)?.[1];
  if (name !== undefined) {
    const use = new RegExp(`(^|[\\s(<,])${literal(name)}\\s*(>?\\s+\\w+\\s*=|\\))`, 'm');
    for (const [file, source] of Object.entries(files)) {
      const place = placeOf(file, source, use);
      if (place.line !== undefined) {
        const at = source.split('\n')[place.line - 1] ?? '';
        const column = at.indexOf(name, (place.column ?? 1) - 1);
        return invalid({ ...place, column: column + 1 }, message);
      }
    }
  }
  return invalid({ file: Object.keys(files)[0] ?? '' }, message);
}

/** The well-known files `parsed` import, with theirs, as protobufjs bundles them. */
function wellKnownImports(parsed: Map<string, Parsed>, files: Record<string, string>): string[] {
  const wanted: string[] = [];
  const add = (target: string) => {
    if (Object.hasOwn(files, target) || wanted.includes(target)) return;
    wanted.push(target);
    for (const dependency of wellKnownFile(target)?.proto.dependency ?? []) add(dependency);
  };
  for (const { imports } of parsed.values()) for (const target of imports) add(target);
  return wanted;
}

/**
 * Parses every file into one protobufjs root (the well-known types they import
 * from protobufjs's bundle) and resolves every type; a problem is
 * `INVALID_PROTO` placed in the file that has it.
 */
function loadRoot(files: Record<string, string>, parsed: Map<string, Parsed>): protobuf.Root {
  const root = new protobuf.Root();
  for (const name of wellKnownImports(parsed, files)) {
    const bundled = protobuf.common.get(name) as { nested?: Record<string, protobuf.AnyNestedObject> } | null;
    if (bundled?.nested !== undefined) root.addJSON(bundled.nested);
  }
  for (const [file, source] of Object.entries(files)) {
    // protobufjs names each object's file (`filename`) from this, set per parse.
    (protobuf.parse as unknown as { filename: string | null }).filename = file;
    try {
      protobuf.parse(source, root, { keepCase: true });
    } catch (error) {
      throw parseFailure(file, source, error);
    }
  }
  try {
    root.resolveAll();
  } catch (error) {
    throw unresolved(files, error);
  }
  return root;
}

/** protoc's JSON name of a field: `item_prices` → `itemPrices`. */
function jsonNameOf(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase());
}

/** Gives every field the JSON name protoc gives it (protobufjs leaves it empty when it equals the name). */
function setJsonNames(messages: readonly DescriptorProto[]): void {
  for (const message of messages) {
    for (const field of [...message.field, ...message.extension]) {
      if (field.jsonName === '') field.jsonName = jsonNameOf(field.name);
    }
    setJsonNames(message.nestedType);
  }
}

/** The `FileDescriptorProto` of `file`, built from the objects it declared in `root`. */
function fileProto(file: string, parsed: Parsed, root: protobuf.Root): FileDescriptorProto {
  const messageType: Init[] = [];
  const enumType: Init[] = [];
  const service: Init[] = [];
  const extension: Init[] = [];
  const syntax = parsed.syntax;
  const visit = (ns: protobuf.NamespaceBase) => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) {
        if (nested.filename === file) messageType.push(messageOf(nested, syntax));
      } else if (nested instanceof protobuf.Enum) {
        if (nested.filename === file) enumType.push(enumOf(nested));
      } else if (nested instanceof protobuf.Service) {
        if (nested.filename === file) service.push(serviceOf(nested));
      } else if (nested instanceof protobuf.Field) {
        // A top-level `extend`: the file's own extension, as protoc describes it.
        if (nested.filename === file && nested.extend !== undefined) extension.push(fieldOf(nested, syntax));
      } else if (nested instanceof protobuf.Namespace) {
        visit(nested);
      }
    }
  };
  visit(root);
  const proto = create(FileDescriptorProtoSchema, {
    name: file,
    package: parsed.package,
    dependency: parsed.imports,
    messageType,
    enumType,
    service,
    extension,
    ...(syntax === 'proto2' ? {} : { syntax }),
    ...(syntax === 'editions'
      ? { edition: parsed.edition === '2024' ? Edition.EDITION_2024 : Edition.EDITION_2023 }
      : {}),
  } as never);
  setJsonNames(proto.messageType);
  return proto;
}

/**
 * The `FileDescriptorSet` of `files` (their own files, not the well-known ones
 * they import), as protoc would make it; throws `INVALID_PROTO`. This is the
 * costly part (protobufjs's parse): the daemon runs it in a worker thread
 * (proto-compiler.ts).
 */
export function describeProtos(files: Record<string, string>): FileDescriptorSet {
  if (Object.keys(files).length === 0) throw invalid({ file: '(none)' }, 'no .proto file given');
  checkParseWork(files);
  const parsed = new Map<string, Parsed>();
  for (const [file, source] of Object.entries(files)) parsed.set(file, parseAlone(file, source));
  checkImports(files, parsed);
  const root = loadRoot(files, parsed);
  const set = create(FileDescriptorSetSchema, {
    file: [...parsed].map(([file, info]) => fileProto(file, info, root)),
  });
  checkProtocRules(set, files);
  return set;
}

/** The registry of `files` and the well-known types they import, on this thread; throws `INVALID_PROTO`. */
export async function compileProtos(files: Record<string, string>): Promise<FileRegistry> {
  return registryOf(describeProtos(files), files);
}

/** The registry of a set {@link describeProtos} made of `files` (in binary, from a worker thread). */
export function registryOfDescribed(bytes: Uint8Array, files: Record<string, string>): FileRegistry {
  return registryOf(fromBinary(FileDescriptorSetSchema, bytes), files);
}

/**
 * The registry of a descriptor set, with the well-known types it imports and
 * does not hold; throws `INVALID_PROTO` naming the first file Buf's runtime refuses.
 */
export function registryOf(set: FileDescriptorSet, files?: Record<string, string>): FileRegistry {
  const held = new Set(set.file.map((file) => file.name));
  const wanted = new Set<string>();
  const addWellKnown = (name: string) => {
    const known = wellKnownFile(name);
    if (known === undefined || held.has(name) || wanted.has(name)) return;
    wanted.add(name);
    for (const dependency of known.proto.dependency) addWellKnown(dependency);
  };
  for (const file of set.file) for (const dependency of file.dependency) addWellKnown(dependency);
  const all = create(FileDescriptorSetSchema, {
    file: [...[...wanted].map((name) => wellKnownFile(name)?.proto as FileDescriptorProto), ...set.file],
  });
  try {
    return createFileRegistry(all);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const file = set.file.find((f) => message.includes(f.name))?.name ?? set.file[0]?.name ?? '(none)';
    const source = files?.[file];
    const name = /"([^"]+)"/.exec(message)?.[1]?.split('.').at(-1);
    const place =
      source !== undefined && name !== undefined
        ? placeOf(file, source, new RegExp(`\\b${literal(name)}\\b`))
        : { file };
    throw invalid(place, message);
  }
}

/** The registry of a binary `FileDescriptorSet` (as `protoc -o` / `buf build -o` write); throws `INVALID_PROTO`. */
export function compileDescriptorSet(bytes: Uint8Array): FileRegistry {
  let set: FileDescriptorSet;
  try {
    set = fromBinary(FileDescriptorSetSchema, bytes);
  } catch (error) {
    throw invalid(
      { file: 'descriptorSet' },
      `not a FileDescriptorSet: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (set.file.length === 0) throw invalid({ file: 'descriptorSet' }, 'the set holds no file');
  checkProtocRules(set);
  return registryOf(set);
}
