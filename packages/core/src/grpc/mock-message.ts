/**
 * Schema mode's answer: a deterministic message of a method's output type, in
 * proto3 JSON, drawn from a generator seeded by the method and the request
 * (the same request, the same answer), like GraphQL's schema mode. Lists and
 * maps have two entries; of a oneof, the first member is set; messages nest
 * four deep at most (a recursive type ends there); the well-known types take
 * their JSON forms. The whole message holds at most {@link MAX_MESSAGE_VALUES}
 * values, like GraphQL's schema-mode answer: a type of many message fields
 * (each list of them doubling) would otherwise grow as breadth to the fourth;
 * and about {@link MAX_MESSAGE_CHARS} characters of JSON, counted as it is made
 * (each field's name and value): long field names bound no values but make
 * bytes (a 12 KB .proto made 196 MB). Past either bound,
 * {@link MessageTooLarge} is thrown, having made no more.
 *
 * @module
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import type { SeededRandom } from '../random/seeded-random.js';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
/** 2020-01-01T00:00:00Z: mock times fall in the five years after it. */
const EPOCH = Date.UTC(2020, 0, 1);
const FIVE_YEARS = 5 * 365 * 24 * 3600 * 1000;
/** Messages nest at most this deep. */
const MAX_DEPTH = 4;
const LIST_LENGTH = 2;

/** The most values (scalars, enums, messages, list items, map entries) one schema-mode message may hold. */
const MAX_MESSAGE_VALUES = 100_000;

/** About the most characters of proto3 JSON one schema-mode message may hold (4 MiB). */
export const MAX_MESSAGE_CHARS = 1 << 22;

/** Thrown when a message would hold more than its bound of values (or of characters: `chars`). */
export class MessageTooLarge extends Error {
  constructor(
    readonly typeName: string,
    readonly limit: number,
    readonly chars?: number,
  ) {
    super(
      chars === undefined
        ? `schema mode's message of ${typeName} would hold more than ${limit} values (each list and map has 2 entries and messages nest 4 deep, so every message field multiplies them); answer this method with a route, or give the type fewer message fields`
        : `schema mode's message of ${typeName} would be more than ${chars} characters of JSON (its field names are long, and lists, maps and nested messages repeat them); answer this method with a route, or give the type shorter names or fewer message fields`,
    );
  }
}

/** What one message may still make: values and characters left, and the type it was asked for (named when it is over). */
interface Budget {
  left: number;
  chars: number;
  readonly typeName: string;
  readonly limit: number;
  readonly charLimit: number;
}

/** Counts one value of about `chars` characters against `budget`; throws {@link MessageTooLarge} past it. */
function spend(budget: Budget, chars = 0): void {
  if (--budget.left < 0) throw new MessageTooLarge(budget.typeName, budget.limit);
  spendChars(budget, chars);
}

/** Counts `chars` characters (a name, a key) against `budget`; throws {@link MessageTooLarge} past it. */
function spendChars(budget: Budget, chars: number): void {
  budget.chars -= chars;
  if (budget.chars < 0) throw new MessageTooLarge(budget.typeName, budget.limit, budget.charLimit);
}

function scalar(type: ScalarType, random: SeededRandom): unknown {
  switch (type) {
    case ScalarType.STRING:
      return `${random.pick(WORDS)} ${random.pick(WORDS)}`;
    case ScalarType.BOOL:
      return random.next() < 0.5;
    case ScalarType.BYTES:
      return btoa(String.fromCharCode(...Array.from({ length: 6 }, () => random.int(0, 255))));
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return random.int(0, 100_000) / 100;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
    case ScalarType.SINT64:
      // proto3 JSON writes 64-bit integers as strings.
      return String(random.int(0, 1000));
    default:
      return random.int(0, 1000);
  }
}

/** The JSON form of a well-known type, or `undefined` for any other message. */
function wellKnown(message: DescMessage, random: SeededRandom): unknown {
  switch (message.typeName) {
    case 'google.protobuf.Timestamp':
      return `${new Date(EPOCH + random.int(0, FIVE_YEARS / 1000) * 1000).toISOString().slice(0, 19)}Z`;
    case 'google.protobuf.Duration':
      return `${random.int(1, 3600)}s`;
    case 'google.protobuf.Empty':
      return {};
    case 'google.protobuf.FieldMask':
      return random.pick(WORDS);
    case 'google.protobuf.Struct':
      return { [random.pick(WORDS)]: random.pick(WORDS) };
    case 'google.protobuf.Value':
      return random.pick(WORDS);
    case 'google.protobuf.ListValue':
      return [random.pick(WORDS), random.pick(WORDS)];
    case 'google.protobuf.Any':
      return {};
    case 'google.protobuf.StringValue':
    case 'google.protobuf.BytesValue':
    case 'google.protobuf.BoolValue':
    case 'google.protobuf.DoubleValue':
    case 'google.protobuf.FloatValue':
    case 'google.protobuf.Int64Value':
    case 'google.protobuf.UInt64Value':
    case 'google.protobuf.Int32Value':
    case 'google.protobuf.UInt32Value': {
      const value = message.fields[0];
      return value?.fieldKind === 'scalar' ? scalar(value.scalar, random) : undefined;
    }
    default:
      return undefined;
  }
}

