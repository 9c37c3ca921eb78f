/**
 * A route's request validation, compiled once per route (not per request) for
 * the interpreter in json-schema/ (a port of `@cfworker/json-schema`'s), so it
 * runs where code generation is not allowed (workerd forbids `new Function`/`eval`,
 * which ajv's compiled validators need), and every check is bounded: patterns run
 * by RE2, equality through canonical texts, steps and depth counted. Query, path
 * parameters and headers arrive as strings, so each is first read as the type its
 * property's schema names.
 *
 * @module
 */

import {
  type JsonSchema,
  MAX_VALIDATION_ERRORS,
  type RouteValidation,
  type ValidationIssue,
  type ValidationMark,
  type ValidationPart,
} from '../../api/route-validation.js';
import { jsonTooDeep } from '../../codec/body.js';
import { utf8Text } from '../../codec/utf8.js';
import type { OutputUnit, ValidationResult } from './json-schema/schema-output.js';
import { Run, SchemaLimitError, SchemaProgram } from './json-schema/schema-program.js';
import { validate } from './json-schema/validate.js';

/** The parts of a request the validator reads (a {@link RequestView} has them). */
export interface ValidatedRequest {
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  params: Record<string, string>;
  /** The whole body's bytes, or `undefined` when only its first bytes were kept. */
  body: Uint8Array | undefined;
}

/** Characters of one error message at most. */
const MAX_MESSAGE = 300;

/** `#/a/b` → `/a/b`. */
function pointer(location: string): string {
  return location.startsWith('#') ? location.slice(1) : location;
}

/** The errors a person can act on: the failing keywords themselves, not each schema around them. */
export function issues(part: ValidationPart, units: readonly OutputUnit[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const unit of units) {
    // Inside an anyOf/oneOf, each branch's failure is noise: the anyOf's own error says it.
    if (/\/(?:anyOf|oneOf)\/\d+\//.test(unit.keywordLocation)) continue;
    // A message quotes the schema's enum or const: a long list is cut short.
    const message = unit.error.length > MAX_MESSAGE ? `${unit.error.slice(0, MAX_MESSAGE)}…` : unit.error;
    out.push({ in: part, path: pointer(unit.instanceLocation), message });
  }
  return out;
}

type SchemaObject = Record<string, unknown>;

/** How many `$ref`s and subschema levels are followed to find a value's type. */
const MAX_TYPE_DEPTH = 8;

/** `schema` with its `#/…` `$ref` followed in `root` (a few times at most); an object, or `undefined`. */
function resolved(schema: unknown, root: unknown): SchemaObject | undefined {
  let at = schema;
  for (let i = 0; i < MAX_TYPE_DEPTH && typeof at === 'object' && at !== null; i++) {
    const ref = (at as SchemaObject).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return at as SchemaObject;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      target = typeof target === 'object' && target !== null ? (target as SchemaObject)[key] : undefined;
    }
    at = target;
  }
  return typeof at === 'object' && at !== null ? (at as SchemaObject) : undefined;
}

/** `schema` and the subschemas a value must or may also fit (allOf, anyOf, oneOf), `$ref`s followed. */
function branches(schema: unknown, root: unknown, depth = 0): SchemaObject[] {
  const at = resolved(schema, root);
  if (at === undefined) return [];
  const out = [at];
  if (depth >= MAX_TYPE_DEPTH) return out;
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = at[keyword];
    if (Array.isArray(list)) for (const item of list) out.push(...branches(item, root, depth + 1));
  }
  return out;
}

/** The types a schema names, also behind `$ref` and in its allOf/anyOf/oneOf (OpenAPI 3.1's nullable). */
function typesOf(schema: unknown, root: unknown): string[] {
  const types: string[] = [];
  for (const branch of branches(schema, root)) {
    const type = branch.type;
    if (typeof type === 'string') types.push(type);
    else if (Array.isArray(type)) for (const item of type) if (typeof item === 'string') types.push(item);
  }
  return types;
}

/** The first `items` schema among a schema's branches. */
function itemsOf(schema: unknown, root: unknown): unknown {
  return branches(schema, root).find((branch) => branch.items !== undefined)?.items;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A string read as one of `types`: a number, a boolean, or left as it is. */
function scalar(value: string, types: readonly string[]): unknown {
  if (types.includes('string') || types.length === 0) return value;
  if ((types.includes('integer') || types.includes('number')) && NUMBER.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** How one name's string values are read: as a list (repeated values) or one value, of these types. */
interface Reading {
  array: boolean;
  /** The types of the value, or of each item of a list. */
  types: readonly string[];
}

/** A value the schema says nothing of: one string, as sent. */
const AS_SENT: Reading = { array: false, types: [] };

/**
 * How each name of a part is read, worked out from the schema once per name
 * (`$ref`s followed, allOf/anyOf/oneOf looked through) and kept with the schema
 * (only the names it describes, so the memory is bounded by the schema, not by requests).
 */
function readingsOf(schema: JsonSchema): (key: string) => Reading {
  const known = new Map<string, Reading>();
  return (key) => {
    let reading = known.get(key);
    if (reading === undefined) {
      let property: unknown;
      for (const branch of branches(schema, schema)) {
        const properties = branch.properties;
        if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, key)) {
          property = (properties as SchemaObject)[key];
          break;
        }
      }
      // Names the schema does not describe come from the client: kept as they are, and not remembered.
      if (property === undefined) return AS_SENT;
      const types = typesOf(property, schema);
      reading = types.includes('array')
        ? { array: true, types: typesOf(itemsOf(property, schema), schema) }
        : { array: false, types };
      known.set(key, reading);
    }
    return reading;
  };
}

/**
 * The values of a query, parameters or headers read as their properties'
 * schemas say: an array property takes repeated values (a header's, comma-separated).
 */
function coerce(
  values: Record<string, string | string[]>,
  reading: (key: string) => Reading,
  part: ValidationPart,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const { array, types } = reading(key);
    if (array) {
      const list = Array.isArray(value)
        ? value
        : part === 'headers'
          ? value.split(',').map((item) => item.trim())
          : [value];
      out[key] = list.map((item) => scalar(item, types));
    } else {
      out[key] = Array.isArray(value) ? value.map((item) => scalar(item, types)) : scalar(value, types);
    }
  }
  return out;
}

