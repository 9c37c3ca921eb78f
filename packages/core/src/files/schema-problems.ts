/**
 * The problems the mock-file schema found, all of them (up to {@link MAX_PROBLEMS}), each in
 * words with the place it is at: `5:17 endpoints[0].statusCode: must be a number, not text`.
 * Before, a file with three mistakes showed the first only, in the validator's wording
 * (`Invalid input: expected number, received string`), so fixing a file took a run per mistake.
 *
 * @module
 */
import type { z } from 'zod';

/** The most problems one message lists. */
export const MAX_PROBLEMS = 10;

/** The longest unknown key a message shows whole. */
const MAX_KEY = 40;

/** A type as a person says it. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'a mapping (key: value)',
  array: 'a list',
  null: 'null',
  undefined: 'absent',
  record: 'a mapping (key: value)',
};

/** What `value` is, in words (for "…, not text"). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return 'true or false';
  if (value === undefined) return 'absent';
  return 'a mapping (key: value)';
}

/** The value at `path` in `root`, or `undefined`. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Object.hasOwn(at, key) ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return at;
}

/** A key as shown in a message: quoted when it is not a plain word, cut when long. */
function keyText(key: string): string {
  const cut = key.length > MAX_KEY ? `${key.slice(0, MAX_KEY)}…` : key;
  return /^[A-Za-z0-9_$-]+$/.test(cut) ? cut : JSON.stringify(cut);
}

/** One issue in words: our own rule when the schema has one, else said from its code. */
export function issueWords(issue: z.core.$ZodIssue, root: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field(s): ${issue.keys.map(keyText).join(', ')}`;
    case 'invalid_type': {
      const actual = valueAt(root, issue.path);
      if (actual === undefined) return 'is required';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${kindOf(actual)}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_union':
      return `is none of the forms it may take (${kindOf(valueAt(root, issue.path))} given)`;
    default:
      // too_small, too_big, custom …: the schema's messages are ours, written as rules.
      return issue.message;
  }
}
