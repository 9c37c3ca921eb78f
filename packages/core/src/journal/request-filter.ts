/**
 * Request filters: which recorded requests a journal read or long-poll counts.
 * Pure functions over {@link JournalEntry}, so every journal (in memory now, in
 * Redis later) applies the same rules where the requests are.
 *
 * @module
 */
import type { JournalEntry, RequestFilter } from '../wire/journal-json.js';

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
