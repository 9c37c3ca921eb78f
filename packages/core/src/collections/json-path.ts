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

const NOT_FOUND: unique symbol = Symbol('not found');

function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return NOT_FOUND;
  return (value as Record<string, unknown>)[key];
}

function lookup(value: unknown, path: string): unknown {
  const literal = own(value, path);
  if (literal !== NOT_FOUND) return literal;
  let current = value;
  for (const segment of path.split('.')) {
    current = own(current, segment);
    if (current === NOT_FOUND) return NOT_FOUND;
  }
  return current;
}

/** The value at `path` in `value`; undefined when there is none. */
export function valueAt(value: unknown, path: string): unknown {
  const found = lookup(value, path);
  return found === NOT_FOUND ? undefined : found;
}

/** Whether `value` has something (`null` included) at `path`. */
export function hasPath(value: unknown, path: string): boolean {
  return lookup(value, path) !== NOT_FOUND;
}
