/**
 * A value made on its first use and kept: for what a module would otherwise make as it loads
 * (a schema; a `node:` builtin, with `nodeBuiltin` of node-builtin.ts) though a plain start never
 * uses it. Each module loaded at start
 * pays for what it makes at its top level before the first stub can be answered (issue #64,
 * docs/performance.md "Ready").
 *
 * @module
 */

/**
 * `make`'s value, made on the first call and the same value returned by every later one.
 * @example const schema = onFirstUse(() => z.object({ name: z.string() })); schema().parse(body)
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
