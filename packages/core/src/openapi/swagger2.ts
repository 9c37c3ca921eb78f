/**
 * A Swagger 2.0 document as the OpenAPI 3.0 document it means, for a twin (docs/twins.md, "Any
 * OpenAPI document"): `definitions`, `parameters` and `responses` become `components`' (every
 * `$ref` rewritten), an `in: body` parameter the operation's JSON `requestBody`, its `in: formData`
 * ones one form body (`multipart/form-data` where the operation consumes it or sends a `type:
 * file`; a file a binary string), a response's `schema` its `content` under each type it produces,
 * a parameter's type keywords its `schema`, `basePath` a server. Bounded by the document: each node
 * is visited once (a `$ref` to a list of parameters is read in place, not followed twice).
 *
 * @module
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Parameter fields of Swagger 2.0 that are schema keywords. */
const SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'enum',
  'multipleOf',
];

const REFS: [string, string][] = [
  ['#/definitions/', '#/components/schemas/'],
  ['#/parameters/', '#/components/parameters/'],
  ['#/responses/', '#/components/responses/'],
];

/** Whether `doc` is a Swagger 2.0 document. */
export function isSwagger2(doc: unknown): doc is Json {
  return isObject(doc) && doc.swagger === '2.0' && doc.openapi === undefined;
}

/** `value` with every `$ref` into Swagger's sections pointed at `components`, and `type: file` a binary string. */
function rewritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewritten);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') {
      const rule = REFS.find(([from]) => member.startsWith(from));
      out.$ref = rule === undefined ? member : rule[1] + member.slice(rule[0].length);
    } else out[key] = rewritten(member);
  }
  if (out.type === 'file') Object.assign(out, { type: 'string', format: 'binary' });
  return out;
}

/** A JSON pointer into the Swagger document (`#/definitions/pet-filters`), or undefined. */
function pointed(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** A list of parameters, a `$ref` to one read in place (some documents keep one under definitions). */
function parameterList(doc: Json, value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value) && typeof value.$ref === 'string') {
    const found = pointed(doc, value.$ref);
    if (Array.isArray(found)) return found;
  }
  return [];
}

/** A parameter followed once where it is a `$ref` to `#/parameters/…` (body and form ones change place). */
function parameterOf(doc: Json, value: unknown): Json | undefined {
  if (isObject(value) && typeof value.$ref === 'string') {
    const found = pointed(doc, value.$ref);
    return isObject(found) ? found : undefined;
  }
  return isObject(value) ? value : undefined;
}

/** A path, query or header parameter of OpenAPI 3: its type keywords moved into `schema`. */
function plainParameter(parameter: Json): Json {
  const schema: Json = {};
  const out: Json = {};
  for (const [key, member] of Object.entries(parameter)) {
    if (SCHEMA_KEYS.includes(key)) schema[key] = member;
    else if (key !== 'collectionFormat' && key !== 'allowEmptyValue') out[key] = member;
  }
  return { ...out, schema: rewritten(schema) };
}

/** The body a Swagger operation's `formData` parameters describe, as one object schema. */
function formBody(form: Json[], consumes: string[]): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const parameter of form) {
    const name = String(parameter.name);
    properties[name] = plainParameter(parameter).schema;
    if (parameter.required === true) required.push(name);
  }
  const hasFile = form.some((parameter) => parameter.type === 'file');
  const type =
    hasFile || consumes.includes('multipart/form-data') ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
  const schema: Json = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  return { content: { [type]: { schema } }, ...(required.length > 0 ? { required: true } : {}) };
}

/** The answers of an operation with each `schema` under `content`, one entry per type it produces. */
function responsesOf(responses: unknown, produces: string[]): Json {
  const out: Json = {};
  if (!isObject(responses)) return out;
  for (const [status, raw] of Object.entries(responses)) out[status] = responseOf(raw, produces);
  return out;
}

