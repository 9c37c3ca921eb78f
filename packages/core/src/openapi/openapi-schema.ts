/**
 * An OpenAPI schema as JSON Schema 2020-12, for the validator in
 * answer/routes/json-schema: OpenAPI 3.0 and Swagger 2.0 schemas are a dialect
 * of draft 4 (`nullable`, boolean `exclusiveMinimum`), rewritten here; a 3.1
 * schema already is one. Properties marked `readOnly` are not required of a
 * request, nor `writeOnly` ones of a response (OpenAPI says so). Used by the OpenAPI import (request validation)
 * and by `POST /api/verify` (response schemas).
 *
 * @module
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords that hold values, not schemas. */
const VALUE_KEYWORDS = new Set(['example', 'examples', 'enum', 'default', 'const']);
/** Keywords that map names to schemas. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * A schema in 2020-12: for 3.0 and 2.0, `nullable: true` adds `null` to `type`
 * (and to `enum`), a boolean `exclusiveMinimum`/`exclusiveMaximum` becomes the
 * number form; in every version, `readOnly` properties leave `required` (of a
 * request; `writeOnly` ones, of a response: `of: 'response'`).
 */
export function toJsonSchema(schema: unknown, draft4: boolean, options: { of?: 'request' | 'response' } = {}): unknown {
  // A request need not send readOnly properties, an answer does not send writeOnly ones.
  const unsent = options.of === 'response' ? 'writeOnly' : 'readOnly';
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, draft4, options));
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALUE_KEYWORDS.has(key)) out[key] = value;
    else if (NAMED_SCHEMAS.has(key) && isObject(value)) {
      // A map of names to schemas: a property may be called `nullable` or `example`.
      const named: Json = {};
      for (const [name, item] of Object.entries(value)) named[name] = toJsonSchema(item, draft4, options);
      out[key] = named;
    } else out[key] = toJsonSchema(value, draft4, options);
  }
  if (draft4) {
    if (out.nullable === true) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    delete out.nullable;
    for (const [flag, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (out[flag] === true && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else if (typeof out[flag] === 'boolean') delete out[flag];
    }
  }
  if (Array.isArray(out.required) && isObject(out.properties)) {
    const properties = out.properties;
    const required = out.required.filter(
      (name) => !(isObject(properties[name as string]) && (properties[name as string] as Json)[unsent] === true),
    );
    if (required.length === 0) delete out.required;
    else out.required = required;
  }
  return out;
}
