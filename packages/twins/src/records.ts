/**
 * What the providers' flows read of a value sent or kept: an object (not an array, not null), and
 * the id an expandable member holds. One place for every provider's folder.
 *
 * @module
 */

type Obj = Record<string, unknown>;

/** `value` as an object, `undefined` when it is none (an array, `null`, a scalar). */
export function record(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

/** The id of an expandable member (a string, or the object it names); `null` for neither. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const id = record(value)?.id;
  return typeof id === 'string' ? id : null;
}
