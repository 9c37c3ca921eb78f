/**
 * A JSON Schema made ready to check values with, once per route: its references
 * resolved (`@cfworker/json-schema`'s `dereference`), and, per schema object on
 * first use, its `pattern` and `patternProperties` compiled by RE2 and its `enum`
 * and `const` kept in hashed sets. A run counts its steps and its depth, so
 * no schema and no request can block the event loop or overflow the stack: past
 * {@link MAX_STEPS} or {@link MAX_DEPTH} the run stops with a {@link SchemaLimitError}.
 *
 * @module
 */
import { dereference, type Schema } from '@cfworker/json-schema';
import { compilePattern, type SchemaPattern } from '../../../pattern/schema-pattern.js';
import { JsonSet } from './json-equality.js';

/** A JSON Schema object (boolean schemas are handled before one is read). */
export type SchemaObject = Record<string, unknown>;

/**
 * The most steps one check may take: a step is one schema applied to one value,
 * one value looked up or compared (`enum`, `const`, `uniqueItems`),
 * or one string matched (and one more per 64 characters): it bounds the time a
 * request's check may take (docs/performance.md has the figure); a schema whose
 * `anyOf` branches each recurse costs steps exponential in the body's depth, and
 * meets it.
 */
export const MAX_STEPS = 200_000;

/**
 * The most schemas applied inside one another: a tree 400 levels deep through a
 * `$ref` and its `properties` takes 800 (the validator before this port overflowed
 * the stack below 300); a `$ref` cycle that stays on one value (refused when a
 * route is saved) meets it at once, before the stack's end.
 */
export const MAX_DEPTH = 800;

/** A check stopped by a bound (its message says which); the request gets it as its error. */
export class SchemaLimitError extends Error {}

/** A keyword's values kept for lookup, and the message that names them (cut short). */
export interface ValueSet {
  values: JsonSet;
  message: string;
}

/** Building a schema's sets is not a request's work: not counted. */
const FREE = { step() {} };

/** Characters of the values a failing `enum`/`const` message quotes. */
const MAX_QUOTED = 300;

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/** A schema ready to check values with; one per route and part, shared by all its requests. */
export class SchemaProgram {
  readonly root: Schema | boolean;
  readonly lookup: Record<string, Schema | boolean>;
  /** By source: only the schema's own patterns, so bounded by the schema. */
  readonly #patterns = new Map<string, SchemaPattern>();
  readonly #enums = new WeakMap<object, ValueSet>();
  readonly #consts = new WeakMap<object, ValueSet>();

  /** Throws when the schema's references cannot be resolved (the message says why). */
  constructor(schema: Schema | boolean) {
    this.root = schema;
    this.lookup = dereference(schema);
  }

  /** `source` compiled by RE2 (once per schema); a pattern RE2 refuses (a route saved before) stops the check. */
  /**
   * Steps to charge before matching a text of `length` against `pattern`: RE2 is
   * linear in the text, but each character costs about (a constant plus) the
   * program's size, so a pattern such as `(a|ab){1,20}){1,40}` (6,443
   * instructions) costs far more per character than `^[a-z]+@…` (13; the measured
   * ratio is in docs/performance.md). Charged before the match, so a costly one is
   * stopped before it runs.
   */
  patternSteps(pattern: SchemaPattern, length: number): number {
    return 1 + Math.floor((length * (32 + pattern.programSize())) / 256);
  }

  pattern(source: string): SchemaPattern {
    let compiled = this.#patterns.get(source);
    if (compiled === undefined) {
      const result = compilePattern(source);
      if (typeof result === 'string') throw new SchemaLimitError(`pattern ${JSON.stringify(source)}: ${result}`);
      compiled = result;
      this.#patterns.set(source, compiled);
    }
    return compiled;
  }

  /** The schema's `enum`, kept for lookup. */
  enumOf(schema: SchemaObject, values: unknown[]): ValueSet {
    let set = this.#enums.get(schema);
    if (set === undefined) {
      const kept = new JsonSet();
      for (let i = 0; i < values.length; i++) kept.addOrFind(values[i], i, FREE);
      set = { values: kept, message: `Instance does not match any of ${quoted(values)}.` };
      this.#enums.set(schema, set);
    }
    return set;
  }

  /** The schema's `const`, kept for lookup. */
  constOf(schema: SchemaObject, value: unknown): ValueSet {
    let set = this.#consts.get(schema);
    if (set === undefined) {
      const kept = new JsonSet();
      kept.addOrFind(value, 0, FREE);
      set = { values: kept, message: `Instance does not match ${quoted(value)}.` };
      this.#consts.set(schema, set);
    }
    return set;
  }
}

/** One check's counters. */
export class Run {
  readonly program: SchemaProgram;
  steps = 0;
  depth = 0;

  constructor(program: SchemaProgram) {
    this.program = program;
  }

  /** Counts `n` steps; past {@link MAX_STEPS}, stops the check. */
  step(n = 1): void {
    this.steps += n;
    if (this.steps > MAX_STEPS) {
      throw new SchemaLimitError(
        `checking the request took more than ${MAX_STEPS} steps of the schema, so it was stopped (anyOf/oneOf branches that each recurse cost steps exponential in the body's depth)`,
      );
    }
  }

  /** Enters one more schema inside the others; past {@link MAX_DEPTH}, stops the check. */
  enter(instanceLocation: string): void {
    if (++this.depth > MAX_DEPTH) {
      throw new SchemaLimitError(
        `the schema applies more than ${MAX_DEPTH} schemas inside one another at ${instanceLocation || '/'} (a $ref cycle that stays on one value?), so the request was not checked`,
      );
    }
  }
}
