/**
 * The keywords of an object value (part of the interpreter in validate.ts):
 * `required`, property counts, `propertyNames`, dependencies, `properties`,
 * `patternProperties` (names matched by RE2), `additionalProperties` and
 * `unevaluatedProperties`.
 *
 * @module
 */
import { encodePointer, type Schema } from '@cfworker/json-schema';
import { type Evaluated, nested, type OutputUnit } from './schema-output.js';
import type { Run } from './schema-program.js';
import type { Validate } from './validate.js';

/** Where a value's keywords are checked, and what they add to. */
export interface KeywordFrame {
  instanceLocation: string;
  schemaLocation: string;
  /** The properties or items evaluated so far (this schema's and its in-place subschemas'). */
  evaluated: Evaluated;
  errors: OutputUnit[];
  /** The `$recursiveAnchor` schema in force. */
  recursiveAnchor: Schema | null;
}

function has(instance: object, key: string): boolean {
  return Object.hasOwn(instance, key);
}

export function objectKeywords(
  instance: Record<string, unknown>,
  schema: Schema,
  run: Run,
  frame: KeywordFrame,
  validate: Validate,
): void {
  const { instanceLocation, schemaLocation, evaluated, errors, recursiveAnchor } = frame;
  const fail = (keyword: string, error: string, keywordLocation = `${schemaLocation}/${keyword}`) =>
    errors.push({ instanceLocation, keyword, keywordLocation, error });
  const child = (key: string) => `${instanceLocation}/${encodePointer(key)}`;

  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (!has(instance, key)) fail('required', `Instance does not have required property "${key}".`);
    }
  }
  const keys = Object.keys(instance);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) {
    fail('minProperties', `Instance does not have at least ${schema.minProperties} properties.`);
  }
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) {
    fail('maxProperties', `Instance has more than ${schema.maxProperties} properties.`);
  }
  if (schema.propertyNames !== undefined) {
    const keywordLocation = `${schemaLocation}/propertyNames`;
    for (const key of keys) {
      const result = validate(key, schema.propertyNames, run, recursiveAnchor, child(key), keywordLocation);
      nested(
        run,
        errors,
        instanceLocation,
        'propertyNames',
        keywordLocation,
        result,
        `Property name "${key}" does not match schema.`,
      );
    }
  }
  if (schema.dependentRequired !== undefined) {
    for (const [key, required] of Object.entries(schema.dependentRequired as Record<string, string[]>)) {
      if (!has(instance, key)) continue;
      for (const dependant of required) {
        if (!has(instance, dependant)) {
          fail('dependentRequired', `Instance has "${key}" but does not have "${dependant}".`);
        }
      }
    }
  }
  for (const keyword of ['dependentSchemas', 'dependencies'] as const) {
    const map = schema[keyword] as Record<string, unknown> | undefined;
    if (map === undefined) continue;
    for (const [key, dependent] of Object.entries(map)) {
      if (!has(instance, key)) continue;
      if (Array.isArray(dependent)) {
        for (const dependant of dependent) {
          if (!has(instance, dependant)) fail(keyword, `Instance has "${key}" but does not have "${dependant}".`);
        }
        continue;
      }
      const keywordLocation = `${schemaLocation}/${keyword}`;
      // dependentSchemas evaluates in place (its marks count); draft 7's dependencies did not.
      const marks = keyword === 'dependentSchemas' ? evaluated : undefined;
      const result = validate(
        instance,
        dependent,
        run,
        recursiveAnchor,
        instanceLocation,
        `${keywordLocation}/${encodePointer(key)}`,
        marks,
      );
      const error = `Instance has "${key}" but does not match dependant schema.`;
      nested(run, errors, instanceLocation, keyword, keywordLocation, result, error);
    }
  }

  const thisEvaluated: Evaluated = Object.create(null);
  if (schema.properties !== undefined) {
    const keywordLocation = `${schemaLocation}/properties`;
    for (const [key, propertySchema] of Object.entries(schema.properties as Record<string, unknown>)) {
      if (!has(instance, key)) continue;
      const result = validate(
        instance[key],
        propertySchema,
        run,
        recursiveAnchor,
        child(key),
        `${keywordLocation}/${encodePointer(key)}`,
      );
      thisEvaluated[key] = true;
      if (result.valid) evaluated[key] = true;
      else
        nested(
          run,
          errors,
          instanceLocation,
          'properties',
          keywordLocation,
          result,
          `Property "${key}" does not match schema.`,
        );
    }
  }
  if (schema.patternProperties !== undefined) {
    const keywordLocation = `${schemaLocation}/patternProperties`;
    for (const [pattern, subschema] of Object.entries(schema.patternProperties as Record<string, unknown>)) {
      const regex = run.program.pattern(pattern);
      for (const key of keys) {
        run.step(run.program.patternSteps(regex, key.length));
        if (!regex.test(key)) continue;
        const result = validate(
          instance[key],
          subschema,
          run,
          recursiveAnchor,
          child(key),
          `${keywordLocation}/${encodePointer(pattern)}`,
        );
        thisEvaluated[key] = true;
        if (result.valid) evaluated[key] = true;
        else {
          const error = `Property "${key}" matches pattern "${pattern}" but does not match associated schema.`;
          nested(run, errors, instanceLocation, 'patternProperties', keywordLocation, result, error);
        }
      }
    }
  }
  const rest = schema.additionalProperties !== undefined ? 'additionalProperties' : 'unevaluatedProperties';
  const restSchema = schema[rest];
  if (restSchema !== undefined) {
    // additionalProperties: names this schema's properties/patternProperties did not take;
    // unevaluatedProperties: names no schema applied here evaluated.
    const skip = rest === 'additionalProperties' ? thisEvaluated : evaluated;
    const keywordLocation = `${schemaLocation}/${rest}`;
    const what = rest === 'additionalProperties' ? 'additional' : 'unevaluated';
    for (const key of keys) {
      if (skip[key]) continue;
      const result = validate(instance[key], restSchema, run, recursiveAnchor, child(key), keywordLocation);
      if (result.valid) evaluated[key] = true;
      else
        nested(
          run,
          errors,
          instanceLocation,
          rest,
          keywordLocation,
          result,
          `Property "${key}" does not match ${what} properties schema.`,
        );
    }
  }
}
