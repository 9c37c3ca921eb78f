/**
 * A stored object as one operation's answer schema has it (docs/twins.md, "Any OpenAPI document"):
 * a document twin keeps one object per item, but its operations may answer different schemas of
 * it (OpenAI's group role: the create answers `{ object: "group.role", group, role }`, the read
 * and the list the role's details; a certificate's list names it `organization.certificate`).
 * Each answer is fitted to its own schema from the stored object: what fits is kept as stored, a
 * required member it lacks is taken from a member object of the same id (the assignment's `role`)
 * or made from its schema, a value of another type or outside its `const`/`enum` is made from its
 * schema, an `anyOf`/`oneOf` is fitted to the branch the value's constants and members choose.
 * The stored object is not changed. Bounded: depth {@link MAX_FIT_DEPTH}, and a budget of schemas
 * looked at per answer.
 *
 * @module
 */
import { membersOf } from './twin-document.js';
import {
  allowsNull,
  type ExampleContext,
  MAX_EXAMPLE_VALUES,
  memberExample,
  resolve,
  type Schema,
  typeOf,
} from './twin-example.js';

/** How deep an answer is fitted; below, values are kept as they are. */
const MAX_FIT_DEPTH = 8;
/**
 * The most schemas one answer's fit looks at, the values it makes included (as many as one example
 * looks at); past it, values are kept as they are and those made are `null`.
 */
const MAX_FIT_SCHEMAS = MAX_EXAMPLE_VALUES;

interface FitWalk {
  left: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function choicesOf(schema: Schema): Schema[] | undefined {
  const list = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return Array.isArray(list) && list.length > 0 ? list : undefined;
}

/** The `required` names of a schema and its `allOf` parts. */
function requiredOf(doc: Schema, raw: unknown, depth = 0): Set<string> {
  const schema = resolve(doc, raw);
  const out = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  if (Array.isArray(schema.allOf) && depth < 4) {
    for (const part of schema.allOf) for (const name of requiredOf(doc, part, depth + 1)) out.add(name);
  }
  return out;
}

/** The JSON type of a value as a schema names it (`integer` for a whole number). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a value of `kind` is of the schema type `type`. */
function ofType(kind: string, type: string): boolean {
  return kind === type || (kind === 'integer' && type === 'number');
}

/** A schema's type as a fit reads it: its own, else an object where `allOf` parts have members. */
function shapeOf(doc: Schema, schema: Schema): string | undefined {
  const own = typeOf(schema);
  if (own !== undefined) return own;
  return Array.isArray(schema.allOf) && Object.keys(membersOf(doc, schema)).length > 0 ? 'object' : undefined;
}

/** Whether `value` is one of the values a `const` or `enum` allows (`true` where it names none). */
function allowed(schema: Schema, value: unknown): boolean {
  if (schema.const !== undefined) return JSON.stringify(schema.const) === JSON.stringify(value);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.includes(value as never);
  return true;
}

/**
 * How well `value` matches the branch `raw` of a choice: `-1` where its type or one of its
 * constants (`type: "custom"`) says no, else how many of the value's members the branch has.
 */
function score(doc: Schema, value: unknown, raw: unknown): number {
  const branch = resolve(doc, raw);
  const kind = kindOf(value);
  if (kind === 'null') return allowsNull(doc, branch) ? 1 : -1;
  const type = shapeOf(doc, branch);
  if (type !== undefined && !ofType(kind, type)) return -1;
  if (!allowed(branch, value)) return -1;
  if (!isPlainObject(value)) return 0;
  const members = membersOf(doc, branch);
  let matched = 0;
  for (const [key, member] of Object.entries(members)) {
    if (!(key in value)) continue;
    const fixed = member.const !== undefined || Array.isArray(member.enum);
    if (fixed && !allowed(member, value[key])) return -1;
    matched += fixed ? 2 : 1;
  }
  return matched;
}

/** `value` fitted to the schema `raw` (see the module's description). */
function fit(ctx: ExampleContext, value: unknown, raw: unknown, field: string, depth: number, walk: FitWalk): unknown {
  if (--walk.left < 0 || depth > MAX_FIT_DEPTH) return value;
  const schema = resolve(ctx.doc, raw);
  if (!allowed(schema, value)) return memberExample(ctx, schema, field, walk);
  if (value === null)
    return allowsNull(ctx.doc, schema) || nullChoice(ctx.doc, schema) ? null : made(ctx, schema, field, walk);
  const choices = choicesOf(schema);
  if (choices !== undefined) {
    let best: Schema | undefined;
    let bestScore = -1;
    for (const choice of choices) {
      const found = score(ctx.doc, value, choice);
      if (found > bestScore) [best, bestScore] = [choice, found];
    }
    return best === undefined ? made(ctx, schema, field, walk) : fit(ctx, value, best, field, depth + 1, walk);
  }
  const type = shapeOf(ctx.doc, schema);
  if (type === undefined) return value;
  if (!ofType(kindOf(value), type)) return made(ctx, schema, field, walk);
  if (type === 'array') {
    return (value as unknown[]).map((one) => fit(ctx, one, schema.items, '', depth + 1, walk));
  }
  if (type !== 'object') return value;
  return fitObject(ctx, value as Record<string, unknown>, schema, depth, walk);
}

/** Whether one of a schema's `anyOf`/`oneOf` branches takes `null`. */
function nullChoice(doc: Schema, schema: Schema): boolean {
  return choicesOf(schema)?.some((choice) => allowsNull(doc, resolve(doc, choice))) ?? false;
}

/** A value made from the schema alone (a choice's first branch that is not `null`). */
function made(ctx: ExampleContext, schema: Schema, field: string, walk: FitWalk): unknown {
  const choices = choicesOf(schema);
  const live = choices?.find((choice) => !allowsNull(ctx.doc, resolve(ctx.doc, choice)));
  return memberExample(ctx, live === undefined ? schema : resolve(ctx.doc, live), field, walk);
}

function fitObject(
  ctx: ExampleContext,
  value: Record<string, unknown>,
  schema: Schema,
  depth: number,
  walk: FitWalk,
): Record<string, unknown> {
  const members = membersOf(ctx.doc, schema);
  const required = requiredOf(ctx.doc, schema);
  // A member object of the same id holds what the object lacks (an assignment's `role`, read as the role).
  const same = Object.values(value).filter(
    (one): one is Record<string, unknown> => isPlainObject(one) && one.id !== undefined && one.id === value.id,
  );
  const out: Record<string, unknown> = {};
  for (const [key, one] of Object.entries(value)) {
    if (schema.additionalProperties === false && !(key in members)) continue;
    const member = members[key];
    out[key] = member === undefined ? one : fit(ctx, one, member, key, depth + 1, walk);
  }
  for (const key of required) {
    if (key in out) continue;
    const member = members[key] ?? {};
    const from = same.find((one) => key in one);
    out[key] = from === undefined ? made(ctx, member, key, walk) : fit(ctx, from[key], member, key, depth + 1, walk);
  }
  return out;
}

/** `value` as the schema `schema` has it, made from what it holds; `value` itself is not changed. */
export function fitted(ctx: ExampleContext, value: unknown, schema: Schema | undefined): unknown {
  if (schema === undefined) return value;
  return fit(ctx, value, schema, '', 0, { left: MAX_FIT_SCHEMAS });
}
