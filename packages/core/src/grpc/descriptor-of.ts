/**
 * protobufjs's reflection objects (a parsed, resolved `.proto`) as the init
 * objects of Buf's descriptor messages (`DescriptorProto`, …), the way protoc
 * describes them: full type names, map entries named `…Entry`, options as
 * their descriptor messages. What protobufjs's own `ext/descriptor` does, minus
 * its generated code: that extension builds each descriptor message with a
 * function compiled from a string (`new Function`), which workerd (Cloudflare
 * Workers) refuses, so `.proto` sources could not be put there. Here only plain
 * objects are made; Buf's `create` (no code generation) makes the messages.
 *
 * @module
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import {
  EnumOptionsSchema,
  EnumValueOptionsSchema,
  FieldOptionsSchema,
  MessageOptionsSchema,
  MethodOptionsSchema,
  OneofOptionsSchema,
  ServiceOptionsSchema,
} from '@bufbuild/protobuf/wkt';
import protobuf from 'protobufjs';

/** A descriptor message's init object. */
export type Init = Record<string, unknown>;

const SCALAR_TYPES: Record<string, number> = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
};

/** `FieldDescriptorProto.Type` of a field's type. */
function typeNumber(type: string, resolved: protobuf.ReflectionObject | null, delimited: boolean): number {
  const scalar = SCALAR_TYPES[type];
  if (scalar !== undefined) return scalar;
  if (resolved instanceof protobuf.Enum) return 14;
  if (resolved instanceof protobuf.Type) return delimited ? 10 : 11;
  throw new Error(`illegal type: ${type}`);
}

const camelCase = (key: string) => key.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase());

/**
 * protobufjs's options of an object (`{ deprecated: true, "(my.opt)": 1 }`) as
 * the init of `schema` (`FieldOptions`, …): known options by their camel-case
 * name, enum values by name or number, nested messages; others left out (as
 * protobufjs's extension does).
 */
function optionsOf(options: Record<string, unknown> | undefined, schema: DescMessage): Init | undefined {
  if (options === undefined) return undefined;
  const out: Init = {};
  for (const [key, value] of Object.entries(options)) {
    const field = schema.fields.find((f: DescField) => f.localName === camelCase(key));
    if (field === undefined || value === undefined) continue;
    out[field.localName] = optionValue(field, value);
  }
  return out;
}

function optionValue(field: DescField, value: unknown): unknown {
  if (field.fieldKind === 'list' && !Array.isArray(value)) return optionValue(field, [value]);
  if (Array.isArray(value))
    return value.map((item) => optionValue({ ...field, fieldKind: 'scalar' } as DescField, item));
  const enumType = field.enum;
  if (enumType !== undefined && typeof value === 'string') {
    return enumType.values.find((v) => v.name === value)?.number ?? 0;
  }
  const message = field.message;
  if (message !== undefined && typeof value === 'object' && value !== null) {
    return optionsOf(value as Record<string, unknown>, message);
  }
  return value;
}

/** The map entry's name as protoc makes it: `map<…> item_counts` → `ItemCountsEntry`. */
export function entryName(field: string): string {
  const camel = camelCase(field);
  return `${camel.charAt(0).toUpperCase()}${camel.slice(1)}Entry`;
}

type Syntax = string;

/** A field (or an extension declared in a message or a file) as `FieldDescriptorProto`. */
export function fieldOf(field: protobuf.Field, syntax: Syntax): Init {
  const name = (field as { protoName?: string }).protoName ?? field.name;
  const out: Init = { name, number: field.id };
  const jsonName = (field as { jsonName?: string }).jsonName;
  if (jsonName !== undefined && jsonName !== name) out.jsonName = jsonName;
  if (field instanceof protobuf.MapField) {
    out.type = 11;
    out.typeName = `${field.parent?.fullName}.${entryName(field.name)}`;
    out.label = 3;
  } else {
    const delimited = (field as { delimited?: boolean }).delimited === true;
    out.type = typeNumber(field.type, field.resolve().resolvedType, delimited);
    if (field.resolvedType !== null) out.typeName = field.resolvedType.fullName;
    out.label = field.repeated ? 3 : field.required && syntax === 'proto2' ? 2 : 1;
  }
  if (field.extensionField !== null) {
    out.extendee = field.extensionField.parent?.fullName;
  } else if (field.extend !== undefined) {
    out.extendee = (field.parent as protobuf.Namespace | null)?.lookup(field.extend)?.fullName ?? field.extend;
  }
  if (field.partOf !== null && field.parent instanceof protobuf.Type) {
    out.oneofIndex = field.parent.oneofsArray.indexOf(field.partOf);
  }
  const options = field.options as Record<string, unknown> | undefined;
  if (options !== undefined) {
    out.options = optionsOf(options, FieldOptionsSchema);
    if (options.default !== undefined && options.default !== null) out.defaultValue = String(options.default);
    if (options.proto3_optional === true) out.proto3Optional = true;
  }
  const packed = (packing: boolean) => {
    out.options = { ...(out.options as Init | undefined), packed: packing };
  };
  if (syntax === 'proto3' && !field.packed) packed(false);
  else if (syntax === 'proto2' && field.packed) packed(true);
  return out;
}

