/**
 * What every keyword family (object, array, number, string) is checked in: the
 * value's place, the schema's, and where failures and evaluated names go.
 *
 * @module
 */
import type { Schema } from '@cfworker/json-schema';
import type { Evaluated, OutputUnit } from './schema-output.js';
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

/** A keyword family's check of one value: `validate` applies subschemas. */
export type KeywordCheck<T> = (instance: T, schema: Schema, run: Run, frame: KeywordFrame, validate: Validate) => void;

/**
 * Records a failure of `keyword` at the frame's places (`keywordLocation`: the
 * keyword's own place under the schema unless given).
 */
export function keywordFail(frame: KeywordFrame): (keyword: string, error: string, keywordLocation?: string) => void {
  const { instanceLocation, schemaLocation, errors } = frame;
  return (keyword, error, keywordLocation = `${schemaLocation}/${keyword}`) => {
    errors.push({ instanceLocation, keyword, keywordLocation, error });
  };
}
