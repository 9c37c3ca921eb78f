/**
 * Values from an OpenAPI document's schemas, so that what a twin answers looks
 * real: a schema's own `example` first, otherwise one made from its type, enum
 * and format (`unix-time` and `date-time` read the clock). Expandable fields
 * (`anyOf: [string, object]`) take their id form; fields that take `null` are `null`
 * (a `null` type; `nullable: true` only in a 3.0 or Swagger 2 document: 3.1 has no such word);
 * a list's `data` holds one example item, as stripe-mock's fixtures do. Bounded
 * in depth, by a guard against schemas that refer to themselves (through
 * `allOf`, `anyOf` and `oneOf` too: such a self-reference answers as an empty
 * object), and by a budget of {@link MAX_EXAMPLE_VALUES} schemas looked at per
 * answer, past which every value is `null`: however a document fans out, one
 * answer costs a bounded time and size.
 *
 * @module
 */

/** A JSON Schema object as OpenAPI 3 writes it (only what the twin reads). */
export type Schema = Record<string, unknown>;

/** Resolves a local `$ref` (`#/components/schemas/x`) against the document, once. */
export function resolve(doc: Schema, schema: unknown): Schema {
  let current = schema as Schema | undefined;
  for (let hops = 0; hops < 16 && current !== undefined && typeof current.$ref === 'string'; hops++) {
    const pointer = (current.$ref as string).replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const part of pointer) {
      node = (node as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    current = node as Schema | undefined;
  }
  return current ?? {};
}

/** What making one example needs: the document, the time in ms, and the id to give objects. */
export interface ExampleContext {
  doc: Schema;
  now: number;
  timestamps: 'unix' | 'iso';
}

/**
 * Whether the document reads `nullable: true` as taking `null`: OpenAPI 3.0 and Swagger 2 do; in
 * 3.1 (JSON Schema 2020-12) it is no keyword, and only a `null` type (or `const`/`enum` of it) is.
 */
function readsNullable(doc: Schema): boolean {
  return !(typeof doc.openapi === 'string' && /^3\.[1-9]/.test(doc.openapi));
}

/** Whether `schema` itself takes `null`: a `null` type, or `nullable` where the document reads it. */
export function allowsNull(doc: Schema, schema: Schema): boolean {
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return schema.nullable === true && readsNullable(doc);
}

const MAX_DEPTH = 5;
/** The most schemas one example looks at (each property, branch and item counts one). */
export const MAX_EXAMPLE_VALUES = 20_000;

/** One example's walk: the schemas on the way down, and how many more may be looked at. */
interface Walk {
  seen: Set<Schema>;
  left: number;
}

function options(schema: Schema): Schema[] | undefined {
  const list = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return Array.isArray(list) && list.length > 0 ? list : undefined;
}

/** The first option that is not a deleted object's (`deleted: true`): what a read of a live one answers. */
export function liveOption(ctx: ExampleContext, schema: Schema): Schema {
  const resolved = resolve(ctx.doc, schema);
  const list = options(resolved);
  if (list === undefined) return resolved;
  const live = list.find(
    (option) => (resolve(ctx.doc, option).properties as Schema | undefined)?.deleted === undefined,
  );
  return resolve(ctx.doc, live ?? list[0]);
}

function stringExample(ctx: ExampleContext, schema: Schema, field: string): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  if (schema.format === 'date-time') return new Date(ctx.now).toISOString();
  if (schema.format === 'date') return new Date(ctx.now).toISOString().slice(0, 10);
  if (schema.format === 'uri' || schema.format === 'url' || field.endsWith('url')) return 'https://example.com';
  if (schema.format === 'email' || field === 'email') return 'jenny.rosen@example.com';
  if (field === 'currency') return 'usd';
  if (field === 'country') return 'US';
  return field === '' ? 'string' : field;
}

/** A field that holds a moment by its name (`created_at`, `expires_at`, `created`, `updated`). */
const MOMENT_FIELD = /(^|_)(at|created|updated|deleted|expires|timestamp)$/;

