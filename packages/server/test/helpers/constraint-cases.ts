/**
 * The cases of the constraint fuzz (twin-constraints-fuzz.test.ts), read from a provider's OpenAPI
 * document: for a write operation (`POST`, `PUT`, `PATCH` with a body), a body every required
 * parameter of which has a valid value, and, per parameter whose schema states a constraint
 * (`enum`, `pattern`, `minLength`, `maxLength`, `minimum`, `maximum`, `format`, `type`, `required`,
 * `oneOf`/`anyOf`), that body with one value the constraint refuses, drawn by a seeded PRNG.
 *
 * @module
 */
import { randomText } from '@mockpoint/testkit/random-text';

type Schema = Record<string, unknown>;

/** One write operation of the document. */
export interface WriteOperation {
  method: 'POST' | 'PUT' | 'PATCH';
  template: string;
  /** The path, each parameter given a valid value. */
  path: string;
  /** The body's schema, `$ref`s resolved at its top. */
  body: Schema;
}

/** One request the document forbids: the body, and the parameter it breaks (as the twin names it). */
export interface BadCase {
  body: Record<string, unknown>;
  param: string;
  keyword: string;
}

/** `schema` with its `$ref` (`#/components/schemas/x`) followed, ten at most. */
export function resolved(doc: Schema, schema: unknown): Schema {
  let current = (schema ?? {}) as Schema;
  for (let i = 0; i < 10 && typeof current.$ref === 'string'; i++) {
    let node: unknown = doc;
    for (const part of current.$ref.slice(2).split('/')) node = (node as Schema)[part.replace(/~1/g, '/')];
    current = (node ?? {}) as Schema;
  }
  return current;
}

/** A valid value of a path parameter. */
function pathValue(doc: Schema, param: Schema, name: string): string {
  const schema = resolved(doc, param.schema);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'integer' || schema.type === 'number') return '1';
  return name === 'owner' ? 'octocat' : `${name}_fuzz1`;
}

/**
 * Every write operation of `doc` whose body is an object of properties; `additions` (Stripe's, from
 * stripe-node's types) leave the names an SDK no longer declares out of a body's `required`.
 */
export function writeOperations(
  doc: Schema,
  additions: Record<string, { optional?: string[] }> = {},
): WriteOperation[] {
  const out: WriteOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const method of ['post', 'put', 'patch'] as const) {
      const operation = item[method];
      if (operation === undefined) continue;
      const content = (resolved(doc, operation.requestBody).content ?? {}) as Record<string, Schema>;
      const media = content['application/x-www-form-urlencoded'] ?? content['application/json'];
      const documented = resolved(doc, media?.schema);
      if (media === undefined || documented.properties === undefined) continue;
      const optional = additions[`${method.toUpperCase()} ${template}`]?.optional ?? [];
      const required = ((documented.required as string[] | undefined) ?? []).filter((name) => !optional.includes(name));
      const body = { ...documented, required };
      const params = [
        ...((item.parameters as unknown as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ].map((param) => resolved(doc, param));
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const param = params.find((p) => p.in === 'path' && p.name === name) ?? {};
        return encodeURIComponent(pathValue(doc, param, name));
      });
      out.push({ method: method.toUpperCase() as WriteOperation['method'], template, path, body });
    }
  }
  return out;
}

/** The options of an `anyOf` / `oneOf`, resolved (one: the schema itself). */
function optionsOf(doc: Schema, schema: Schema): Schema[] {
  const list = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  return Array.isArray(list) ? list.map((option) => resolved(doc, option)) : [schema];
}

/** A valid value of `schema` (`undefined`: none this fuzz can make, e.g. a pattern). */
export function validValue(doc: Schema, raw: unknown, depth = 0): unknown {
  const schema = resolved(doc, raw);
  const option = optionsOf(doc, schema).find((o) => o.type !== undefined && o.enum?.toString() !== '') ?? schema;
  if (depth > 4 || typeof option.pattern === 'string') return undefined;
  if (Array.isArray(option.enum)) return option.enum.find((value) => value !== '' && value !== null);
  switch (option.type) {
    case 'string':
      if (option.format === 'date-time') return '2026-01-15T10:00:00Z';
      if (option.format === 'date') return '2026-01-15';
      if (option.format === 'uri') return 'https://example.com/fuzz';
      if (option.format === 'email') return 'fuzz@example.com';
      return 'fuzz'.padEnd(typeof option.minLength === 'number' ? option.minLength : 0, 'z');
    case 'integer':
    case 'number':
      return typeof option.minimum === 'number' ? Math.max(option.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array': {
      const member = validValue(doc, option.items, depth + 1);
      return member === undefined ? undefined : [member];
    }
    case 'object':
      return requiredBody(doc, option, depth + 1);
    default:
      return undefined;
  }
}

/**
 * An object of `schema`'s required members, each valid (`undefined`: one cannot be made). Below the
 * top, an object none of whose members is required holds one all the same (a form sends no empty
 * object): its first member that can be made, or a key of its own when it takes any.
 */