/** `application/json`, `application/problem+json`, …; an absent type counts as JSON. */
function isJsonType(type: string | undefined): boolean {
  return type === undefined || /^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim());
}

/** A compiled schema, or the reason it could not be compiled (reported with every request). */
type Compiled = SchemaProgram | string;

function compile(schema: JsonSchema): Compiled {
  try {
    const program = new SchemaProgram(schema);
    // References are resolved on first use: try once, so a broken $ref shows here, not per request.
    validate(null, program.root, new Run(program));
    return program;
  } catch (error) {
    return failure(error);
  }
}

/** The message of a check that could not finish. */
export function failure(error: unknown): string {
  if (error instanceof SchemaLimitError) return error.message;
  // The depth bound keeps far from the stack's end; should a runtime's stack be smaller, still an error, not a throw.
  if (error instanceof RangeError) return 'the schema nests too deeply to check this request';
  return `the route's schema cannot be used: ${(error as Error).message.split('\n')[0]}`;
}

/** One route's validation, each schema compiled on first use and kept. */
export class RequestValidator {
  readonly validation: RouteValidation;
  /** Whether the check needs the whole body (there is a body schema, or an empty body is refused). */
  readonly readsBody: boolean;
  readonly #compiled = new Map<ValidationPart, Compiled>();
  /** How each part's names are read, worked out on first use (see {@link readingsOf}). */
  readonly #readings = new Map<ValidationPart, (key: string) => Reading>();

  constructor(validation: RouteValidation) {
    this.validation = validation;
    this.readsBody = validation.body !== undefined || validation.bodyRequired === true;
  }

  #run(part: ValidationPart, schema: JsonSchema, value: unknown): ValidationIssue[] {
    let compiled = this.#compiled.get(part);
    if (compiled === undefined) {
      compiled = compile(schema);
      this.#compiled.set(part, compiled);
    }
    if (typeof compiled === 'string') return [{ in: part, path: '', message: compiled }];
    let result: ValidationResult;
    try {
      result = validate(value, compiled.root, new Run(compiled));
    } catch (error) {
      // A bound met (steps, depth), or a schema saved before it was checked as it is now.
      return [{ in: part, path: '', message: failure(error) }];
    }
    if (result.valid) return [];
    const listed = issues(part, result.errors);
    if (listed.length > 0) return listed;
    // Never "invalid" with nothing listed (that would let an enforced request through): name the deepest error.
    const deepest = result.errors.at(-1);
    return [
      {
        in: part,
        path: pointer(deepest?.instanceLocation ?? ''),
        message: deepest?.error ?? 'does not fit the schema',
      },
    ];
  }

  #body(request: ValidatedRequest): ValidationIssue[] {
    const { body: schema, bodyRequired } = this.validation;
    const bytes = request.body;
    if (bytes === undefined) {
      return [{ in: 'body', path: '', message: 'the body is longer than the body limit, so it was not checked' }];
    }
    if (bytes.byteLength === 0) {
      return bodyRequired === true ? [{ in: 'body', path: '', message: 'a body is required' }] : [];
    }
    if (schema === undefined) return [];
    // Sent as JSON (or untyped), it must be JSON; sent as another type (XML, a form), it is held to
    // the schema only when it parses as JSON anyway (curl -d and fetch with a string send JSON so).
    const asJson = isJsonType(request.headers['content-type']);
    const text = utf8Text(bytes);
    if (text === undefined) {
      return asJson ? [{ in: 'body', path: '', message: 'the body is not UTF-8 text, so not JSON' }] : [];
    }
    if (jsonTooDeep(text)) return [{ in: 'body', path: '', message: 'the body nests too deeply to check' }];
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return asJson ? [{ in: 'body', path: '', message: 'the body is not JSON' }] : [];
    }
    return this.#run('body', schema, json);
  }

  /** The part's string values read as its schema's properties say. */
  #coerce(part: 'params' | 'query' | 'headers', schema: JsonSchema, values: Record<string, string | string[]>) {
    let reading = this.#readings.get(part);
    if (reading === undefined) {
      reading = readingsOf(schema);
      this.#readings.set(part, reading);
    }
    return coerce(values, reading, part);
  }

  /** The request's errors (none when it fits), at most {@link MAX_VALIDATION_ERRORS} listed. */
  check(request: ValidatedRequest): ValidationMark {
    const { query, params, headers } = this.validation;
    const errors: ValidationIssue[] = [];
    if (params !== undefined)
      errors.push(...this.#run('params', params, this.#coerce('params', params, request.params)));
    if (query !== undefined) errors.push(...this.#run('query', query, this.#coerce('query', query, request.query)));
    if (headers !== undefined) {
      errors.push(...this.#run('headers', headers, this.#coerce('headers', headers, request.headers)));
    }
    if (this.readsBody) errors.push(...this.#body(request));
    if (errors.length <= MAX_VALIDATION_ERRORS) return { errors };
    return { errors: errors.slice(0, MAX_VALIDATION_ERRORS), total: errors.length };
  }
}
