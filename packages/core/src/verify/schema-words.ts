/**
 * A value's schema errors (the validator's output units, answer/routes/json-schema)
 * as verify's findings say them to a person: one finding per thing wrong, at
 * the value it is about, in words — `items[0].id is a string; the schema wants
 * an integer`, `items[0].nickname is not allowed by the schema` — not the
 * validator's own text. A keyword that only applied a subschema (additional
 * properties, pattern properties, `if`, …) is said by the errors beneath it, so
 * an extra property under `additionalProperties: false` is one finding, not two.
 *
 * @module
 */
import type { OutputUnit } from '../answer/routes/json-schema/schema-output.js';
import type { SchemaProgram } from '../answer/routes/json-schema/schema-program.js';
import { pointer } from './openapi-document.js';
import { shown } from './verify-collector.js';

/** One finding of a schema check: where (below the checked value), what the schema wants, what is there, in words. */
export interface SchemaWords {
  /** A JSON pointer below the checked value (`/items/0/id`; `''` for the value itself). */
  path: string;
  expected: string;
  found: string;
  /** The finding as a sentence. */
  says: string;
}

/** Keywords that apply a subschema to a part of the value: the errors beneath them say what failed. */
const APPLIERS: ReadonlySet<string> = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'patternProperties',
  'propertyNames',
  'dependentSchemas',
  'additionalItems',
  'unevaluatedItems',
  'items',
  'prefixItems',
  'if',
  '$recursiveRef',
]);

