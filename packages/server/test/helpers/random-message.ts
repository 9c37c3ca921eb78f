/**
 * For the gRPC fuzz: a message type with a field of every kind (built here as
 * protoc would describe it, independent of mockpoint's compiler) and seeded
 * random, well-formed messages of any type, through Buf's reflection.
 */
import {
  create,
  createFileRegistry,
  type DescField,
  type DescMessage,
  type FileRegistry,
  type Message,
  ScalarType,
} from '@bufbuild/protobuf';
import {
  FileDescriptorProtoSchema,
  file_google_protobuf_timestamp,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from '@bufbuild/protobuf/wkt';
import { randomText } from '@mockpoint/testkit/random-text';

function field(name: string, number: number, type: Type, extra: Record<string, unknown> = {}) {
  return {
    name,
    number,
    type,
    label: Label.OPTIONAL,
    jsonName: name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
    ...extra,
  };
}

const REPEATED = { label: Label.REPEATED };

/** `fuzz/v1/kinds.proto`: `fuzz.v1.Kinds` with `Echo(Everything) returns (Everything)` and `Count(Small) returns (Small)`. */
export const KINDS_FILE = create(FileDescriptorProtoSchema, {
  name: 'fuzz/v1/kinds.proto',
  package: 'fuzz.v1',
  syntax: 'proto3',
  dependency: ['google/protobuf/timestamp.proto'],
  enumType: [
    {
      name: 'Color',
      value: [
        { name: 'COLOR_UNSPECIFIED', number: 0 },
        { name: 'COLOR_RED', number: 1 },
      ],
    },
  ],
  messageType: [
    {
      name: 'Everything',
      field: [
        field('text', 1, Type.STRING),
        field('i32', 2, Type.INT32),
        field('i64', 3, Type.INT64),
        field('u64', 4, Type.UINT64),
        field('s32', 5, Type.SINT32),
        field('f64', 6, Type.FIXED64),
        field('dbl', 7, Type.DOUBLE),
        field('flt', 8, Type.FLOAT),
        field('flag', 9, Type.BOOL),
        field('raw', 10, Type.BYTES),
        field('color', 11, Type.ENUM, { typeName: '.fuzz.v1.Color' }),
        field('tags', 12, Type.STRING, REPEATED),
        field('counts', 13, Type.MESSAGE, { ...REPEATED, typeName: '.fuzz.v1.Everything.CountsEntry' }),
        field('child', 14, Type.MESSAGE, { typeName: '.fuzz.v1.Everything' }),
        field('name', 15, Type.STRING, { oneofIndex: 0 }),
        field('small', 16, Type.MESSAGE, { oneofIndex: 0, typeName: '.fuzz.v1.Small' }),
        field('at', 17, Type.MESSAGE, { typeName: '.google.protobuf.Timestamp' }),
        field('nums', 18, Type.SINT64, REPEATED),
      ],
      oneofDecl: [{ name: 'pick' }],
      nestedType: [
        {
          name: 'CountsEntry',
          field: [field('key', 1, Type.STRING), field('value', 2, Type.INT64)],
          options: { mapEntry: true },
        },
      ],
    },
    { name: 'Small', field: [field('n', 1, Type.UINT32)] },
  ],
  service: [
    {
      name: 'Kinds',
      method: [
        { name: 'Echo', inputType: '.fuzz.v1.Everything', outputType: '.fuzz.v1.Everything' },
        { name: 'Count', inputType: '.fuzz.v1.Small', outputType: '.fuzz.v1.Small' },
      ],
    },
  ],
});

export const KINDS_REGISTRY: FileRegistry = createFileRegistry(KINDS_FILE, (name) =>
  name === 'google/protobuf/timestamp.proto' ? file_google_protobuf_timestamp : undefined,
);

/** `text` with each lone surrogate (no UTF-8 form, so no protobuf string) made U+FFFD. */
export const wellFormed = (text: string): string =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const int = (random: () => number, bits: number) =>
  Math.floor(random() * 2 ** bits) - (bits > 31 ? 0 : 2 ** (bits - 1));

/** A random value of a scalar type, at its edges now and then. */
function scalar(type: ScalarType, random: () => number): unknown {
  const edge = random() < 0.2;
  switch (type) {
    case ScalarType.STRING:
      return wellFormed(randomText(random, Math.floor(random() * 20)));
    case ScalarType.BOOL:
      return random() < 0.5;
    case ScalarType.BYTES:
      return Uint8Array.from({ length: Math.floor(random() * 12) }, () => Math.floor(random() * 256));
    case ScalarType.DOUBLE:
      return edge ? [Number.MAX_VALUE, -0, Number.MIN_VALUE][Math.floor(random() * 3)] : (random() - 0.5) * 1e6;
    case ScalarType.FLOAT:
      return Math.fround((random() - 0.5) * 1e4);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return edge ? -(2n ** 63n) : BigInt(int(random, 53)) - 2n ** 52n;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return edge ? 2n ** 64n - 1n : BigInt(int(random, 53));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return edge ? 2 ** 32 - 1 : int(random, 32);
    default:
      return edge ? -(2 ** 31) : int(random, 31);
  }
}

function value(field: DescField, random: () => number, depth: number): unknown {
  if (field.fieldKind === 'scalar') return scalar(field.scalar, random);
  if (field.fieldKind === 'enum') return field.enum.values[Math.floor(random() * field.enum.values.length)]?.number;
  if (field.fieldKind === 'message') return depth < 3 ? randomMessage(field.message, random, depth + 1) : undefined;
  if (field.fieldKind === 'list') {
    const length = Math.floor(random() * 4);
    return Array.from({ length }, () =>
      field.listKind === 'scalar'
        ? scalar(field.scalar, random)
        : field.listKind === 'enum'
          ? 0
          : create(field.message as DescMessage),
    );
  }
  const entries: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 3); i > 0; i--) {
    entries[wellFormed(randomText(random, 1 + Math.floor(random() * 6)))] =
      field.mapKind === 'scalar' ? scalar(field.scalar, random) : undefined;
  }
  return entries;
}

/** A random, well-formed message of `schema`: each field set with probability ½, one member of each oneof. */
export function randomMessage(schema: DescMessage, random: () => number, depth = 0): Message {
  const init: Record<string, unknown> = {};
  for (const member of schema.members) {
    if (random() < 0.5) continue;
    if (member.kind === 'oneof') {
      const chosen = member.fields[Math.floor(random() * member.fields.length)] as DescField;
      const chosenValue = value(chosen, random, depth);
      if (chosenValue !== undefined) init[member.localName] = { case: chosen.localName, value: chosenValue };
    } else {
      const made = value(member, random, depth);
      if (made !== undefined) init[member.localName] = made;
    }
  }
  return create(schema, init as never);
}
