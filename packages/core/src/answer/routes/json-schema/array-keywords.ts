/**
 * The keywords of an array value (part of the interpreter in validate.ts):
 * item counts, `prefixItems`, `items`, `additionalItems`, `contains`,
 * `unevaluatedItems`, and `uniqueItems` (items looked up by a structural hash:
 * linear, where comparing every pair grew with the square of the items).
 *
 * @module
 */
import { JsonSet } from './json-equality.js';
import { type KeywordCheck, type KeywordFrame, keywordFail } from './keyword-frame.js';
import { collect, nested, type ValidationResult } from './schema-output.js';
import type { Run } from './schema-program.js';
import type { Validate } from './validate.js';

/** Applies the subschema at `keywordLocation` to item `j`. */
function validateItem(
  instance: unknown[],
  j: number,
  subschema: unknown,
  keywordLocation: string,
  run: Run,
  frame: KeywordFrame,
  validate: Validate,
): ValidationResult {
  return validate(
    instance[j],
    subschema,
    run,
    frame.recursiveAnchor,
    `${frame.instanceLocation}/${j}`,
    keywordLocation,
  );
}

export const arrayKeywords: KeywordCheck<unknown[]> = (instance, schema, run, frame, validate) => {
  const { instanceLocation, schemaLocation, evaluated, errors, recursiveAnchor } = frame;
  const length = instance.length;
  const fail = keywordFail(frame);
  if (schema.maxItems !== undefined && length > schema.maxItems) {
    fail('maxItems', `Array has too many items (${length} > ${schema.maxItems}).`);
  }
  if (schema.minItems !== undefined && length < schema.minItems) {
    fail('minItems', `Array has too few items (${length} < ${schema.minItems}).`);
  }

  let i = 0;
  /** Applies `subschema` to items from `i` up to `end`, each at `location(i)`. */
  const items = (keyword: string, end: number, subschema: (i: number) => unknown, location: (i: number) => string) => {
    const keywordLocation = `${schemaLocation}/${keyword}`;
    for (; i < end; i++) {
      const result = validate(instance[i], subschema(i), run, recursiveAnchor, `${instanceLocation}/${i}`, location(i));
      evaluated[i] = true;
      const error =
        keyword === 'additionalItems' ? 'Items did not match additional items schema.' : 'Items did not match schema.';
      nested(run, errors, instanceLocation, keyword, keywordLocation, result, error);
    }
  };
  if (Array.isArray(schema.prefixItems)) {
    const prefix = schema.prefixItems;
    items(
      'prefixItems',
      Math.min(prefix.length, length),
      (j) => prefix[j],
      (j) => `${schemaLocation}/prefixItems/${j}`,
    );
  }
  if (schema.items !== undefined) {
    const list = schema.items;
    if (Array.isArray(list)) {
      items(
        'items',
        Math.min(list.length, length),
        (j) => list[j],
        (j) => `${schemaLocation}/items/${j}`,
      );
    } else
      items(
        'items',
        length,
        () => list,
        () => `${schemaLocation}/items`,
      );
    if (schema.additionalItems !== undefined) {
      items(
        'additionalItems',
        length,
        () => schema.additionalItems,
        () => `${schemaLocation}/additionalItems`,
      );
    }
  }

  if (schema.contains !== undefined) contains(instance, schema, run, frame, validate);

  if (schema.unevaluatedItems !== undefined) {
    const keywordLocation = `${schemaLocation}/unevaluatedItems`;
    for (; i < length; i++) {
      if (evaluated[i]) continue;
      const result = validateItem(instance, i, schema.unevaluatedItems, keywordLocation, run, frame, validate);
      evaluated[i] = true;
      const error = 'Items did not match unevaluated items schema.';
      nested(run, errors, instanceLocation, 'unevaluatedItems', keywordLocation, result, error);
    }
  }

  if (schema.uniqueItems === true) {
    const seen = new JsonSet();
    for (let j = 0; j < length; j++) {
      const first = seen.addOrFind(instance[j], j, run);
      if (first !== -1) {
        fail('uniqueItems', `Duplicate items at indexes ${first} and ${j}.`);
        break;
      }
    }
  }
};

/** `contains`, `minContains`, `maxContains`. */
const contains: KeywordCheck<unknown[]> = (instance, schema, run, frame, validate) => {
  const { instanceLocation, schemaLocation, evaluated, errors } = frame;
  const length = instance.length;
  const { minContains, maxContains } = schema;
  const fail = keywordFail(frame);
  if (length === 0 && minContains === undefined) {
    fail('contains', 'Array is empty. It must contain at least one item matching the schema.');
    return;
  }
  if (minContains !== undefined && length < minContains) {
    fail('minContains', `Array has less items (${length}) than minContains (${minContains}).`);
    return;
  }
  const keywordLocation = `${schemaLocation}/contains`;
  const errorsLength = errors.length;
  let contained = 0;
  for (let j = 0; j < length; j++) {
    const result = validateItem(instance, j, schema.contains, keywordLocation, run, frame, validate);
    if (result.valid) {
      evaluated[j] = true;
      contained++;
    } else collect(run, errors, result.errors);
  }
  if (contained >= (minContains || 0)) errors.length = errorsLength;
  if (minContains === undefined && contained === 0) {
    errors.splice(errorsLength, 0, {
      instanceLocation,
      keyword: 'contains',
      keywordLocation,
      error: 'Array does not contain item matching schema.',
    });
  } else if (minContains !== undefined && contained < minContains) {
    fail(
      'minContains',
      `Array must contain at least ${minContains} items matching schema. Only ${contained} items were found.`,
    );
  } else if (maxContains !== undefined && contained > maxContains) {
    fail(
      'maxContains',
      `Array may contain at most ${maxContains} items matching schema. ${contained} items were found.`,
    );
  }
};
