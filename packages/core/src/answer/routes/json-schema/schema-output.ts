/**
 * What the interpreter (validate.ts) says of a value: JSON Schema's "basic"
 * output units, and how a subschema's units join its parent's, bounded.
 *
 * @module
 */
import type { Run } from './schema-program.js';

/** One way a value does not fit (the "basic" output unit of JSON Schema). */
export interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

/** Whether a value fits, and each way it does not. */
export interface ValidationResult {
  valid: boolean;
  errors: OutputUnit[];
}

/** Which properties or items of a value some schema has evaluated (for `unevaluated*`). */
export type Evaluated = Record<string | number, boolean>;

/**
 * The most error units one schema's list keeps: a request lists 20 errors, and
 * every unit kept is copied again by each schema around it.
 */
const MAX_ERROR_UNITS = 1000;

/**
 * Keywords whose own error only says that something beneath failed (that error
 * is listed itself): their unit is left out, so a failure 500 levels down is one
 * unit, not one per level.
 */
export const CONTAINERS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  '$ref',
]);

/** Adds a failed subschema's errors after one naming the keyword that applied it (unless a container). */
export function nested(
  run: Run,
  errors: OutputUnit[],
  instanceLocation: string,
  keyword: string,
  keywordLocation: string,
  result: ValidationResult,
  error: string,
): void {
  if (result.valid) return;
  if (!CONTAINERS.has(keyword)) errors.push({ instanceLocation, keyword, keywordLocation, error });
  collect(run, errors, result.errors);
}

/**
 * Adds `units` to `errors`: at most {@link MAX_ERROR_UNITS} kept in one list (a
 * request lists 20; the rest only make every schema around them copy more), each
 * copy counted as steps (a unit is copied once per schema around it).
 */
export function collect(run: Run, errors: OutputUnit[], units: readonly OutputUnit[]): void {
  run.step(units.length >> 4);
  const room = Math.min(units.length, MAX_ERROR_UNITS - errors.length);
  for (let i = 0; i < room; i++) errors.push(units[i] as OutputUnit);
}
