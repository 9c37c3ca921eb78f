/**
 * WireMock's request matchers as the request filter's: a query parameter's or
 * a header's value matcher, cookies, and `bodyPatterns`. Each becomes an
 * equivalent condition, or the reason it has none (its mapping is then left
 * out whole, never loosened).
 *
 * @module
 */
import type { RequestFilter } from '../api/journal-json.js';
import { jsonEqual } from '../pattern/json-equal.js';
import { jsonPathProblem } from '../pattern/json-path.js';
import { type AbsentMatcher, type ValueMatcher, valueMatcherProblem } from '../pattern/value-pattern.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A simple JSONPath (`$.a.b`, `$.a[0]`) as its keys, or `undefined`. */
function jsonPathKeys(expression: string): (string | number)[] | undefined {
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])+$/.test(expression)) return undefined;
  return [...expression.matchAll(/\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]/g)].map((m) =>
    m[1] !== undefined ? m[1] : Number(m[2]),
  );
}

/** `{ a: { b: value } }` for keys `a`, `b` (no array index: a subset cannot say "element 0 of any length"). */
function nested(keys: (string | number)[], value: unknown): Json | undefined {
  if (keys.some((key) => typeof key === 'number')) return undefined;
  let out: unknown = value;
  for (const key of [...keys].reverse()) out = { [key]: out };
  return out as Json;
}

