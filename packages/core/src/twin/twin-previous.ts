/**
 * What a change of a stored object changed, in the form of Stripe's `previous_attributes`
 * (docs/design.md#twins-as-the-provider-answers): the prior value of each top-level field that changed (`null` for one the object did not
 * have), a nested record as only its keys that changed (Stripe since 2015-01-26), an array or any
 * other value whole (since 2017-05-25). Reads each field once, as the write of the object does.
 *
 * @module
 */

type Obj = Record<string, unknown>;

/** Records nested deeper than this are compared whole (the form parser nests no deeper). */
const MAX_DEPTH = 16;

function isRecord(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether two JSON values are equal, read once, to the first difference. */
function same(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth >= MAX_DEPTH) return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, at) => same(item, b[at], depth + 1));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && same((a as Obj)[key], (b as Obj)[key], depth + 1));
}

/** Sets `key` as an own member, `__proto__` too (a stored object parsed from JSON may have one). */
function put(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The prior values of what changed from `was` to `now`; `{}` when nothing did. */
export function previousAttributes(was: Obj, now: Obj, depth = 0): Obj {
  const previous: Obj = {};
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    const before = was[key];
    const after = now[key];
    if (isRecord(before) && isRecord(after) && depth < MAX_DEPTH) {
      const inner = previousAttributes(before, after, depth + 1);
      if (Object.keys(inner).length > 0) put(previous, key, inner);
    } else if (!same(before, after, depth)) {
      put(previous, key, before ?? null);
    }
  }
  return previous;
}
