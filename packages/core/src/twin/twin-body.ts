/**
 * A twin request's parameters: the body (JSON, or form-encoded with brackets)
 * and the query, read into one object, its strings turned into the numbers,
 * booleans and arrays the operation's schema declares, and checked against the
 * document: a parameter the operation does not take is refused as the provider
 * refuses it (Stripe: `parameter_unknown`), when its schema closes the object,
 * and (when the provider's flows ask) one its schema's `required` names and the
 * request lacks (Stripe: `parameter_missing`).
 *
 * @module
 */

import { boundaryOf, MultipartProblem, readMultipart } from '../codec/multipart.js';
import { resolve, type Schema } from './twin-example.js';
import { FormProblem, type FormValue, MAX_DEPTH, readFields, readForm } from './twin-form.js';
import { InvalidValue, ParamProblem } from './twin-problems.js';
import { checkValue, wrongType } from './twin-values.js';

/**
 * A string past its schema's `maxLength`: Stripe's refusal as its message, and the bound, for a
 * provider whose flows refuse it in their own form ({@link TwinFlows.tooLong}).
 */
export class TooLong extends ParamProblem {
  constructor(
    message: string,
    param: string,
    readonly max: number,
  ) {
    super(message, param);
  }
}

/** Stripe's refusal of a value that is not a whole number within JavaScript's exact range. */
function invalidInteger(value: unknown, at: string): ParamProblem {
  return new InvalidValue(
    `Invalid integer: ${String(value).slice(0, 100)}`,
    at.slice(0, 200),
    'type',
    'parameter_invalid_integer',
  );
}

/**
 * `value` when the schema's `maxLength` allows it; past it, a {@link TooLong}
 * (Stripe's `Invalid string: nnnnnnnnnn...nnnnnnnnnn; must be at most 30 characters`),
 * before the twin stores, copies or sends it on.
 */
function bounded(schema: Schema, value: string, at: string): string {
  const max = schema.maxLength;
  if (typeof max !== 'number' || value.length <= max) return value;
  const shown = value.length > 20 ? `${value.slice(0, 10)}...${value.slice(-10)}` : value;
  // Stripe's answer names no code for it.
  throw new TooLong(`Invalid string: ${shown}; must be at most ${max} characters`, at.slice(0, 200), max);
}

/** A parameter's name below `at` (`amount`, `items[0][price]`). */
function below(at: string, key: string | number): string {
  return at === '' ? String(key) : `${at}[${key}]`;
}

/**
 * `value` typed by its schema: numbers, booleans, arrays and objects read from
 * strings. An `integer` must be one, written in decimal digits and within
 * JavaScript's exact range (`NaN`, `Infinity`, `1.5`, `1e308`, `0x10` are
 * refused as Stripe refuses them, naming the parameter `at`). Each value is then
 * held to its schema's other constraints (twin-values.ts); of an `anyOf` or
 * `oneOf`, to the first option that takes it.
 */
function coerce(doc: Schema, raw: unknown, value: unknown, at: string, form: boolean, unions = 0): unknown {
  const schema = resolve(doc, raw);
  const list = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(list)) {
    if (value === '' && form) return '';
    const options = list.map((option) => resolve(doc, option));
    const taken = firstTaking(doc, options, value, at, form, unions);
    if (taken.found) return taken.value;
    // Every option typed and none of the value's kind (an object where only text or numbers are taken).
    const types = options.map((option) => option.type);
    if (types.every((type) => typeof type === 'string')) throw wrongType(types as string[], value, at);
    // No typed option fits (options that only constrain, GitHub's `anyOf` of `required` lists):
    // the schema's own type and properties read it.
  }
  return coerceOne(doc, schema, value, at, form);
}

/** Most unions within unions a value is read through (a document's own cycle of them ends here). */
const MAX_UNIONS = 4;

/** Whether a schema is of a value that is no object nor list (a schema of no type is neither). */
function scalar(schema: Schema): boolean {
  return schema.type === undefined || (schema.type !== 'object' && schema.type !== 'array');
}

