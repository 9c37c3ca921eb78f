/**
 * Form-encoded bodies and query strings with nested brackets, as stripe-node
 * sends them (`metadata[order]=6735`, `expand[0]=customer`, `items[0][price]=p`,
 * `expand[]=customer`): read into nested objects and arrays of strings. Bounded:
 * at most {@link MAX_FIELDS} fields, {@link MAX_DEPTH} brackets deep; keys that
 * would reach an object's prototype are refused.
 *
 * @module
 */

/** What a form reads into: strings, nested in objects and arrays. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

const MAX_FIELDS = 1000;
export const MAX_DEPTH = 8;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a form could not be read. */
export class FormProblem extends Error {}

/** `name[a][b]` → `['name', 'a', 'b']`; `name[]` → `['name', '']`. */
function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  const brackets = /\[([^\][]*)\]/gy;
  brackets.lastIndex = open;
  for (let found = brackets.exec(key); found !== null; found = brackets.exec(key)) {
    parts.push(found[1] as string);
    if (brackets.lastIndex === key.length) return parts;
  }
  // Brackets that do not close as expected: the key is taken whole, as qs does.
  return [key];
}

function place(target: Record<string, FormValue>, path: readonly string[], value: string): void {
  if (path.length > MAX_DEPTH + 1) throw new FormProblem(`a field nests more than ${MAX_DEPTH} brackets deep`);
  let node: Record<string, FormValue> = target;
  for (let index = 0; index < path.length; index++) {
    let part = path[index] as string;
    if (FORBIDDEN.has(part)) throw new FormProblem(`the field name part "${part}" is not allowed`);
    if (part === '') part = String(Object.keys(node).length);
    if (index === path.length - 1) {
      node[part] = value;
      return;
    }
    const next = node[part];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next;
    } else {
      const made: Record<string, FormValue> = Object.create(null);
      node[part] = made;
      node = made;
    }
  }
}

/** Objects whose keys are 0, 1, 2, … in order become arrays. */
function arraysOf(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: Record<string, FormValue> = {};
  for (const key of keys) converted[key] = arraysOf(value[key] as FormValue);
  if (keys.length > 0 && keys.every((key, index) => key === String(index)))
    return keys.map((key) => converted[key]) as FormValue[];
  return converted;
}

/** Reads `text` (`a=1&b[c]=2`) into nested values; throws a {@link FormProblem} past the bounds. */
export function readForm(text: string): Record<string, FormValue> {
  return readFields(new URLSearchParams(text));
}

/** Reads named fields (a form's, a multipart body's) into nested values, as {@link readForm} does. */
export function readFields(fields: Iterable<readonly [string, string]>): Record<string, FormValue> {
  const target: Record<string, FormValue> = Object.create(null);
  let count = 0;
  for (const [key, value] of fields) {
    if (++count > MAX_FIELDS) throw new FormProblem(`a form of more than ${MAX_FIELDS} fields`);
    place(target, keyPath(key), value);
  }
  return arraysOf(target) as Record<string, FormValue>;
}
