/**
 * A JSON Schema (2020-12) interpreter: `@cfworker/json-schema`'s `validate`
 * (MIT, Jeremy Danyow; the notice is in packages/core/THIRD_PARTY_NOTICES.md),
 * ported so that every step is bounded. Its errors (the "basic" output units) and its keyword semantics are the same; what differs:
 * `pattern`/`patternProperties` run by RE2 in linear time; `enum`, `const` and
 * `uniqueItems` look values up by a structural hash; every schema applied
 * counts a step and a level of depth ({@link Run}); the `url` format, whose
 * regular expression backtracks exponentially, is not asserted (an annotation,
 * as an unknown format is). Errors are never cut short (all are listed).
 *
 * @module
 */
import type { Schema } from '@cfworker/json-schema';
import { arrayKeywords } from './array-keywords.js';
import type { KeywordFrame } from './keyword-frame.js';
import { objectKeywords } from './object-keywords.js';
import { numberKeywords, stringKeywords, typeError } from './scalar-keywords.js';
import { collect, type Evaluated, nested, type OutputUnit, type ValidationResult } from './schema-output.js';
import type { Run } from './schema-program.js';

/** {@link validate} itself, passed to the keyword modules (so they need not import it back). */
export type Validate = typeof validate;

const VALID: ValidationResult = Object.freeze({ valid: true, errors: Object.freeze([]) as unknown as OutputUnit[] });

type InstanceType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function typeOf(instance: unknown): InstanceType {
  switch (typeof instance) {
    case 'boolean':
    case 'number':
    case 'string':
      return typeof instance as InstanceType;
    case 'object':
      return instance === null ? 'null' : Array.isArray(instance) ? 'array' : 'object';
    default:
      throw new Error(`Instances of "${typeof instance}" type are not supported.`);
  }
}

/**
 * `schema` (a boolean or an object) applied to `instance`. One frame per schema
 * applied (subschemas are applied by calling it directly), so that a body 512
 * levels deep stays far from the stack's end.
 */
