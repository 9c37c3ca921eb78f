/**
 * Request filters: which recorded requests a journal read or long-poll counts.
 * Pure functions over {@link JournalEntry}, so every journal (in memory now, in
 * Redis later) applies the same rules where the requests are.
 *
 * @module
 */
import type { JournalEntry } from './journal-entry.js';

/**
 * What a request must have to count; every field is optional and all given
 * fields must match.
 * @example { method: 'POST', headers: { 'x-event': 'order.paid' }, body: { order: { id: 7 } } }
 */
export interface RequestFilter {
  /** The HTTP method, case-insensitive. */
  method?: string;
  /** Query parameters that must be present with exactly these values (a repeated key is an array, in order). */
  query?: Record<string, string | string[]>;
  /** Headers that must be present with exactly these values; names are case-insensitive. */
  headers?: Record<string, string>;
  /**
   * A JSON subset of the body: every key given must be present with a matching
   * value, recursively; arrays match element by element and must have the same
   * length; other keys of the body are ignored. A string also matches a body
   * whose raw text is exactly that string.
   */
  body?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when `expected` is a JSON subset of `actual`: objects may have more keys
 * than expected, arrays must have the same length, everything else is compared
 * with `===`. Only own keys are looked at (`__proto__` is an ordinary key).
 */
export function isJsonSubset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => isJsonSubset(item, actual[index]))
    );
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return false;
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key) || !isJsonSubset(expected[key], actual[key])) return false;
    }
    return true;
  }
  return expected === actual;
}

function sameValue(expected: string | string[], actual: string | string[] | undefined): boolean {
  if (actual === undefined) return false;
  if (typeof expected === 'string') return actual === expected;
  return Array.isArray(actual) && actual.length === expected.length && expected.every((v, i) => v === actual[i]);
}

/** True when `entry` matches every field of `filter`. */
export function matchesRequest(entry: JournalEntry, filter: RequestFilter): boolean {
  if (filter.method !== undefined && entry.method.toUpperCase() !== filter.method.toUpperCase()) return false;
  if (filter.query !== undefined) {
    for (const key of Object.keys(filter.query)) {
      const actual = Object.hasOwn(entry.query, key) ? entry.query[key] : undefined;
      if (!sameValue(filter.query[key] as string | string[], actual)) return false;
    }
  }
  if (filter.headers !== undefined) {
    for (const name of Object.keys(filter.headers)) {
      const lower = name.toLowerCase();
      const actual = Object.hasOwn(entry.headers, lower) ? entry.headers[lower] : undefined;
      if (actual !== filter.headers[name]) return false;
    }
  }
  if (Object.hasOwn(filter, 'body')) {
    const raw = typeof filter.body === 'string' && entry.body === filter.body && !entry.bodyTruncated;
    const json = Object.hasOwn(entry, 'json') && isJsonSubset(filter.body, entry.json);
    if (!raw && !json) return false;
  }
  return true;
}