/**
 * `value` as the first of `options` that takes it: for a string, a number option first when it
 * reads as one (OpenAI's `max_output_tokens: "inf"` beside an integer), then the other options
 * in order; past the last, the first option's refusal. Options with no type (unless a union of
 * their own), and values no option is typed for, are not found here.
 */
function firstTaking(
  doc: Schema,
  options: Schema[],
  value: unknown,
  at: string,
  form: boolean,
  unions: number,
): { found: true; value: unknown } | { found: false } {
  const numeric = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value);
  const ordered = numeric
    ? [
        ...options.filter((option) => option.type === 'integer' || option.type === 'number'),
        ...options.filter((option) => option.type !== 'integer' && option.type !== 'number'),
      ]
    : options;
  // An option of no type that is a union itself (OpenAI's voice: an `anyOf` of a `$ref` to an
  // `anyOf` of strings, and an object) may take any value: its own options decide.
  const nested = (option: Schema) =>
    unions < MAX_UNIONS && option.type === undefined && Array.isArray(option.anyOf ?? option.oneOf);
  const fitting = ordered.filter(
    (option) =>
      nested(option) || (typeof value === 'object' && value !== null ? !scalar(option) : option.type !== undefined),
  );
  let first: unknown;
  for (const option of fitting) {
    try {
      const taken = nested(option)
        ? coerce(doc, option, value, at, form, unions + 1)
        : coerceOne(doc, option, value, at, form);
      return { found: true, value: taken };
    } catch (error) {
      // The next option may read it; past the last, the first option's refusal.
      if (!(error instanceof ParamProblem)) throw error;
      first ??= error;
    }
  }
  if (first !== undefined) throw first;
  return { found: false };
}

/** `value` typed and checked by one schema (no `anyOf` of its own to choose from). */
function coerceOne(doc: Schema, schema: Schema, value: unknown, at: string, form: boolean): unknown {
  if (typeof value === 'string') {
    let typed: unknown = value;
    if (schema.type === 'integer' && value !== '') {
      const whole = /^-?\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(whole)) throw invalidInteger(value, at);
      typed = whole;
    } else if (schema.type === 'number' && value !== '' && Number.isFinite(Number(value)) && form) {
      typed = Number(value);
    } else if (schema.type === 'boolean' && (value === 'true' || value === 'false') && form) {
      typed = value === 'true';
    } else if (schema.type === 'string') {
      typed = bounded(schema, value, at);
    }
    checkValue(schema, typed, at, form);
    return typed;
  }
  if (typeof value === 'number' && schema.type === 'integer' && !Number.isSafeInteger(value)) {
    throw invalidInteger(value, at);
  }
  checkValue(schema, value, at, form);
  if (Array.isArray(value)) {
    return value.map((member, index) => coerce(doc, schema.items, member, below(at, index), form));
  }
  if (typeof value === 'object' && value !== null) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const extra = schema.additionalProperties;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      out[key] = coerce(doc, properties[key] ?? (typeof extra === 'object' ? extra : {}), member, below(at, key), form);
    }
    return out;
  }
  return value;
}

/** Stripe's refusal of a parameter the operation does not take (the name bounded to 200 characters). */
function unknownParameter(name: string): ParamProblem {
  const shown = name.slice(0, 200);
  return new ParamProblem(`Received unknown parameter: ${shown}`, shown, 'parameter_unknown');
}

/**
 * The first parameter the schema's `required` names that `value` lacks, as
 * Stripe names it (`amount`, `line_items[0][price_data][currency]`); objects
 * and lists that were sent are looked into, ten levels at most.
 */
/** The `required` names and the members of an object schema, its `allOf` parts' merged in (Revert's requests). */
function requiredOf(
  doc: Schema,
  schema: Schema,
  depth = 0,
): { required: unknown[]; properties: Record<string, Schema> } {
  const required = Array.isArray(schema.required) ? [...(schema.required as unknown[])] : [];
  const properties = { ...((schema.properties ?? {}) as Record<string, Schema>) };
  if (!Array.isArray(schema.allOf) || depth > 4) return { required, properties };
  for (const part of schema.allOf) {
    const inner = requiredOf(doc, resolve(doc, part), depth + 1);
    for (const key of inner.required) if (!required.includes(key)) required.push(key);
    for (const [key, member] of Object.entries(inner.properties)) properties[key] ??= member;
  }
  return { required, properties };
}

