/**
 * What protoc refuses that protobufjs and Buf's runtime accept: a field number
 * outside 1–536,870,911 (2^29 − 1) or in 19,000–19,999 (kept for the protobuf
 * implementation), and a user's file at the path of a well-known type
 * (`google/protobuf/timestamp.proto`), which would replace Google's type for
 * every file that imports it. Each is `INVALID_PROTO`, naming the field or file.
 *
 * @module
 */
import type { DescriptorProto, FieldDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { invalid, literal, placeOf } from './proto-place.js';
import { wellKnownFile } from './well-known.js';

/** The largest field number protoc accepts. */
const MAX_FIELD_NUMBER = 536_870_911;
/** The field numbers kept for the protobuf implementation. */
const RESERVED_FIRST = 19_000;
const RESERVED_LAST = 19_999;

/** Why `number` is no field number protoc accepts, or `undefined` when it is one. */
function numberProblem(number: number): string | undefined {
  if (!Number.isInteger(number) || number < 1 || number > MAX_FIELD_NUMBER) {
    return `field numbers are 1 to ${MAX_FIELD_NUMBER}`;
  }
  if (number >= RESERVED_FIRST && number <= RESERVED_LAST) {
    return `field numbers ${RESERVED_FIRST} to ${RESERVED_LAST} are reserved for the protobuf implementation`;
  }
  return undefined;
}

/** The first field of `messages` (nested ones too) with a number protoc refuses, with the message's full name. */
function badField(
  messages: readonly DescriptorProto[],
  scope: string,
): { field: FieldDescriptorProto; owner: string; why: string } | undefined {
  for (const message of messages) {
    const owner = scope === '' ? message.name : `${scope}.${message.name}`;
    for (const field of [...message.field, ...message.extension]) {
      const why = numberProblem(field.number);
      if (why !== undefined) return { field, owner, why };
    }
    const nested = badField(message.nestedType, owner);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/**
 * Checks the user's files of `set` as protoc would (see the module); `files`:
 * their sources, when given as sources, to place the problem. Throws `INVALID_PROTO`.
 */
export function checkProtocRules(set: FileDescriptorSet, files?: Record<string, string>): void {
  for (const file of set.file) {
    const source = files?.[file.name];
    if (source !== undefined && wellKnownFile(file.name) !== undefined) {
      throw invalid(
        { file: file.name },
        `"${file.name}" is the path of a well-known type, which every import of it gets from Google's own file; give your file another path`,
      );
    }
    const top = file.extension
      .map((field) => ({ field, owner: file.package, why: numberProblem(field.number) }))
      .find((bad) => bad.why !== undefined);
    const bad = top ?? badField(file.messageType, file.package);
    if (bad?.why === undefined) continue;
    const { field, owner, why } = bad;
    const place =
      source === undefined
        ? { file: file.name }
        : placeOf(file.name, source, new RegExp(`\\b${literal(field.name)}\\s*=`));
    throw invalid(place, `field "${field.name}" of ${owner || '(no package)'} has number ${field.number}; ${why}`);
  }
}
