/**
 * The field paths of json-server's query language (`author.name`, `tags.0`),
 * read the way lodash's `_.get` and `_.has` read them — a key that exists as
 * written wins over its dotted reading — but over own fields only: a path never
 * reaches a prototype (`constructor`, `__proto__`), where lodash's `_.get` would.
 * Brackets are not read: json-server's Express takes `tags[0]=x` as an array
 * parameter named `tags`, not as a path (write `tags.0=x`).
 *
 * @module
 */

/** The longest path a query may name, in characters. */
export const MAX_PATH_LENGTH = 256;
/** The most dotted segments of a path a query may name (`a.b.c` has 3). */
export const MAX_PATH_SEGMENTS = 32;

/**
 * What is wrong with `path` as a query names it, in a phrase; undefined when
 * nothing is. A path is read once per item, so its length and depth are
 * bounded: a 7,000-segment key over a large collection took a second per request.
 */
export function pathProblem(path: string): string | undefined {
  if (path.length > MAX_PATH_LENGTH)
    return `a field path is at most ${MAX_PATH_LENGTH} characters (got ${path.length})`;
  let segments = 1;
  for (let at = path.indexOf('.'); at !== -1; at = path.indexOf('.', at + 1)) {
    if (++segments > MAX_PATH_SEGMENTS) return `a field path has at most ${MAX_PATH_SEGMENTS} dotted segments`;
  }
  return undefined;
}

const NOT_FOUND: unique symbol = Symbol('not found');

function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return NOT_FOUND;
  return (value as Record<string, unknown>)[key];
}

function lookup(value: unknown, path: string, segments: readonly string[]): unknown {
  const literal = own(value, path);
  if (literal !== NOT_FOUND) return literal;
  let current = value;
  for (const segment of segments) {
    current = own(current, segment);
    if (current === NOT_FOUND) return NOT_FOUND;
  }
  return current;
}

/**
 * The value at `path` in `value`; undefined when there is none. `segments`:
 * `path` split at its dots, given by a caller that reads one path in many values.
 */
export function valueAt(value: unknown, path: string, segments: readonly string[] = path.split('.')): unknown {
  const found = lookup(value, path, segments);
  return found === NOT_FOUND ? undefined : found;
}

/** Whether `value` has something (`null` included) at `path` (`segments` as {@link valueAt} takes them). */
export function hasPath(value: unknown, path: string, segments: readonly string[] = path.split('.')): boolean {
  return lookup(value, path, segments) !== NOT_FOUND;
}