function missingParam(doc: Schema, raw: unknown, value: unknown, at: string, depth = 0): string | undefined {
  if (depth > 10 || typeof value !== 'object' || value === null) return undefined;
  const schema = resolve(doc, raw);
  const name = (key: string | number) => (at === '' ? String(key) : `${at}[${key}]`);
  if (Array.isArray(value)) {
    for (const [index, member] of value.slice(0, 100).entries()) {
      const found = missingParam(doc, schema.items, member, name(index), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const { required, properties } = requiredOf(doc, schema);
  // A `readOnly` member is the answer's (an id), never the request's.
  const lacking = required.find(
    (key) =>
      typeof key === 'string' &&
      resolve(doc, properties[key]).readOnly !== true &&
      (record[key] === undefined || record[key] === ''),
  );
  if (lacking !== undefined) return name(String(lacking));
  for (const [key, member] of Object.entries(record)) {
    if (properties[key] === undefined) continue;
    const found = missingParam(doc, properties[key], member, name(key), depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The operation's request body schema (its form or JSON content), if any. */
function bodySchema(doc: Schema, operation: Schema): Schema | undefined {
  const content = (resolve(doc, operation.requestBody).content ?? {}) as Record<string, Schema>;
  const media =
    content['application/x-www-form-urlencoded'] ?? content['application/json'] ?? content['multipart/form-data'];
  return media?.schema === undefined ? undefined : resolve(doc, media.schema);
}

/**
 * Whether the operation's body is bytes rather than parameters: its request body names media types,
 * none of them JSON or a form (`application/octet-stream`, `text/plain`).
 */
function takesBytes(doc: Schema, operation: Schema): boolean {
  const types = Object.keys(resolve(doc, operation.requestBody).content ?? {});
  return types.length > 0 && !types.some((type) => type.includes('json') || type.includes('form'));
}

/** The names of the operation's query parameters. */
function queryNames(doc: Schema, operation: Schema): Set<string> {
  const params = Array.isArray(operation.parameters) ? operation.parameters : [];
  return new Set(
    params
      .map((param) => resolve(doc, param))
      .filter((param) => param.in === 'query')
      .map((param) => String(param.name)),
  );
}

/** The query parameter's schema, by name. */
function querySchema(doc: Schema, operation: Schema, name: string): Schema {
  const params = Array.isArray(operation.parameters) ? operation.parameters : [];
  const found = params.map((param) => resolve(doc, param)).find((param) => param.in === 'query' && param.name === name);
  return (found?.schema as Schema | undefined) ?? {};
}

/** What a request brings, read and checked. */
export interface TwinParams {
  /** Body parameters, typed by the schema. */
  body: Record<string, unknown>;
  /** Query parameters, typed by the schema. */
  query: Record<string, unknown>;
}

/** Whether `value` nests objects or arrays more than `most` levels deep (walked without recursion). */
function deeperThan(value: unknown, most: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > most) return true;
    for (const member of Object.values(node)) stack.push([member, depth + 1]);
  }
  return false;
}

/**
 * A `multipart/form-data` body's fields, read as a form's (`metadata[key]` nests): a field's value
 * is its text, a file's its file name (its bytes are the upload's, not a parameter's).
 */
function readMultipartBody(bytes: Uint8Array, boundary: string): Record<string, FormValue> {
  const decoder = new TextDecoder();
  let parts: ReturnType<typeof readMultipart>;
  try {
    parts = readMultipart(bytes, boundary);
  } catch (error) {
    if (!(error instanceof MultipartProblem)) throw error;
    throw new ParamProblem(
      `The request body is not valid multipart/form-data: ${error.message}.`,
      '',
      'parameter_invalid',
    );
  }
  return readFields(parts.map((part) => [part.name, part.filename ?? decoder.decode(part.body)] as const));
}

/** Whether a body of `contentType` is read as a form (its values all text), not as JSON. */
function readsAsForm(text: string, form: boolean, contentType: string): boolean {
  if (boundaryOf(contentType) !== undefined) return true;
  // A provider of form bodies (Stripe) reads a form unless JSON is declared. One of JSON bodies reads
  // JSON whatever the type said, as GitHub does: its docs' `curl -d '{…}'` sends it as a form.
  return form
    ? !contentType.includes('json')
    : contentType.includes('application/x-www-form-urlencoded') && !text.trim().startsWith('{');
}

function readBody(
  text: string,
  form: boolean,
  contentType: string,
  bytes: Uint8Array | undefined,
): Record<string, FormValue | unknown> {
  const boundary = boundaryOf(contentType);
  if (boundary !== undefined) return readMultipartBody(bytes ?? new TextEncoder().encode(text), boundary);
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (readsAsForm(text, form, contentType)) return readForm(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ParamProblem('The request body is not valid JSON.', '', 'parameter_invalid_json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ParamProblem('The request body is not a JSON object.', '', 'parameter_invalid_json');
  }
  if (deeperThan(parsed, MAX_DEPTH + 1)) {
    throw new ParamProblem(
      `The request body nests objects or arrays more than ${MAX_DEPTH} levels deep below its parameters, as a form's brackets may not either.`,
      '',
      'parameter_too_deep',
    );
  }
  return parsed as Record<string, unknown>;
}

/**
 * Reads and checks the parameters of one request to `operation`: throws a
 * {@link ParamProblem} for a body that cannot be read or a parameter the
 * operation does not take; answers the first value its schema refuses (or a
 * required one missing) as `problem`, the values then as sent.
 */
export function readParams(
  doc: Schema,
  operation: Schema,
  request: { query: string; body: string; contentType: string; bytes?: Uint8Array | undefined },
  form: boolean,
  required = false,
): TwinParams & { problem?: InvalidValue } {
  let rawBody: Record<string, unknown>;
  let rawQuery: Record<string, FormValue>;
  try {
    // A body the operation takes as bytes (GitHub's release asset upload) is no parameters: its flows read it.
    rawBody = takesBytes(doc, operation) ? {} : readBody(request.body, form, request.contentType, request.bytes);
    rawQuery = readForm(request.query);
  } catch (error) {
    if (error instanceof FormProblem)
      throw new ParamProblem(`Invalid parameters: ${error.message}.`, '', 'parameter_invalid');
    throw error;
  }
  const schema = bodySchema(doc, operation);
  if (schema?.additionalProperties === false) {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(rawBody).find((key) => !(key in properties));
    if (unknown !== undefined) {
      throw unknownParameter(unknown);
    }
  }
  const names = queryNames(doc, operation);
  if (form) {
    const unknown = Object.keys(rawQuery).find((key) => !names.has(key));
    if (unknown !== undefined) throw unknownParameter(unknown);
  }
  const lacking = required && schema !== undefined ? missingParam(doc, schema, rawBody, '') : undefined;
  // A value its schema refuses is held back, not thrown: the provider's own refusal of the request,
  // if it has one, comes first (the engine asks its flows, then throws this).
  let problem: InvalidValue | undefined =
    lacking === undefined
      ? undefined
      : new InvalidValue(
          `Missing required param: ${lacking.slice(0, 200)}.`,
          lacking.slice(0, 200),
          'required',
          'parameter_missing',
        );
  const query: Record<string, unknown> = {};
  let body: Record<string, unknown> = rawBody;
  try {
    for (const [key, value] of Object.entries(rawQuery))
      query[key] = coerce(doc, querySchema(doc, operation, key), value, key, true);
    const asForm = readsAsForm(request.body, form, request.contentType);
    if (schema !== undefined) body = coerce(doc, schema, rawBody, '', asForm) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof InvalidValue)) throw error;
    problem ??= error;
    Object.assign(query, rawQuery);
  }
  return problem === undefined ? { body, query } : { body, query, problem };
}
