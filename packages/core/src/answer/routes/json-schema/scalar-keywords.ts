/**
 * The keywords of a number or string value, and `type` (part of the
 * interpreter in validate.ts). A `pattern` runs by RE2, in time linear in the
 * string; formats are `@cfworker/json-schema`'s but for `url` (see validate.ts).
 *
 * @module
 */
import { format, type Schema, ucs2length } from '@cfworker/json-schema';
import { type KeywordFrame, keywordFail } from './keyword-frame.js';
import type { Run } from './schema-program.js';

/** Formats asserted: `url`'s regular expression backtracks exponentially on a crafted string. */
const FORMATS: Readonly<Record<string, (text: string) => boolean>> = Object.fromEntries(
  Object.entries(format).filter(([name]) => name !== 'url'),
);

/** Why `instance` is not of `expected` (a type name or a list of them), or `undefined`. */
export function typeError(instance: unknown, type: string, expected: unknown): string | undefined {
  const integer = type === 'number' && Number.isInteger(instance);
  const list = Array.isArray(expected) ? expected : [expected];
  if (list.some((name) => name === type || (name === 'integer' && integer))) return undefined;
  const names = Array.isArray(expected) ? expected.join('", "') : String(expected);
  return `Instance type "${type}" is invalid. Expected "${names}".`;
}

function decimalInteger(value: number): [bigint, number] {
  const [coefficient = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const point = coefficient.indexOf('.');
  const fractionLength = point === -1 ? 0 : coefficient.length - point - 1;
  return [BigInt(coefficient.replace('.', '')), Number(exponent) - fractionLength];
}

/** Exact, in decimal (0.3 is a multiple of 0.1). */
function isMultipleOf(instance: number, divisor: number): boolean {
  if (!Number.isFinite(instance) || !Number.isFinite(divisor) || divisor <= 0) return false;
  const [instanceCoefficient, instanceExponent] = decimalInteger(instance);
  const [divisorCoefficient, divisorExponent] = decimalInteger(divisor);
  const difference = instanceExponent - divisorExponent;
  if (difference >= 0) return (instanceCoefficient * 10n ** BigInt(difference)) % divisorCoefficient === 0n;
  return instanceCoefficient % (divisorCoefficient * 10n ** BigInt(-difference)) === 0n;
}

export function numberKeywords(instance: number, schema: Schema, frame: KeywordFrame): void {
  const fail = keywordFail(frame);
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (minimum !== undefined && instance < minimum) fail('minimum', `${instance} is less than ${minimum}.`);
  if (maximum !== undefined && instance > maximum) fail('maximum', `${instance} is greater than ${maximum}.`);
  if (typeof exclusiveMinimum === 'number' && instance <= exclusiveMinimum) {
    fail('exclusiveMinimum', `${instance} is less than ${exclusiveMinimum}.`);
  }
  if (typeof exclusiveMaximum === 'number' && instance >= exclusiveMaximum) {
    fail('exclusiveMaximum', `${instance} is greater than or equal to ${exclusiveMaximum}.`);
  }
  if (multipleOf !== undefined && !isMultipleOf(instance, multipleOf)) {
    fail('multipleOf', `${instance} is not a multiple of ${multipleOf}.`);
  }
}

export function stringKeywords(instance: string, schema: Schema, run: Run, frame: KeywordFrame): void {
  const fail = keywordFail(frame);
  const { minLength, maxLength, pattern, format: name } = schema;
  if (minLength !== undefined || maxLength !== undefined) {
    const length = ucs2length(instance);
    if (minLength !== undefined && length < minLength)
      fail('minLength', `String is too short (${length} < ${minLength}).`);
    if (maxLength !== undefined && length > maxLength)
      fail('maxLength', `String is too long (${length} > ${maxLength}).`);
  }
  if (typeof pattern === 'string') {
    const regex = run.program.pattern(pattern);
    run.step(run.program.patternSteps(regex, instance.length));
    if (!regex.test(instance)) fail('pattern', 'String does not match pattern.');
  }
  if (typeof name === 'string') {
    const check = FORMATS[name];
    if (check !== undefined && Object.hasOwn(FORMATS, name)) {
      run.step(1 + (instance.length >> 6));
      if (!check(instance)) fail('format', `String does not match format "${name}".`);
    }
  }
}