/** Deep merge of two JSON subsets (objects only), or `undefined` when they disagree. */
function mergeSubsets(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (isObject(a) && isObject(b)) {
    const out: Json = { ...a };
    for (const [key, value] of Object.entries(b)) {
      const merged = Object.hasOwn(out, key) ? mergeSubsets(out[key], value) : value;
      if (merged === undefined) return undefined;
      out[key] = merged;
    }
    return out;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? a : undefined;
}

/** The body subset one `matchesJsonPath` with a matcher (`$.a.b` and `equalTo`) gives, or `undefined`. */
function jsonPathSubset(pattern: unknown): Json | undefined {
  if (!isObject(pattern) || typeof pattern.expression !== 'string' || Object.keys(pattern).length !== 2) {
    return undefined;
  }
  const keys = jsonPathKeys(pattern.expression);
  if (keys === undefined || typeof pattern.equalTo !== 'string') return undefined;
  return nested(keys, pattern.equalTo);
}

/** A `matches` / `doesNotMatch` matcher as mockpoint's regex form, or why RE2 refuses it; `undefined` for other matchers. */
function regexValue(matcher: Json): ValueMatcher | { refused: string } | undefined {
  const keys = Object.keys(matcher);
  if (keys.length !== 1) return undefined;
  const key = keys[0] as string;
  const source = matcher[key];
  if ((key !== 'matches' && key !== 'doesNotMatch') || typeof source !== 'string') return undefined;
  const regex = (key === 'matches' ? { matches: source } : { doesNotMatch: source }) as ValueMatcher;
  const problem = valueMatcherProblem(regex);
  return problem === undefined ? regex : { refused: `the ${key} ${JSON.stringify(source.slice(0, 200))}: ${problem}` };
}

/** A query parameter's or a header's condition: exact value(s), a regex form, or not sent. */
export type ValueCondition = string | string[] | ValueMatcher | AbsentMatcher;

/**
 * WireMock's value matcher as an exact value, a regex form or `{ absent: true }`;
 * why it is none of them (the condition is then left out); or why RE2 refuses
 * its pattern (the mapping is then left out). `hasExactly` of `equalTo`s is the
 * exact value; of several (`several`, a query parameter's), the values in the
 * order written: `note` says that another order is not taken.
 */
export function exactValue(matcher: unknown, several?: (count: number) => void): ValueCondition | { refused: string } {
  if (!isObject(matcher)) return { refused: 'not a matcher object' };
  const keys = Object.keys(matcher).filter((key) => key !== 'caseInsensitive' || matcher[key] !== false);
  if (keys.length === 1 && typeof matcher.equalTo === 'string') return matcher.equalTo;
  if (keys.length === 1 && matcher.absent === true) return { absent: true };
  const exactly = keys.length === 1 ? exactValues(matcher.hasExactly) : undefined;
  if (exactly !== undefined && exactly.length === 1) return exactly[0] as string;
  if (exactly !== undefined && exactly.length > 1 && several !== undefined) {
    several(exactly.length);
    return exactly;
  }
  const literal = literalValue(matcher, keys);
  if (literal !== undefined) return checkedRegex(literal);
  const regex = regexValue(matcher);
  if (regex !== undefined) return regex;
  const kind = Object.keys(matcher).join(', ').slice(0, 80);
  return {
    refused: `${kind}: no equivalent here (equalTo, equalTo with caseInsensitive, contains, matches, doesNotMatch, absent and hasExactly of equalTo are carried over); a route without it would answer requests WireMock refuses`,
  };
}

/** The values of a `hasExactly` whose matchers are each one `equalTo`, else `undefined`. */
function exactValues(list: unknown): string[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const values: string[] = [];
  for (const one of list) {
    if (!isObject(one) || Object.keys(one).length !== 1 || typeof one.equalTo !== 'string') return undefined;
    values.push(one.equalTo);
  }
  return values;
}

/** `text` as a regular expression that matches exactly it (RE2's and Java's metacharacters escaped). */
export function quoteRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** `equalTo` with `caseInsensitive: true`, and `contains`, as the regex form; `undefined` for others. */
function literalValue(matcher: Json, keys: string[]): ValueMatcher | undefined {
  if (keys.length === 2 && typeof matcher.equalTo === 'string' && matcher.caseInsensitive === true) {
    return { matches: `(?i)${quoteRegex(matcher.equalTo)}` };
  }
  if (keys.length === 1 && typeof matcher.contains === 'string') {
    return { matches: `(?s).*${quoteRegex(matcher.contains)}.*` };
  }
  return undefined;
}

/** `regex` when the daemon saves it (a pattern at most 1024 characters), else why not. */
function checkedRegex(regex: ValueMatcher): ValueMatcher | { refused: string } {
  const problem = valueMatcherProblem(regex);
  return problem === undefined ? regex : { refused: problem };
}

/**
 * WireMock's `cookies` (one cookie's value `equalTo` or `contains`) as a regex
 * over the whole `Cookie` header, or why it has none: several cookies, a
 * `Cookie` header condition beside them, or another matcher.
 */
export function cookieMatch(cookies: Json, header: ValueCondition | undefined): ValueMatcher | string | undefined {
  const names = Object.keys(cookies);
  if (names.length === 0) return undefined;
  if (names.length > 1 || header !== undefined) {
    return 'cookies: more than one cookie condition (or one beside a Cookie header condition) is not one header regex';
  }
  const name = names[0] as string;
  const matcher = cookies[name];
  const shown = `cookie ${JSON.stringify(name.slice(0, 80))}`;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return `${shown}: not a cookie name`;
  if (!isObject(matcher)) return `${shown}: not a matcher object`;
  const keys = Object.keys(matcher).filter((key) => key !== 'caseInsensitive' || matcher[key] !== false);
  const { equalTo, contains } = matcher;
  let value: string | undefined;
  if (keys.length === 1 && typeof equalTo === 'string' && !equalTo.includes(';')) value = quoteRegex(equalTo);
  else if (keys.length === 1 && typeof contains === 'string' && !contains.includes(';'))
    value = `[^;]*${quoteRegex(contains)}[^;]*`;
  if (value === undefined) {
    return `${shown}: ${Object.keys(matcher).join(', ').slice(0, 80)} has no equivalent here (equalTo and contains are carried over, as a regex over the Cookie header)`;
  }
  const regex = checkedRegex({ matches: `(?:.*;\\s*)?${quoteRegex(name)}=${value}(?:;.*)?` });
  return 'refused' in regex ? `${shown}: ${regex.refused}` : regex;
}

/** The `bodyPatterns` as the filter's body (one JSON subset or exact text) and regular expressions; why refused, if so. */
export function addBodyPatterns(match: RequestFilter, patterns: unknown[]): string | undefined {
  let body: unknown;
  let equals: { value: unknown } | undefined;
  const regexes: ValueMatcher[] = [];
  const paths: string[] = [];
  for (const pattern of patterns) {
    if (!isObject(pattern)) return 'bodyPatterns: a pattern is not a matcher object';
    const kind = (Object.keys(pattern)[0] ?? '').slice(0, 40);
    const one = bodyPattern(pattern);
    if (typeof one === 'string') return `bodyPatterns ${kind}: ${one}`;
    if ('regex' in one) regexes.push(one.regex);
    else if ('path' in one) paths.push(one.path);
    else if ('equals' in one) {
      if (equals !== undefined && !jsonEqual(equals.value, one.equals)) {
        return `bodyPatterns ${kind}: two whole-body JSON equalities that differ never both hold`;
      }
      equals = { value: one.equals };
    } else {
      const merged = body === undefined ? one.body : mergeSubsets(body, one.body);
      if (merged === undefined || typeof body === 'string' || (body !== undefined && typeof one.body === 'string')) {
        return `bodyPatterns ${kind}: it and another body pattern cannot be one JSON subset or one exact body`;
      }
      body = merged;
    }
  }
  if (regexes.length > 16) return 'bodyPatterns: more than 16 regular expressions';
  if (paths.length > 8) return 'bodyPatterns: more than 8 matchesJsonPath expressions';
  if (body !== undefined) match.body = body;
  if (regexes.length > 0) match.bodyPatterns = regexes;
  if (equals !== undefined) match.bodyEquals = equals.value;
  if (paths.length > 0) match.bodyJsonPaths = paths;
  return undefined;
}

/**
 * Whether `value` holds an array of two or more elements, at any depth: there alone does the order
 * of elements count. An array of one element (as `items` of a recorded order) is the same in any
 * order, so WireMock's `ignoreArrayOrder` (its recorder writes it on every JSON body) changes nothing.
 */
function holdsOrderedArray(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 1 || value.some(holdsOrderedArray);
  return isObject(value) && Object.values(value).some(holdsOrderedArray);
}

/**
 * A number in `value` that a double does not hold exactly as WireMock compares it (more than 15
 * significant digits: `12345678901234567890`, `0.10000000000000001`), shown; else `undefined`.
 */
function inexactNumber(value: unknown): string | undefined {
  if (typeof value === 'number') {
    const digits = String(Math.abs(value)).replace(/e.*$/, '').replace('.', '').replace(/^0+/, '');
    return digits.length > 15 ? String(value) : undefined;
  }
  if (Array.isArray(value)) return value.map(inexactNumber).find((one) => one !== undefined);
  if (isObject(value))
    return Object.values(value)
      .map(inexactNumber)
      .find((one) => one !== undefined);
  return undefined;
}

/** One `equalToJson` as the filter's JSON subset or whole-body JSON equality, or why it has no equivalent. */
function jsonBodyPattern(pattern: Json): { body: unknown } | { equals: unknown } | string {
  const extra = Object.keys(pattern).find(
    (key) => !['equalToJson', 'ignoreExtraElements', 'ignoreArrayOrder'].includes(key),
  );
  if (extra !== undefined) return `${extra.slice(0, 40)} has no equivalent here`;
  let value: unknown = pattern.equalToJson;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return 'its JSON does not parse';
    }
  }
  if (pattern.ignoreArrayOrder === true && holdsOrderedArray(value)) {
    return 'ignoreArrayOrder: arrays of two or more elements are compared in order here, so a body WireMock matches would be refused';
  }
  const inexact = inexactNumber(value);
  if (inexact !== undefined) {
    return `the number ${inexact} has more digits than a double keeps; compared here it would also take other numbers`;
  }
  // Without ignoreExtraElements: whole-body equality (members in any order, numbers by value), as WireMock's.
  if (pattern.ignoreExtraElements !== true) return { equals: value };
  // With ignoreExtraElements: a JSON subset (WireMock also takes longer arrays; here they must be as long).
  return { body: value };
}

