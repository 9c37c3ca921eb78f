/**
 * Whole-body JSON equality for the request filter's `bodyEquals`, as
 * WireMock's `equalToJson` without `ignoreExtraElements` decides it: objects
 * with the same members in any order and no others, arrays with the same
 * elements in order, numbers by value (`1` is `1.0`), `null` distinct from an
 * absent member. The walk follows `expected` (a saved route's value), so its
 * depth is the route's, whatever the request sends. {@link jsonDifference}
 * also says where a JSON subset (the filter's `body`) stops holding.
 *
 * @module
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short JSON preview of `value` for a mismatch message. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Whether `actual` equals `expected` by the rules above. */
export function jsonEqual(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => jsonEqual(item, actual[index]))
    );
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return false;
    const keys = Object.keys(expected);
    if (Object.keys(actual).length !== keys.length) return false;
    return keys.every((key) => Object.hasOwn(actual, key) && jsonEqual(expected[key], actual[key]));
  }
  return expected === actual;
}

/**
 * Where `actual` first differs from `expected` (`body.items.1 is 3, route wants
 * 4`, `body.extra is not in the route's JSON`), or `undefined` when they are equal.
 * With `rule` `'subset'` it is where `expected` stops being a JSON subset of
 * `actual` (the request filter's `body`, `graphql.variables` and `grpc.message`:
 * objects may have more members, arrays the same elements in order).
 */
export function jsonDifference(
  expected: unknown,
  actual: unknown,
  at: string,
  rule: 'equal' | 'subset' = 'equal',
): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      if (rule === 'subset') return `${at} is ${shown(actual)}, route wants ${shown(expected)}`;
      if (!Array.isArray(actual)) return `${at} is ${shown(actual)}, route wants an array`;
      return `${at} has ${actual.length} element(s), route wants ${expected.length}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const miss = jsonDifference(expected[i], actual[i], `${at}.${i}`, rule);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${at} is ${shown(actual)}, route wants an object`;
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) return `${at}.${key} missing`;
      const miss = jsonDifference(expected[key], actual[key], `${at}.${key}`, rule);
      if (miss !== undefined) return miss;
    }
    if (rule === 'subset') return undefined;
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(expected, key)) return `${at}.${key} is not in the route's JSON (it wants it exactly)`;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${at} is ${shown(actual)}, route wants ${shown(expected)}`;
}
