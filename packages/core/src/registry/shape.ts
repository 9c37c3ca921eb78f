/**
 * Checks by shape rather than `instanceof`, for values that may come from
 * another build of mockpoint (two copies of a package in one test run), and for
 * turning a parser's error into a message.
 *
 * @module
 */

/** True when `value` is an object whose `fields` have the given `typeof` each. */
export function hasShape(value: unknown, fields: Readonly<Record<string, 'string' | 'function'>>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key in fields) {
    if (typeof (value as Record<string, unknown>)[key] !== fields[key]) return false;
  }
  return true;
}

/**
 * The message of the `errorClass` error `run` throws, or `undefined` when it
 * returns; any other error is thrown on.
 */
export function thrownMessage(
  run: () => unknown,
  errorClass: abstract new (...args: never[]) => Error,
): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof errorClass) return error.message;
    throw error;
  }
}