/** One body pattern as a regex, a JSON subset / exact body, a JSON equality or a JSONPath; or why it has no equivalent. */
function bodyPattern(
  pattern: Json,
): { regex: ValueMatcher } | { body: unknown } | { equals: unknown } | { path: string } | string {
  const regex = regexValue(pattern);
  if (regex !== undefined) return 'refused' in regex ? regex.refused : { regex };
  const keys = Object.keys(pattern).filter((key) => key !== 'caseInsensitive' || pattern[key] !== false);
  if (keys.length === 1 && typeof pattern.equalTo === 'string') return { body: pattern.equalTo };
  const literal = literalValue(pattern, keys);
  if (literal !== undefined) {
    const checked = checkedRegex(literal);
    return 'refused' in checked ? checked.refused : { regex: checked };
  }
  if (Object.hasOwn(pattern, 'equalToJson')) return jsonBodyPattern(pattern);
  if (Object.hasOwn(pattern, 'matchesJsonPath')) {
    const path = pattern.matchesJsonPath;
    if (typeof path === 'string' && keys.length === 1) {
      const problem = jsonPathProblem(path);
      return problem === undefined ? { path } : `${JSON.stringify(path.slice(0, 120))}: ${problem}`;
    }
    const subset = jsonPathSubset(path);
    if (subset !== undefined) return { body: subset };
    return `${JSON.stringify(path).slice(0, 120)}: with a matcher, only $.a.b with equalTo is carried over (a JSON subset)`;
  }
  return 'no equivalent here (exact text, contains, a JSON subset or equality, a JSONPath, a regular expression are carried over)';
}