function requiredBody(doc: Schema, schema: Schema, depth = 0): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const key of (schema.required as string[] | undefined) ?? []) {
    const value = validValue(doc, properties[key], depth);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  if (depth === 0 || Object.keys(out).length > 0) return out;
  for (const [key, member] of Object.entries(properties)) {
    const value = validValue(doc, member, depth);
    if (value !== undefined && !(typeof value === 'object' && Object.keys(value as object).length === 0)) {
      return { [key]: value };
    }
  }
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false) return undefined;
  const value = extra === true ? 'value' : validValue(doc, extra, depth + 1);
  return value === undefined ? undefined : { fuzz: value };
}

/** A word no enum of a document holds. */
function notAWord(random: () => number): string {
  return `zz_not_${Math.floor(random() * 1e6)}`;
}

/**
 * Values `schema` refuses, each with the keyword it breaks; for an `anyOf`/`oneOf`, only those every
 * option refuses (a type none of them is). `form`: the body is a form, every value text.
 */
function badValues(doc: Schema, schema: Schema, random: () => number, form: boolean): [unknown, string][] {
  const options = optionsOf(doc, schema);
  const types = new Set(options.map((option) => option.type));
  if (options.length > 1) {
    if (types.has(undefined)) return [];
    if (!types.has('object') && !types.has('array')) return [[{ fuzz: 'x' }, 'oneOf']];
    if (!form && !types.has('string') && !types.has('integer') && !types.has('number')) return [['text', 'oneOf']];
    return [];
  }
  const out: [unknown, string][] = [];
  // An enum the provider keeps adding to (Stripe's `x-stripeBypassValidation`, docs/twins.md "Enums of
  // an older document") takes a value outside it: no case.
  const open = schema['x-stripeBypassValidation'] === true;
  if (Array.isArray(schema.enum) && !open && schema.enum.every((value) => typeof value === 'string')) {
    out.push([notAWord(random), 'enum']);
  }
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern);
    const miss = [randomText(random, 3 + Math.floor(random() * 10)), '!!', ' '].find((text) => !pattern.test(text));
    if (miss !== undefined && !(form && miss === '')) out.push([miss, 'pattern']);
  }
  if (typeof schema.minLength === 'number' && schema.minLength > (form ? 1 : 0)) {
    out.push(['x'.repeat(schema.minLength - 1), 'minLength']);
  }
  if (typeof schema.maxLength === 'number' && schema.maxLength < 100_000) {
    out.push(['x'.repeat(schema.maxLength + 1 + Math.floor(random() * 10)), 'maxLength']);
  }
  const step = 1 + Math.floor(random() * 1000);
  if (typeof schema.minimum === 'number') out.push([schema.minimum - step, 'minimum']);
  if (typeof schema.maximum === 'number') out.push([schema.maximum + step, 'maximum']);
  if (['date-time', 'date', 'uri', 'email'].includes(String(schema.format))) out.push(['not a value', 'format']);
  if (schema.type === 'boolean') out.push(['maybe', 'type']);
  if (schema.type === 'integer') out.push([form ? 'twelve' : 12.5, 'type']);
  if (schema.type === 'object' || schema.type === 'array') out.push(['plain text', 'type']);
  if (schema.type === 'string' && !form) out.push([random() < 0.5 ? 12345 : true, 'type']);
  return out;
}

/** A member's name below `at`, as the twin names it (`items[0][price]`). */
function below(at: string, key: string): string {
  return at === '' ? key : `${at}[${key}]`;
}

/**
 * The cases of one operation: per property (and the properties of an object property, one level
 * down), each value its schema refuses set into a body valid otherwise, and each required top-level
 * property left out. `undefined`: the operation's required body cannot be made.
 */
export function badCases(
  doc: Schema,
  operation: WriteOperation,
  random: () => number,
  form: boolean,
): BadCase[] | undefined {
  const base = requiredBody(doc, operation.body);
  if (base === undefined) return undefined;
  const cases: BadCase[] = [];
  /** The cases of `schema`'s properties, each value set by `into` in a body otherwise valid. */
  const walk = (schema: Schema, at: string, into: (key: string, value: unknown) => Record<string, unknown>) => {
    for (const [key, raw] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
      const member = resolved(doc, raw);
      if (member.readOnly === true) continue;
      for (const [value, keyword] of badValues(doc, member, random, form)) {
        cases.push({ body: into(key, value), param: below(at, key), keyword });
      }
      // One level down: an object parameter's own members (`config[url]`, `recurring[interval]`).
      const inner = at === '' && member.type === 'object' ? requiredBody(doc, member, 1) : undefined;
      if (inner !== undefined) walk(member, key, (k, value) => ({ ...base, [key]: { ...inner, [k]: value } }));
    }
  };
  walk(operation.body, '', (key, value) => ({ ...base, [key]: value }));
  for (const key of (operation.body.required as string[] | undefined) ?? []) {
    const { [key]: _, ...without } = base;
    cases.push({ body: without, param: key, keyword: 'required' });
  }
  return cases;
}

/** `body` as a form, as stripe-node encodes it (`a[b]=c`, `list[0]=x`). */
export function formOf(body: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  const add = (value: unknown, at: string) => {
    if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) add(member, below(at, key));
    } else form.append(at, String(value));
  };
  add(body, '');
  return form;
}