/** A map field's entry message, as protoc synthesises it. */
function mapEntryOf(field: protobuf.MapField): Init {
  const value = typeNumber(field.type, field.resolvedType, false);
  return {
    name: entryName(field.name),
    field: [
      { name: 'key', jsonName: 'key', number: 1, label: 1, type: typeNumber(field.keyType, null, false) },
      {
        name: 'value',
        jsonName: 'value',
        number: 2,
        label: 1,
        type: value,
        ...(field.resolvedType === null ? {} : { typeName: field.resolvedType.fullName }),
      },
    ],
    options: { mapEntry: true },
  };
}

/** `[start, end]` (inclusive, as protobufjs keeps them) as a descriptor's `{ start, end }` (exclusive end). */
const rangeOf = ([start, end]: number[], exclusive = true) => ({
  start,
  end: exclusive ? (end as number) + 1 : end,
});

/** A message type as `DescriptorProto`. */
export function messageOf(type: protobuf.Type, syntax: Syntax): Init {
  const field: Init[] = [];
  const nestedType: Init[] = [];
  const enumType: Init[] = [];
  const extension: Init[] = [];
  for (const member of type.fieldsArray) {
    // protobufjs adds to an extended message a copy of each extension of it, named by the
    // extension's full name (`.shop.note`); protoc keeps extensions where they are declared.
    if (member.name.startsWith('.')) continue;
    field.push(fieldOf(member, syntax));
    if (member instanceof protobuf.MapField) nestedType.push(mapEntryOf(member));
  }
  for (const nested of type.nestedArray) {
    if (nested instanceof protobuf.Field) extension.push(fieldOf(nested, syntax));
    else if (nested instanceof protobuf.Type) nestedType.push(messageOf(nested, syntax));
    else if (nested instanceof protobuf.Enum) enumType.push(enumOf(nested));
  }
  const reserved = type.reserved ?? [];
  return {
    name: type.name,
    field,
    extension,
    nestedType,
    enumType,
    oneofDecl: type.oneofsArray.map((oneof) => ({
      name: oneof.name,
      options: optionsOf(oneof.options, OneofOptionsSchema),
    })),
    extensionRange: (type.extensions ?? []).map((range) => rangeOf(range)),
    reservedRange: reserved.filter((r): r is number[] => typeof r !== 'string').map((range) => rangeOf(range)),
    reservedName: reserved.filter((r): r is string => typeof r === 'string'),
    options: optionsOf(type.options, MessageOptionsSchema),
  };
}

/** An enum as `EnumDescriptorProto`. */
export function enumOf(type: protobuf.Enum): Init {
  const reserved = type.reserved ?? [];
  const valuesOptions = (type as { valuesOptions?: Record<string, Record<string, unknown>> }).valuesOptions;
  return {
    name: type.name,
    value: Object.entries(type.values).map(([name, number]) => ({
      name,
      number,
      options: optionsOf(valuesOptions?.[name], EnumValueOptionsSchema),
    })),
    reservedRange: reserved.filter((r): r is number[] => typeof r !== 'string').map((range) => rangeOf(range, false)),
    reservedName: reserved.filter((r): r is string => typeof r === 'string'),
    options: optionsOf(type.options, EnumOptionsSchema),
  };
}

/** A service as `ServiceDescriptorProto`. */
export function serviceOf(service: protobuf.Service): Init {
  return {
    name: service.name,
    method: service.methodsArray.map((method) => ({
      name: method.name,
      inputType: method.resolvedRequestType?.fullName ?? method.requestType,
      outputType: method.resolvedResponseType?.fullName ?? method.responseType,
      // Set only when streaming, as protoc leaves them (they have presence).
      ...(method.requestStream === true ? { clientStreaming: true } : {}),
      ...(method.responseStream === true ? { serverStreaming: true } : {}),
      options: optionsOf(method.options, MethodOptionsSchema),
    })),
    options: optionsOf(service.options, ServiceOptionsSchema),
  };
}
