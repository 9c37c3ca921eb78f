/**
 * A request value a document's schema takes, for the document walk (document-walk.ts): its
 * required members only, each the schema's `example`, `const`, first `enum` value or `default`,
 * else one made from its type and format; an `anyOf`/`oneOf` by its first branch that is not
 * `null`, an `allOf` by its parts merged. A required string member named `…_id` (or `…_ids`) is
 * asked of `reference`, which makes an object of the collection it names (the twin refuses, with
 * its default `unseen`, an id it never made).
 *
 * @module
 */

type Json = Record<string, unknown>;

/** Schemas followed into one another at most (a recursive schema ends here). */
const MAX_DEPTH = 12;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/components/schemas/X`) into `root`, hop after hop. */
export function resolved(root: Json, node: unknown): Json {
  let at = node;
  for (let hop = 0; hop < 16 && isObject(at) && typeof at.$ref === 'string'; hop++) {
    let next: unknown = root;
    for (const key of at.$ref.slice(2).split('/')) {
      next = isObject(next) ? next[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    }
    at = next;
  }
  return isObject(at) ? at : {};
}

/** Makes an object of the collection an id field names, and answers its id (`undefined`: none fits). */
export type Reference = (field: string) => Promise<string | undefined>;

/** The first branch of an `anyOf`/`oneOf` that is not `null`. */
function branch(root: Json, branches: unknown[]): Json {
  const schemas = branches.map((item) => resolved(root, item));
  return schemas.find((schema) => schema.type !== 'null' && !('const' in schema && schema.const === null)) ?? {};
}

/** A string of `format`. */
function stringOf(format: unknown): string {
  if (format === 'date-time') return '2026-01-01T00:00:00Z';
  if (format === 'date') return '2026-01-01';
  if (format === 'email') return 'walk@example.com';
  if (format === 'uri' || format === 'url') return 'https://example.com/walk';
  return 'walk';
}

/** A value `schema` takes: required members only. */
export async function sampleOf(
  root: Json,
  node: unknown,
  reference: Reference,
  depth = 0,
  name = '',
): Promise<unknown> {
  const schema = resolved(root, node);
  if (depth > MAX_DEPTH) return undefined;
  if (name !== '' && /_ids?$/.test(name) && !('enum' in schema)) {
    const id = await reference(name.replace(/s$/, ''));
    if (id !== undefined) return name.endsWith('s') ? [id] : id;
  }
  if ('const' in schema) return schema.const;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      return sampleOf(root, branch(root, branches), reference, depth + 1, name);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Json = {};
    for (const part of schema.allOf) {
      const value = await sampleOf(root, part, reference, depth + 1, name);
      if (isObject(value)) Object.assign(merged, value);
    }
    const own = await objectOf(root, schema, reference, depth);
    return { ...merged, ...(own ?? {}) };
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || isObject(schema.properties)) return (await objectOf(root, schema, reference, depth)) ?? {};
  if (type === 'array') {
    const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) items.push(await sampleOf(root, schema.items, reference, depth + 1, name));
    return items;
  }
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return false;
  return stringOf(schema.format);
}

/** The required members of an object schema, each sampled. */
async function objectOf(root: Json, schema: Json, reference: Reference, depth: number): Promise<Json | undefined> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (required.length === 0 && !isObject(schema.properties)) return undefined;
  const out: Json = {};
  for (const member of required) {
    const value = await sampleOf(root, properties[member] ?? {}, reference, depth + 1, member);
    if (value !== undefined) out[member] = value;
  }
  return out;
}