function numberExample(ctx: ExampleContext, schema: Schema, field: string): number {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return Number(schema.enum[0]);
  // A moment typed as an integer is in unix seconds (OpenAI's `created_at`), as the clock says.
  if (schema.format === 'unix-time' || (typeOf(schema) === 'integer' && MOMENT_FIELD.test(field))) {
    return Math.floor(ctx.now / 1000);
  }
  if (typeof schema.minimum === 'number') return schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
  return 0;
}

/**
 * A schema's one type: `type` itself, the first of a 3.1 list that is not `null` (`["string",
 * "null"]`), else what its members say (`properties`: an object, `items`: an array).
 */
export function typeOf(schema: Schema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return (type.find((one) => one !== 'null') ?? type[0]) as string | undefined;
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function objectExample(ctx: ExampleContext, schema: Schema, depth: number, walk: Walk): unknown {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  // Every property, so that a client's field has its place and the object looks whole (as a provider's
  // fixtures do); an optional object that cannot be null is left out (Stripe's `error` of a query run
  // would read as a failed request).
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(properties));
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const resolved = resolve(ctx.doc, property);
    const optionalObject =
      !allowsNull(ctx.doc, resolved) && (resolved.type === 'object' || resolved.properties !== undefined);
    if (!required.has(key) && optionalObject) continue;
    out[key] = sampleOf(ctx, property, key, depth + 1, walk);
  }
  const data = out.data;
  if (Array.isArray(data) && 'total_count' in out) out.total_count = data.length;
  return out;
}

function sampleOf(ctx: ExampleContext, raw: unknown, field: string, depth: number, walk: Walk): unknown {
  if (--walk.left < 0) return null;
  const schema = resolve(ctx.doc, raw);
  // A constant is the only value the schema allows (3.1's `const`, with or without a `type`).
  if (schema.const !== undefined) return structuredClone(schema.const);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return structuredClone(schema.examples[0]);
  if (depth > 0 && allowsNull(ctx.doc, schema)) return null;
  const { seen } = walk;
  if (seen.has(schema) || depth > MAX_DEPTH) return typeOf(schema) === 'array' ? [] : null;
  seen.add(schema);
  try {
    const list = options(schema);
    if (list !== undefined) return sampleOf(ctx, list[0], field, depth, walk);
    if (Array.isArray(schema.allOf)) {
      const merged: Record<string, unknown> = {};
      for (const part of schema.allOf) {
        const value = sampleOf(ctx, part, field, depth + 1, walk);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) Object.assign(merged, value);
        // A part that is no object (a choice of a string and an object, beside `{ nullable: true }`)
        // is what the whole is: merged into `{}` it would fit none of its branches.
        else if (value !== null) return value;
      }
      return merged;
    }
    switch (typeOf(schema)) {
      case 'string':
        return stringExample(ctx, schema, field);
      case 'integer':
      case 'number':
        return numberExample(ctx, schema, field);
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array':
        // The page of a list (a top-level array, or a list's `data`) holds one example item.
        return depth <= 1 && (field === '' || field === 'data') ? [sampleOf(ctx, schema.items, '', depth, walk)] : [];
      default:
        return schema.properties === undefined ? {} : objectExample(ctx, schema, depth, walk);
    }
  } finally {
    seen.delete(schema);
  }
}

/**
 * One example value of `schema` as a member `field` of an object has it (`null` where it takes
 * `null`), within `budget`'s schemas left to look at (shared with its caller's, and taken from it).
 */
export function memberExample(
  ctx: ExampleContext,
  schema: unknown,
  field: string,
  budget: { left: number } = { left: MAX_EXAMPLE_VALUES },
): unknown {
  const walk: Walk = { seen: new Set(), left: budget.left };
  const value = sampleOf(ctx, schema, field, 1, walk);
  budget.left = walk.left;
  return value;
}

/** One example value of `schema` (a top-level answer: a list's page gets one item). */
export function exampleOf(ctx: ExampleContext, schema: unknown): unknown {
  return sampleOf(ctx, schema, '', 0, { seen: new Set(), left: MAX_EXAMPLE_VALUES });
}