function responseOf(raw: unknown, produces: string[]): unknown {
  if (!isObject(raw) || typeof raw.$ref === 'string') return rewritten(raw);
  const { schema, examples, headers, ...rest } = raw;
  const out: Json = { description: '', ...(rewritten(rest) as Json) };
  if (isObject(headers)) {
    const made: Json = {};
    for (const [name, header] of Object.entries(headers)) {
      if (isObject(header)) made[name] = plainParameter(header);
    }
    out.headers = made;
  }
  if (schema !== undefined) {
    const content: Json = {};
    const types = produces.length > 0 ? produces : ['application/json'];
    for (const type of types) {
      const example = isObject(examples) ? examples[type] : undefined;
      content[type] = { schema: rewritten(schema), ...(example === undefined ? {} : { example }) };
    }
    out.content = content;
  }
  return out;
}

function strings(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : fallback;
}

/** One operation of a Swagger path item, with the path item's parameters it shares. */
function operationOf(doc: Json, operation: Json, shared: unknown[]): Json {
  const consumes = strings(operation.consumes, strings(doc.consumes, ['application/json']));
  const produces = strings(operation.produces, strings(doc.produces, ['application/json']));
  const byKey = new Map<string, Json>();
  for (const raw of [...parameterList(doc, shared), ...parameterList(doc, operation.parameters)]) {
    const parameter = parameterOf(doc, raw);
    if (parameter !== undefined) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  const parameters: Json[] = [];
  const form: Json[] = [];
  let body: Json | undefined;
  for (const parameter of byKey.values()) {
    if (parameter.in === 'body') body = parameter;
    else if (parameter.in === 'formData') form.push(parameter);
    else parameters.push(plainParameter(parameter));
  }
  const { parameters: _p, consumes: _c, produces: _pr, responses, ...rest } = operation;
  const out: Json = { ...(rewritten(rest) as Json) };
  if (parameters.length > 0) out.parameters = parameters;
  if (body !== undefined) {
    const jsonTypes = consumes.filter((type) => /\bjson\b/.test(type));
    const content: Json = {};
    for (const type of jsonTypes.length > 0 ? jsonTypes : ['application/json']) {
      content[type] = { schema: rewritten(body.schema ?? {}) };
    }
    out.requestBody = {
      content,
      ...(body.required === true ? { required: true } : {}),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
    };
  } else if (form.length > 0) out.requestBody = formBody(form, consumes);
  out.responses = responsesOf(responses, produces);
  return out;
}

/** The OpenAPI 3.0 document a Swagger 2.0 one means (see the module's comment). */
export function fromSwagger2(doc: Json): Json {
  const paths: Json = {};
  if (isObject(doc.paths)) {
    for (const [template, raw] of Object.entries(doc.paths)) {
      if (!isObject(raw)) continue;
      const item: Json = {};
      for (const method of METHODS) {
        const operation = raw[method];
        if (isObject(operation)) item[method] = operationOf(doc, operation, raw.parameters as unknown[]);
      }
      paths[template] = item;
    }
  }
  const schemas: Json = {};
  if (isObject(doc.definitions)) {
    // A definition that is no schema (a list of parameters some documents keep there) is left out.
    for (const [name, schema] of Object.entries(doc.definitions))
      if (isObject(schema)) schemas[name] = rewritten(schema);
  }
  const parameters: Json = {};
  if (isObject(doc.parameters)) {
    for (const [name, parameter] of Object.entries(doc.parameters)) {
      if (isObject(parameter) && parameter.in !== 'body' && parameter.in !== 'formData')
        parameters[name] = plainParameter(parameter);
    }
  }
  const responses: Json = {};
  if (isObject(doc.responses)) {
    for (const [name, response] of Object.entries(doc.responses)) {
      responses[name] = responseOf(response, strings(doc.produces, ['application/json']));
    }
  }
  const basePath = typeof doc.basePath === 'string' && doc.basePath !== '/' ? doc.basePath : undefined;
  return {
    openapi: '3.0.3',
    info: isObject(doc.info) ? doc.info : { title: '', version: '' },
    ...(basePath === undefined ? {} : { servers: [{ url: basePath }] }),
    paths,
    components: { schemas, parameters, responses },
  };
}