function enumValue(field: { enum: { values: readonly { name: string; number: number }[] } }, random: SeededRandom) {
  const values = field.enum.values;
  // The zero value is "unspecified" by convention: pick among the others when there are any.
  const named = values.length > 1 ? values.filter((value) => value.number !== 0) : values;
  return random.pick(named)?.name;
}

function messageValue(message: DescMessage, random: SeededRandom, depth: number, budget: Budget): unknown {
  spend(budget);
  const known = wellKnown(message, random);
  if (known !== undefined) return known;
  if (depth >= MAX_DEPTH) return undefined;
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    // Of a oneof, only its first member is set.
    if (field.oneof !== undefined && field.oneof.fields[0] !== field) continue;
    // Its name and quotes, before its value is made.
    spendChars(budget, field.jsonName.length + 4);
    const value = fieldValue(field, random, depth, budget);
    if (value !== undefined) out[field.jsonName] = value;
  }
  return out;
}

/** The longest value name of each enum, measured once. */
const ENUM_CHARS = new WeakMap<object, number>();

/** About the characters of a scalar or enum value of `field`'s kind: its longest enum name, or 32. */
function valueChars(field: { enum?: { values: readonly { name: string }[] } | undefined }): number {
  const described = field.enum;
  if (described === undefined) return 32;
  let longest = ENUM_CHARS.get(described);
  if (longest === undefined) {
    longest = 0;
    for (const value of described.values) longest = Math.max(longest, value.name.length);
    ENUM_CHARS.set(described, longest);
  }
  return longest + 2;
}

function single(field: DescField, random: SeededRandom, depth: number, budget: Budget): unknown {
  if (field.fieldKind !== 'message') spend(budget, field.fieldKind === 'enum' ? valueChars(field) : 32);
  switch (field.fieldKind) {
    case 'scalar':
      return scalar(field.scalar, random);
    case 'enum':
      return enumValue(field, random);
    case 'message':
      return messageValue(field.message, random, depth + 1, budget);
    default:
      return undefined;
  }
}

/** What a list's item or a map's value is: exactly one of a scalar type, an enum or a message. */
type Element =
  | { readonly scalar: ScalarType; readonly enum: undefined; readonly message: undefined }
  | { readonly scalar: undefined; readonly enum: DescEnum; readonly message: undefined }
  | { readonly scalar: undefined; readonly enum: undefined; readonly message: DescMessage };

/** A list's item or a map's value, one level deeper than its field. */
function elementValue(element: Element, random: SeededRandom, depth: number, budget: Budget): unknown {
  if (element.scalar !== undefined) return scalar(element.scalar, random);
  if (element.enum !== undefined) return enumValue(element, random);
  return messageValue(element.message, random, depth + 1, budget);
}

function fieldValue(field: DescField, random: SeededRandom, depth: number, budget: Budget): unknown {
  if (field.fieldKind === 'list') {
    spend(budget);
    const items: unknown[] = [];
    for (let i = 0; i < LIST_LENGTH; i++) {
      if (field.listKind !== 'message') spend(budget, field.listKind === 'enum' ? valueChars(field) : 32);
      const item = elementValue(field, random, depth, budget);
      if (item !== undefined) items.push(item);
    }
    return items;
  }
  if (field.fieldKind === 'map') {
    spend(budget);
    const entries: Record<string, unknown> = {};
    for (let i = 0; i < LIST_LENGTH; i++) {
      // Its key (a string or number) and, unless a message, its value.
      if (field.mapKind !== 'message') spend(budget, 34 + (field.mapKind === 'enum' ? valueChars(field) : 32));
      else spendChars(budget, 34);
      const key = field.mapKey === ScalarType.BOOL ? String(i === 0) : String(scalar(field.mapKey, random));
      const value = elementValue(field, random, depth, budget);
      if (value !== undefined) entries[key] = value;
    }
    return entries;
  }
  return single(field, random, depth, budget);
}

/**
 * A message of type `message` in proto3 JSON, drawn from `random` (seeded by
 * the caller); throws {@link MessageTooLarge} when it would hold more than `limit` values.
 */
export function mockMessageJson(
  message: DescMessage,
  random: SeededRandom,
  limit: number = MAX_MESSAGE_VALUES,
  charLimit: number = MAX_MESSAGE_CHARS,
): unknown {
  const budget = { left: limit, chars: charLimit, typeName: message.typeName, limit, charLimit };
  return messageValue(message, random, 0, budget) ?? {};
}
