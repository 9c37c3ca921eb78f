/**
 * What an OpenAPI import costs, counted before the work is done. load-openapi.ts
 * resolves each `$ref` once and shares it, so a document is a graph whose shared
 * parts are held once; but a sampled answer and the mock file's text are trees,
 * where every shared part is copied again at each place it is used. A few KB of
 * schemas or examples that refer to each other twice per level would expand to
 * gigabytes. Both counts here walk the graph once (each shared node counted once
 * per depth, then reused) and stop counting at a cap, so they cost the size of
 * the document, not of its expansion.
 *
 * @module
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The values `value` expands to as a tree (every object, array and scalar counted
 * once per place it appears), counted up to `cap` (a count past it answers `cap + 1`).
 */
export function expandedValues(value: unknown, cap: number): number {
  const counted = new Map<object, number>();
  const count = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 1;
    const known = counted.get(node);
    if (known !== undefined) return known;
    let sum = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      sum += count(child);
      if (sum > cap) break;
    }
    const total = Math.min(sum, cap + 1);
    counted.set(node, total);
    return total;
  };
  return count(value);
}

/** openapi-sampler's default `maxSampleDepth`: how deep it samples nested objects and arrays. */
export const SAMPLE_DEPTH = 15;

/**
 * An upper bound of the schema nodes openapi-sampler visits to sample `schema`
 * with `maxSampleDepth: depth`, counted up to `cap`: properties and array items
 * one level deeper (cut past `depth`), array items as many times as the sample
 * has items (`minItems`), additional properties twice, and every `allOf`
 * branch, the first `oneOf` (else `anyOf`) and `if`/`then` at the same level. A schema with an
 * example (or `const`, `examples`, `enum`, `default`) is one node: its value is
 * counted with {@link expandedValues}. One {@link SampleWork} is shared by the
 * schemas of one document: a node is counted once per remaining depth.
 */
export class SampleWork {
  readonly #counted = new WeakMap<object, number[]>();

  constructor(readonly cap: number) {}

  /** The bound for `schema` sampled at `depth`. */
  of(schema: unknown, depth: number): number {
    // The sampler's root is at depth 1; a node below depth `depth` is not sampled further.
    return this.#count(schema, depth - 1);
  }

  #count(schema: unknown, left: number): number {
    if (!isObject(schema) || left < 0) return 1;
    const known = this.#counted.get(schema);
    const atDepth = known?.[left];
    if (atDepth !== undefined) return atDepth;
    const total = Math.min(this.#walk(schema, left), this.cap + 1);
    if (known === undefined) this.#counted.set(schema, Object.assign([], { [left]: total }));
    else known[left] = total;
    return total;
  }

  #walk(schema: Json, left: number): number {
    if (
      schema.example !== undefined ||
      schema.const !== undefined ||
      (Array.isArray(schema.examples) && schema.examples.length > 0) ||
      (Array.isArray(schema.enum) && schema.enum.length > 0) ||
      schema.default !== undefined
    ) {
      return 1;
    }
    let sum = 1;
    const add = (child: unknown, childLeft: number, times = 1) => {
      if (sum <= this.cap) sum += times * this.#count(child, childLeft);
    };
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) add(branch, left);
    // The first oneOf is sampled, else the first anyOf; never both.
    const [first] =
      Array.isArray(schema.oneOf) && schema.oneOf.length > 0
        ? schema.oneOf
        : Array.isArray(schema.anyOf)
          ? schema.anyOf
          : [];
    add(first, left);
    add(schema.if, left);
    add(schema.then, left);
    if (isObject(schema.properties)) for (const property of Object.values(schema.properties)) add(property, left - 1);
    if (isObject(schema.additionalProperties)) add(schema.additionalProperties, left - 1, 2);
    // As many items as the sample has: minItems (at least 1), at most maxItems, at least the prefix.
    const minItems = typeof schema.minItems === 'number' && schema.minItems > 1 ? schema.minItems : 1;
    const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
    const length = Math.min(minItems, maxItems);
    for (const key of ['prefixItems', 'items', 'contains'] as const) {
      const items = schema[key];
      if (Array.isArray(items)) {
        for (const item of items) add(item, left - 1);
        if (length > items.length) add({}, left - 1, length - items.length);
      } else if (isObject(items)) {
        add(items, left - 1, Math.max(length, 0));
      }
    }
    return sum;
  }
}
