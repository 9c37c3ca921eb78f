/**
 * A request value held to what its schema in the document states (twin-body.ts reads the request
 * and calls it on every value, at every depth): `enum`, `pattern` (by RE2, linear time),
 * `minLength`, `minimum` / `maximum` (and their exclusive forms), the `date-time`, `date`, `uri`
 * and `email` formats, and `type` (a boolean that is neither `true` nor `false`, an object or a
 * list where a string, number or boolean is, and the other way round); an enum the provider keeps
 * adding to is open (twin-open-enums.ts). `maxLength` is twin-body's
 * (`TooLong`). A value past one is an {@link InvalidValue}: Stripe's `400
 * invalid_request_error` naming the parameter, or the provider's own form
 * ({@link TwinFlows.invalidValue}: GitHub's `422 Validation Failed`, `code: invalid`).
 * ({@link InvalidValue} is twin-problems.ts's.)
 *
 * @module
 */
import { compilePattern } from '../pattern/schema-pattern.js';
import type { Schema } from './twin-example.js';
import { OPEN_ENUM } from './twin-open-enums.js';
import { InvalidValue } from './twin-problems.js';

/** A value as a message shows it: at most 40 characters of it. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 20)}...${text.slice(-10)}` : text;
}

/** An enum's values as Stripe lists them (`a, b, or c`), the first 20. */
function listed(values: readonly unknown[]): string {
  const names = values.slice(0, 20).map(String);
  if (values.length > 20) names.push('…');
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')}, or ${names.at(-1)}`;
}

/** Compiled patterns by source: a document states each a few times. */
const patterns = new Map<string, ReturnType<typeof compilePattern>>();

function patternOf(source: string): ReturnType<typeof compilePattern> {
  let compiled = patterns.get(source);
  if (compiled === undefined) {
    compiled = compilePattern(source);
    if (patterns.size < 1000) patterns.set(source, compiled);
  }
  return compiled;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,255}$/;

/** Whether `value` is in the `format` (a format not listed here is an annotation: any value is). */
function inFormat(format: string, value: string): boolean {
  switch (format) {
    case 'date':
      return DATE.test(value) && !Number.isNaN(Date.parse(value));
    case 'date-time':
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value.replace(' ', 'T')));
    case 'email':
      return EMAIL.test(value);
    case 'uri':
      return URL.canParse(value) && /^[a-z][a-z0-9+.-]*:/i.test(value);
    default:
      return true;
  }
}

/** The JSON types a schema names (`type: ["string", "null"]` too); empty: any. */
function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.map(String) : [];
}

/** A value's JSON type (an integer is also a number). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

/** Stripe's refusal of a value of the wrong type (`Invalid boolean: maybe`, `Invalid object`). */
export function wrongType(types: string[], value: unknown, at: string): InvalidValue {
  const want = types.find((type) => type !== 'null') ?? 'value';
  const message =
    want === 'object' || want === 'array' ? `Invalid ${want}` : `Invalid ${want}: ${shown(value).slice(0, 40)}`;
  return new InvalidValue(message, at, 'type');
}

/** Whether `value`'s JSON type is one of `types` (an integer where a number is asked). */
function typeFits(types: string[], value: unknown): boolean {
  const kind = kindOf(value);
  if (kind === 'null' || types.length === 0 || types.includes(kind)) return true;
  return kind === 'number' && types.includes('integer') && Number.isInteger(value);
}

/** Refuses a string its schema's `enum`, `minLength`, `pattern` or `format` refuses. */
function checkString(schema: Schema, value: string, at: string): void {
  const min = schema.minLength;
  if (typeof min === 'number' && value.length < min) {
    throw new InvalidValue(`Invalid string: ${shown(value)}; must be at least ${min} characters`, at, 'minLength');
  }
  if (typeof schema.pattern === 'string') {
    const pattern = patternOf(schema.pattern);
    // A pattern RE2 cannot run is the document's problem, not the request's: not asserted.
    if (typeof pattern !== 'string' && !pattern.test(value)) {
      throw new InvalidValue(
        `Invalid ${at}: ${shown(value)} does not match ${schema.pattern.slice(0, 100)}`,
        at,
        'pattern',
      );
    }
  }
  if (typeof schema.format === 'string' && !inFormat(schema.format, value)) {
    throw new InvalidValue(`Invalid ${at}: ${shown(value)} is not a valid ${schema.format}`, at, 'format');
  }
}

/** Refuses a number past its schema's `minimum` / `maximum` (or their exclusive forms). */
function checkNumber(schema: Schema, value: number, at: string): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<string, unknown>;
  const low = typeof minimum === 'number' && value < minimum ? `greater than or equal to ${minimum}` : undefined;
  const high = typeof maximum === 'number' && value > maximum ? `less than or equal to ${maximum}` : undefined;
  const lowEx =
    typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum ? `greater than ${exclusiveMinimum}` : undefined;
  const highEx =
    typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum ? `less than ${exclusiveMaximum}` : undefined;
  const broken = low ?? high ?? lowEx ?? highEx;
  if (broken !== undefined) {
    const keyword = low !== undefined || lowEx !== undefined ? 'minimum' : 'maximum';
    throw new InvalidValue(`Invalid ${at}: must be ${broken}`, at, keyword);
  }
}

/**
 * Refuses `value` (already typed by twin-body) that its resolved `schema` refuses, naming the
 * parameter `at`. `null` is left to the provider's flows (a field cleared), and so is a form's
 * empty string (Stripe reads it as "unset").
 */
export function checkValue(schema: Schema, value: unknown, at: string, form: boolean): void {
  if (value === null || value === undefined || (form && value === '')) return;
  const types = typesOf(schema);
  if (!typeFits(types, value)) throw wrongType(types, value, at);
  // An open enum (twin-open-enums.ts) lists the values of the document's day: the provider takes more.
  if (Array.isArray(schema.enum) && schema[OPEN_ENUM] !== true && (typeof value !== 'object' || value === null)) {
    if (!schema.enum.includes(value)) {
      throw new InvalidValue(`Invalid ${at}: must be one of ${listed(schema.enum)}`, at, 'enum');
    }
  }
  if (typeof value === 'string') checkString(schema, value, at);
  if (typeof value === 'number') checkNumber(schema, value, at);
}
