/**
 * Stripe's search query language, parsed once per request in one linear pass
 * and then matched against each stored item: clauses `field:value`,
 * `field~value` (a substring of at least three characters), `field>n`,
 * `field<n`, `field>=n`, `field<=n`, `field=n`, `metadata['key']:value`, a
 * leading `-` to negate, `null` for an absent field, joined by spaces or
 * `AND`, or by `OR` (never both in one query). Bounded as Stripe bounds it: at
 * most {@link SEARCH_MAX_CLAUSES} clauses; and a query of at most
 * {@link SEARCH_MAX_LENGTH} characters. A query past them, or one that does not
 * parse, is a {@link SearchProblem}: the twin answers it with the provider's
 * 400 on `query`.
 *
 * @module
 */

/** Stripe's limit on the clauses of one search query. */
export const SEARCH_MAX_CLAUSES = 10;
/** The longest search query the twin reads, in UTF-16 code units. */
export const SEARCH_MAX_LENGTH = 1000;
/** The fewest characters a substring (`~`) clause may ask for, as Stripe says. */
const SUBSTRING_MIN = 3;

/** A search query that cannot be run: the message names what to change; `code` Stripe's, where it has one. */
export class SearchProblem extends Error {
  constructor(
    message: string,
    readonly code = 'parameter_invalid',
  ) {
    super(message);
  }
}

type Operator = ':' | '~' | '>' | '<' | '>=' | '<=' | '=';

interface Clause {
  negate: boolean;
  path: readonly string[];
  key: string | undefined;
  operator: Operator;
  /** The wanted value; `null` for the word null unquoted. */
  value: string | null;
}

/** A parsed query: its clauses and whether any one (`OR`) or all of them must hold. */
export interface SearchQuery {
  clauses: readonly Clause[];
  any: boolean;
}

const FIELD_CHAR = /[A-Za-z0-9_.]/;
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Reads the query once, left to right: every character is looked at a bounded number of times. */
export function parseSearch(query: string): SearchQuery {
  if (query.length > SEARCH_MAX_LENGTH) {
    throw new SearchProblem(`The search query is ${query.length} characters long; at most ${SEARCH_MAX_LENGTH}.`);
  }
  if (query.trim() === '') throw new SearchProblem('Missing required param: query.', 'parameter_missing');
  const clauses: Clause[] = [];
  let joiner: 'AND' | 'OR' | undefined;
  let at = 0;
  const skipSpaces = () => {
    while (isSpace(query[at])) at++;
  };
  const fail = (what: string): never => {
    throw new SearchProblem(`Invalid search query at character ${at + 1}: ${what}.`);
  };
  const quoted = (): string => {
    const quote = query[at] as string;
    at++;
    let text = '';
    while (at < query.length && query[at] !== quote) {
      if (query[at] === '\\' && at + 1 < query.length) at++;
      text += query[at];
      at++;
    }
    if (at >= query.length) fail(`a value opened with ${quote} is never closed`);
    at++;
    return text;
  };
  skipSpaces();
  while (at < query.length) {
    if (clauses.length > 0) {
      const word = /^(AND|OR)(?=\s)/i.exec(query.slice(at, at + 4))?.[1]?.toUpperCase() as 'AND' | 'OR' | undefined;
      const next = word ?? 'AND';
      if (word !== undefined) {
        at += word.length;
        skipSpaces();
      }
      if (joiner !== undefined && joiner !== next) fail('AND and OR cannot be combined in one query');
      joiner = next;
    }
    if (clauses.length === SEARCH_MAX_CLAUSES) {
      throw new SearchProblem(`A search query may have at most ${SEARCH_MAX_CLAUSES} clauses.`);
    }
    const negate = query[at] === '-';
    if (negate) at++;
    const start = at;
    while (at < query.length && FIELD_CHAR.test(query[at] as string)) at++;
    if (at === start) fail('a field name is expected');
    const path = query.slice(start, at).split('.');
    if (path.some((part) => part === '')) fail('a field name has an empty part');
    let key: string | undefined;
    if (query[at] === '[') {
      at++;
      if (query[at] !== "'" && query[at] !== '"') fail("a quoted key is expected after '['");
      key = quoted();
      if (query[at] !== ']') fail("']' is expected after the key");
      at++;
    }
    const two = query.slice(at, at + 2);
    const operator: Operator | undefined =
      two === '>=' || two === '<='
        ? two
        : ([':', '~', '>', '<', '='] as const).find((candidate) => candidate === query[at]);
    if (operator === undefined) fail("an operator (':', '~', '>', '<', '>=', '<=' or '=') is expected");
    at += (operator as Operator).length;
    let value: string | null;
    if (query[at] === "'" || query[at] === '"') value = quoted();
    else {
      const begin = at;
      while (at < query.length && !isSpace(query[at])) at++;
      if (at === begin) fail('a value is expected');
      const word = query.slice(begin, at);
      value = word === 'null' ? null : word;
    }
    if (operator === '~' && (value === null || value.length < SUBSTRING_MIN)) {
      fail(`a substring (~) needs at least ${SUBSTRING_MIN} characters`);
    }
    if (
      (operator === '>' || operator === '<' || operator === '>=' || operator === '<=' || operator === '=') &&
      !isNumber(value)
    ) {
      fail(`'${operator}' compares numbers`);
    }
    clauses.push({ negate, path, key, operator: operator as Operator, value });
    if (at < query.length && !isSpace(query[at])) fail('a space is expected between clauses');
    skipSpaces();
  }
  return { clauses, any: joiner === 'OR' };
}

function isNumber(value: string | null): boolean {
  return value !== null && value.trim() !== '' && Number.isFinite(Number(value));
}

function valueAt(item: Record<string, unknown>, clause: Clause): unknown {
  let value: unknown = item;
  for (const part of clause.path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (clause.key !== undefined) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, clause.key)) return undefined;
    value = (value as Record<string, unknown>)[clause.key];
  }
  return value;
}

function holds(item: Record<string, unknown>, clause: Clause): boolean {
  const value = valueAt(item, clause);
  const absent = value === null || value === undefined;
  let hit: boolean;
  if (clause.value === null) hit = absent;
  else if (absent || typeof value === 'object') hit = false;
  else {
    const text = String(value);
    const wanted = clause.value;
    if (clause.operator === ':') hit = text.toLowerCase() === wanted.toLowerCase();
    else if (clause.operator === '~') hit = text.toLowerCase().includes(wanted.toLowerCase());
    else {
      const [a, b] = [Number(text), Number(wanted)];
      hit =
        clause.operator === '>'
          ? a > b
          : clause.operator === '<'
            ? a < b
            : clause.operator === '>='
              ? a >= b
              : clause.operator === '<='
                ? a <= b
                : a === b;
    }
  }
  return clause.negate ? !hit : hit;
}

/** Whether `item` matches the parsed `query`. An absent or null field matches only `null`. */
export function matchesSearch(item: Record<string, unknown>, query: SearchQuery): boolean {
  return query.any
    ? query.clauses.some((clause) => holds(item, clause))
    : query.clauses.every((clause) => holds(item, clause));
}
