/**
 * An operation's request as JSON Schemas (2020-12) for a route's `validate`:
 * the JSON body of its `requestBody` (or Swagger 2.0 `in: body` parameter), and
 * its path, query and header parameters as object schemas. OpenAPI 3.0 and
 * Swagger 2.0 schemas are a dialect of draft 4 (`nullable`, boolean
 * `exclusiveMinimum`), so they are rewritten into 2020-12; a 3.1 schema already
 * is one. Properties marked `readOnly` are not required of a request (OpenAPI
 * says so).
 *
 * @module
 */

import type { RouteValidation } from '../api/route-validation.js';
import { toJsonSchema } from './openapi-schema.js';

type Json = Record<string, unknown>;

/** Headers OpenAPI says a header parameter may not describe. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** Swagger 2.0 parameter fields that are schema keywords. */
const SWAGGER2_SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonType(type: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}

/** A parameter's name as the route pattern has it (see routePath): letters, digits and `_`, not starting with a digit. */
export function paramName(name: string): string {
  const reduced = name.replace(/[^A-Za-z0-9_]/g, '_') || 'param';
  return /^[0-9]/.test(reduced) ? `_${reduced}` : reduced;
}

/** The operation's parameters, its own replacing the path item's of the same name and place. */
function parametersOf(item: Json, operation: Json): Json[] {
  const all = new Map<string, Json>();
  for (const list of [item.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (isObject(parameter) && typeof parameter.name === 'string')
        all.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  return [...all.values()];
}

/** A parameter's schema: `schema` in 3.x, its own fields in 2.0. */
function parameterSchema(parameter: Json, swagger2: boolean): Json {
  if (!swagger2) return isObject(parameter.schema) ? parameter.schema : {};
  const schema: Json = {};
  for (const key of SWAGGER2_SCHEMA_KEYS) if (parameter[key] !== undefined) schema[key] = parameter[key];
  return schema;
}

/** An object schema over one kind of parameter; `undefined` when there is none to check. */
function objectSchema(entries: readonly [string, unknown, boolean][]): Json | undefined {
  if (entries.length === 0) return undefined;
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, schema, isRequired] of entries) {
    properties[name] = schema;
    if (isRequired) required.push(name);
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/** Whether a value from a URL or a header can be read as what `schema` describes (not an object). */
function checkable(schema: unknown): boolean {
  if (!isObject(schema)) return true;
  const type = schema.type;
  return !(type === 'object' || (Array.isArray(type) && type.includes('object')) || isObject(schema.properties));
}

/**
 * The `validate` of the routes of one operation with `mode`, or `undefined`
 * when the operation describes nothing to check.
 */
export function requestValidation(
  item: Json,
  operation: Json,
  options: { mode: RouteValidation['mode']; swagger2: boolean; draft4: boolean },
): RouteValidation | undefined {
  const { swagger2, draft4 } = options;
  const groups: Record<'path' | 'query' | 'header', [string, unknown, boolean][]> = { path: [], query: [], header: [] };
  let body: unknown;
  let bodyRequired = false;
  for (const parameter of parametersOf(item, operation)) {
    const place = parameter.in;
    const name = parameter.name as string;
    if (swagger2 && place === 'body') {
      body = parameter.schema;
      bodyRequired = parameter.required === true;
      continue;
    }
    if (place !== 'path' && place !== 'query' && place !== 'header') continue;
    if (place === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    const schema = toJsonSchema(parameterSchema(parameter, swagger2), draft4);
    // An object in a query or header (deepObject, …) has no one way back from strings: not checked.
    if (!checkable(schema)) continue;
    const key = place === 'path' ? paramName(name) : place === 'header' ? name.toLowerCase() : name;
    groups[place].push([key, schema, place === 'path' || parameter.required === true]);
  }
  const requestBody = operation.requestBody;
  if (!swagger2 && isObject(requestBody)) {
    const content = isObject(requestBody.content) ? requestBody.content : {};
    const type = Object.keys(content).find(isJsonType);
    const media = type === undefined ? undefined : content[type];
    if (isObject(media) && media.schema !== undefined) body = media.schema;
    bodyRequired = requestBody.required === true;
  }
  const validation: RouteValidation = { mode: options.mode };
  if (body !== undefined) validation.body = toJsonSchema(body, draft4) as RouteValidation['body'];
  if (bodyRequired) validation.bodyRequired = true;
  const query = objectSchema(groups.query);
  if (query) validation.query = query;
  const params = objectSchema(groups.path);
  if (params) validation.params = params;
  const headers = objectSchema(groups.header);
  if (headers) validation.headers = headers;
  return Object.keys(validation).length > 1 ? validation : undefined;
}
