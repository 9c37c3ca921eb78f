/**
 * The keywords of an object value (part of the interpreter in validate.ts):
 * `required`, property counts, `propertyNames`, dependencies, `properties`,
 * `patternProperties` (names matched by RE2), `additionalProperties` and
 * `unevaluatedProperties`.
 *
 * @module
 */
import { encodePointer } from '@cfworker/json-schema';
import { type KeywordCheck, keywordFail } from './keyword-frame.js';
import { type Evaluated, nested } from './schema-output.js';

function has(instance: object, key: string): boolean {
  return Object.hasOwn(instance, key);
}

export const objectKeywords: KeywordCheck<Record<string, unknown>> = (instance, schema, run, frame, validate) => {
  const { instanceLocation, schemaLocation, evaluated, errors, recursiveAnchor } = frame;
  const fail = keywordFail(frame);
  const child = (key: string) => `${instanceLocation}/${encodePointer(key)}`;
  /**
   * Applies `subschema` to property `key` (the subschema at `location`): valid, it
   * is evaluated; not, the failure is `keyword`'s with `error()` (built only then).
   */
  const property = (
    key: string,
    subschema: unknown,
    keyword: string,
    keywordLocation: string,
    location: string,
    error: () => string,
  ) => {
    const result = validate(instance[key], subschema, run, recursiveAnchor, child(key), location);
    if (result.valid) evaluated[key] = true;
    else nested(run, errors, instanceLocation, keyword, keywordLocation, result, error());
  };

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
      thisEvaluated[key] = true;
      property(
        key,
        propertySchema,
        'properties',
        keywordLocation,
        `${keywordLocation}/${encodePointer(key)}`,
        () => `Property "${key}" does not match schema.`,
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
        thisEvaluated[key] = true;
        const location = `${keywordLocation}/${encodePointer(pattern)}`;
        property(
          key,
          subschema,
          'patternProperties',
          keywordLocation,
          location,
          () => `Property "${key}" matches pattern "${pattern}" but does not match associated schema.`,
        );
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
      property(
        key,
        restSchema,
        rest,
        keywordLocation,
        keywordLocation,
        () => `Property "${key}" does not match ${what} properties schema.`,
      );
    }
  }
};