export function validate(
  instance: unknown,
  schemaIn: unknown,
  run: Run,
  recursiveAnchorIn: Schema | null = null,
  instanceLocation = '#',
  schemaLocation = '#',
  evaluated: Evaluated = Object.create(null),
): ValidationResult {
  if (schemaIn === true) return VALID;
  if (schemaIn === false) {
    return {
      valid: false,
      errors: [{ instanceLocation, keyword: 'false', keywordLocation: schemaLocation, error: 'False boolean schema.' }],
    };
  }
  run.step();
  run.enter(instanceLocation);
  const schema = schemaIn as Schema;
  const type = typeOf(instance);
  const errors: OutputUnit[] = [];
  const recursiveAnchor = schema.$recursiveAnchor === true && recursiveAnchorIn === null ? schema : recursiveAnchorIn;
  // Subschemas of in-place applicators pass the anchor on only from a schema that declares one.
  const branchAnchor = schema.$recursiveAnchor === true ? recursiveAnchor : null;
  const at = instanceLocation;

  if (schema.$recursiveRef === '#') {
    const keywordLocation = `${schemaLocation}/$recursiveRef`;
    const anchor = recursiveAnchor ?? (run.program.lookup[schema.__absolute_recursive_ref__ as string] as Schema);
    const result = validate(instance, recursiveAnchor ?? schema, run, anchor, at, keywordLocation, evaluated);
    nested(run, errors, at, '$recursiveRef', keywordLocation, result, 'A subschema had errors.');
  }
  if (schema.$ref !== undefined) {
    const refSchema = run.program.lookup[schema.__absolute_ref__ || schema.$ref];
    if (refSchema === undefined) throw new Error(`Unresolved $ref "${schema.$ref}".`);
    const keywordLocation = `${schemaLocation}/$ref`;
    const result = validate(instance, refSchema, run, recursiveAnchor, at, keywordLocation, evaluated);
    nested(run, errors, at, '$ref', keywordLocation, result, 'A subschema had errors.');
  }
  if (schema.type !== undefined) {
    const error = typeError(instance, type, schema.type);
    if (error !== undefined)
      errors.push({ instanceLocation, keyword: 'type', keywordLocation: `${schemaLocation}/type`, error });
  }
  if (schema.const !== undefined) {
    const set = run.program.constOf(schema, schema.const);
    if (set.values.find(instance, run) === -1) {
      errors.push({
        instanceLocation,
        keyword: 'const',
        keywordLocation: `${schemaLocation}/const`,
        error: set.message,
      });
    }
  }
  if (Array.isArray(schema.enum)) {
    const set = run.program.enumOf(schema, schema.enum);
    if (set.values.find(instance, run) === -1) {
      errors.push({ instanceLocation, keyword: 'enum', keywordLocation: `${schemaLocation}/enum`, error: set.message });
    }
  }
  if (schema.not !== undefined) {
    const keywordLocation = `${schemaLocation}/not`;
    if (validate(instance, schema.not, run, recursiveAnchor, at, keywordLocation).valid) {
      errors.push({ instanceLocation, keyword: 'not', keywordLocation, error: 'Instance matched "not" schema.' });
    }
  }
  // anyOf, allOf, oneOf: every branch is applied (all errors listed); how many fit decides
  // (allOf is a container: the failing branch's own errors say it).
  const subEvaluateds: Evaluated[] = [];
  for (const keyword of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    const keywordLocation = `${schemaLocation}/${keyword}`;
    const errorsLength = errors.length;
    let matches = 0;
    for (let i = 0; i < list.length; i++) {
      const marks: Evaluated = Object.create(evaluated);
      const result = validate(instance, list[i], run, branchAnchor, at, `${keywordLocation}/${i}`, marks);
      collect(run, errors, result.errors);
      if (result.valid) {
        matches++;
        subEvaluateds.push(marks);
      }
    }
    const holds = keyword === 'anyOf' ? matches > 0 : keyword === 'allOf' ? matches === list.length : matches === 1;
    if (holds) errors.length = errorsLength;
    else if (keyword !== 'allOf') {
      const error =
        keyword === 'anyOf'
          ? 'Instance does not match any subschemas.'
          : `Instance does not match exactly one subschema (${matches} matches).`;
      errors.splice(errorsLength, 0, { instanceLocation, keyword, keywordLocation, error });
    }
  }
  if (type === 'object' || type === 'array') Object.assign(evaluated, ...subEvaluateds);

  if (schema.if !== undefined) {
    const keywordLocation = `${schemaLocation}/if`;
    const ifEvaluated: Evaluated = Object.create(null);
    if (validate(instance, schema.if, run, recursiveAnchor, at, keywordLocation, ifEvaluated).valid) {
      Object.assign(evaluated, ifEvaluated);
      if (schema.then !== undefined) {
        const result = validate(instance, schema.then, run, recursiveAnchor, at, `${schemaLocation}/then`, evaluated);
        nested(run, errors, at, 'if', keywordLocation, result, 'Instance does not match "then" schema.');
      }
    } else if (schema.else !== undefined) {
      const result = validate(instance, schema.else, run, recursiveAnchor, at, `${schemaLocation}/else`, evaluated);
      nested(run, errors, at, 'if', keywordLocation, result, 'Instance does not match "else" schema.');
    }
  }

  const frame: KeywordFrame = { instanceLocation, schemaLocation, evaluated, errors, recursiveAnchor };
  if (type === 'object') objectKeywords(instance as Record<string, unknown>, schema, run, frame, validate);
  else if (type === 'array') arrayKeywords(instance as unknown[], schema, run, frame, validate);
  else if (type === 'number') numberKeywords(instance as number, schema, frame);
  else if (type === 'string') stringKeywords(instance as string, schema, run, frame);
  run.depth--;
  return { valid: errors.length === 0, errors };
}