/** A type as a sentence names it. */
const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeWords(type: unknown): string {
  const names = (Array.isArray(type) ? type : [type]).map((name) => TYPE_WORDS[String(name)] ?? String(name));
  return names.length <= 1 ? (names[0] ?? 'nothing') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** What a value is, as a sentence names its type. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return TYPE_WORDS[typeof value] ?? typeof value;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function decodeSegment(raw: string): string {
  return decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * A pointer below the value as a person reads it: `/items/0/id` → `items[0].id`,
 * `/0/id` → `[0].id` after `root`'s name; `''` → `what` (`the body`).
 */
export function readablePath(path: string, what: string, root: string): string {
  if (path === '') return what;
  let out = '';
  for (const raw of path.split('/').slice(1)) {
    const key = decodeSegment(raw);
    if (/^(?:0|[1-9]\d*)$/.test(key)) out += `[${key}]`;
    else if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out.startsWith('[') ? `${root}${out}` : out;
}

/** The value of the keyword at `location` (`#/items/$ref/properties/id/type`) in the schema, `$ref`s followed. */
function keywordValue(program: SchemaProgram, schema: unknown, location: string): unknown {
  let at = schema;
  for (const raw of location.split('/').slice(1)) {
    if (typeof at !== 'object' || at === null) return undefined;
    const node = at as Record<string, unknown>;
    if (raw === '$ref' && typeof node.$ref === 'string') {
      at = program.lookup[(node.__absolute_ref__ as string | undefined) ?? node.$ref];
    } else at = node[decodeSegment(raw)];
  }
  return at;
}

/** The text after `prefix` in a validator message, without its final dot. */
function after(message: string, prefix: string): string {
  const rest = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return rest.endsWith('.') ? rest.slice(0, -1) : rest;
}

/** What a unit says, read by a keyword's own words. */
interface Unit {
  unit: OutputUnit;
  /** The value the unit is about. */
  value: unknown;
  /** The keyword's value in the schema (`undefined` when it could not be read). */
  wants: unknown;
  /** The value's name in a sentence (`items[0].id`). */
  name: string;
}

type Words = Omit<SchemaWords, 'path'> & { path?: string };

/** `1 item`, `2 items`. */
function count(size: unknown, what: string): string {
  return `${String(size)} ${size === 1 ? what : what === 'property' ? 'properties' : `${what}s`}`;
}

function bound(u: Unit, what: string, size: number, least: boolean): Words {
  const wants = `${least ? 'at least' : 'at most'} ${count(u.wants, what)}`;
  const has = count(size, what);
  return { expected: wants, found: has, says: `${u.name} has ${has}; the schema wants ${wants}` };
}

function numberBound(u: Unit, words: string): Words {
  const expected = `${words} ${String(u.wants)}`;
  return { expected, found: shown(u.value), says: `${u.name} is ${shown(u.value)}; the schema wants ${expected}` };
}

/** The words of each keyword (the rest are said by {@link otherWords}). */
const KEYWORDS: Record<string, (u: Unit) => Words> = {
  type: (u) => {
    const named = /Expected "(.*)"\.$/s.exec(u.unit.error)?.[1]?.split('", "');
    const expected = typeWords(u.wants ?? named);
    return { expected, found: shown(u.value), says: `${u.name} is ${kindOf(u.value)}; the schema wants ${expected}` };
  },
  false: (u) => ({
    expected: 'nothing here (the schema allows no such value)',
    found: shown(u.value),
    says: `${u.name} is not allowed by the schema`,
  }),
  enum: (u) => {
    const expected = `one of ${after(u.unit.error, 'Instance does not match any of ')}`;
    return { expected, found: shown(u.value), says: `${u.name} is ${shown(u.value)}; the schema wants ${expected}` };
  },
  const: (u) => {
    const expected = `exactly ${after(u.unit.error, 'Instance does not match ')}`;
    return { expected, found: shown(u.value), says: `${u.name} is ${shown(u.value)}; the schema wants ${expected}` };
  },
  format: (u) => {
    const expected = `a ${String(u.wants)} string`;
    return { expected, found: shown(u.value), says: `${u.name} is ${shown(u.value)}, not ${expected}` };
  },
  pattern: (u) => {
    const expected = `a string matching the pattern ${shown(u.wants)}`;
    return { expected, found: shown(u.value), says: `${u.name} is ${shown(u.value)}; the schema wants ${expected}` };
  },
  minimum: (u) => numberBound(u, 'at least'),
  maximum: (u) => numberBound(u, 'at most'),
  exclusiveMinimum: (u) => numberBound(u, 'more than'),
  exclusiveMaximum: (u) => numberBound(u, 'less than'),
  multipleOf: (u) => numberBound(u, 'a multiple of'),
  minLength: (u) => bound(u, 'character', [...String(u.value)].length, true),
  maxLength: (u) => bound(u, 'character', [...String(u.value)].length, false),
  minItems: (u) => bound(u, 'item', Array.isArray(u.value) ? u.value.length : 0, true),
  maxItems: (u) => bound(u, 'item', Array.isArray(u.value) ? u.value.length : 0, false),
  minProperties: (u) => bound(u, 'property', Object.keys(u.value ?? {}).length, true),
  maxProperties: (u) => bound(u, 'property', Object.keys(u.value ?? {}).length, false),
  anyOf: (u) => ({
    expected: 'at least one of its anyOf choices',
    found: shown(u.value),
    says: `${u.name} fits none of the schema's anyOf choices`,
  }),
  oneOf: (u) => {
    const matches = /\((\d+) matches\)/.exec(u.unit.error)?.[1] ?? '0';
    return {
      expected: 'exactly one of its oneOf choices',
      found: `${shown(u.value)} (fits ${matches})`,
      says: `${u.name} fits ${matches === '0' ? 'none' : matches} of the schema's oneOf choices; it wants exactly one`,
    };
  },
  not: (u) => ({
    expected: 'not to fit its not schema',
    found: shown(u.value),
    says: `${u.name} fits a schema it must not`,
  }),
};

/** A required property that is not there: said at the property's own path. */
function requiredWords(u: Unit, root: string): Words {
  const key = /^Instance does not have required property "(.*)"\.$/s.exec(u.unit.error)?.[1] ?? '';
  const path = `${u.unit.instanceLocation.slice(1)}/${encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))}`;
  const name = readablePath(path, key, root);
  return {
    path,
    expected: `the property ${JSON.stringify(key)}`,
    found: 'nothing',
    says: `${name} is missing; the schema requires it`,
  };
}

function otherWords(u: Unit): Words {
  const error = u.unit.error.endsWith('.') ? u.unit.error.slice(0, -1) : u.unit.error;
  return {
    expected: `to fit its ${u.unit.keyword}`,
    found: shown(u.value),
    says: `${u.name} does not fit the schema's ${u.unit.keyword}: ${error}`,
  };
}

/** Whether `next` is an error beneath `unit` (a subschema it applied). */
function beneath(unit: OutputUnit, next: OutputUnit | undefined): boolean {
  if (next === undefined) return false;
  return next.keywordLocation === unit.keywordLocation || next.keywordLocation.startsWith(`${unit.keywordLocation}/`);
}

/**
 * The findings of a check of `value` against `schema` (compiled as `program`):
 * `what` names the value itself (`the body`), `root` its path's start (`body`).
 */
export function schemaWords(
  units: readonly OutputUnit[],
  value: unknown,
  schema: unknown,
  program: SchemaProgram,
  names: { what: string; root: string },
): SchemaWords[] {
  const out: SchemaWords[] = [];
  for (const [index, unit] of units.entries()) {
    // Inside an anyOf/oneOf, each branch's failure is noise: the anyOf's own error says it.
    if (/\/(?:anyOf|oneOf)\/\d+(?:\/|$)/.test(unit.keywordLocation)) continue;
    if (APPLIERS.has(unit.keyword) && beneath(unit, units[index + 1])) continue;
    const path = unit.instanceLocation.slice(1);
    const u: Unit = {
      unit,
      value: pointer(value, unit.instanceLocation),
      wants: keywordValue(program, schema, unit.keywordLocation),
      name: readablePath(path, names.what, names.root),
    };
    const said = unit.keyword === 'required' ? requiredWords(u, names.root) : (KEYWORDS[unit.keyword] ?? otherWords)(u);
    out.push({ path, ...said });
  }
  return out;
}
