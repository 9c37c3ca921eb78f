/**
 * A twin's lists: the live items of a collection filtered by the query's plain
 * fields (or a search query), ordered as the profile says and paged the
 * provider's way — a cursor (`limit`, `starting_after`, `ending_before`,
 * `has_more`) or numbered pages (`per_page`, `page` and a `Link` header).
 *
 * @module
 */
import type { TwinProfile } from './twin-profile.js';

/** One page of a list and what the answer says about the rest. */
export interface Page {
  items: Record<string, unknown>[];
  hasMore: boolean;
  total: number;
  /** The `Link` header of numbered pages. */
  link?: string;
}

/** A page problem: a bad page size or cursor, or a search query Stripe refuses; `code` is Stripe's. */
export class PageProblem extends Error {
  constructor(
    message: string,
    readonly param: string,
    readonly code = 'parameter_invalid_integer',
  ) {
    super(message);
  }
}

function sizeOf(value: unknown, param: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > max) {
    throw new PageProblem(`Invalid ${param}: must be an integer between 1 and ${max}.`, param);
  }
  return size;
}

/** Most clauses one search query holds, as Stripe allows ("up to 10 query clauses"). */
export const SEARCH_MAX_CLAUSES = 10;
/** Most characters one search query holds (the twin's own bound; Stripe's queries are short). */
export const SEARCH_MAX_LENGTH = 1_000;

/** One clause of a search query: `-metadata['order']:'6735'`, `amount>1000`, `email~"example"`. */
export interface SearchClause {
  negate: boolean;
  field: string;
  /** The key of `metadata['key']`. */
  key?: string;
  operator: ':' | '~' | '=' | '>' | '<' | '>=' | '<=';
  /** The value as written, its quotes removed (`null` for the bare word null). */
  value: string | null;
}

/** A search query read once: its clauses, joined all by AND or all by OR (Stripe never mixes them). */
export interface SearchQuery {
  join: 'AND' | 'OR';
  clauses: SearchClause[];
}

const FIELD_CHAR = /[A-Za-z0-9_.]/;
const SPACE = /\s/;

function searchProblem(message: string): PageProblem {
  return new PageProblem(`Invalid search query: ${message}`, 'query', 'parameter_invalid');
}

/**
 * Reads a search query in one pass (no backtracking): clauses of a field (with an
 * optional `['key']`), an operator and a value (quoted, a backslash escaping a quote, or
 * one bare word), joined by spaces, `AND` or `OR`. Throws a {@link PageProblem}
 * (param `query`) for a query Stripe refuses: too long, more than
 * {@link SEARCH_MAX_CLAUSES} clauses, AND mixed with OR, a syntax error.
 */
export function parseSearch(query: string): SearchQuery {
  if (query.length > SEARCH_MAX_LENGTH) {
    throw searchProblem(`the query is ${query.length} characters long; at most ${SEARCH_MAX_LENGTH} are allowed.`);
  }
  const clauses: SearchClause[] = [];
  let join: 'AND' | 'OR' | undefined;
  let at = 0;
  const end = query.length;
  const skipSpace = () => {
    while (at < end && SPACE.test(query[at] as string)) at++;
  };
  const near = () => `at character ${at + 1}`;
  const quoted = (): string => {
    const quote = query[at] as string;
    at++;
    let text = '';
    while (at < end && query[at] !== quote) {
      if (query[at] === '\\' && at + 1 < end) at++;
      text += query[at];
      at++;
    }
    if (at >= end) throw searchProblem(`a quoted value is not closed ${near()}.`);
    at++;
    return text;
  };
  skipSpace();
  // No query (as a search the twin never wrote is asked without one) matches nothing.
  if (at >= end) return { join: 'AND', clauses: [] };
  while (at < end) {
    if (clauses.length > 0) {
      // A separator: spaces, then perhaps AND or OR and more spaces.
      const word = /^(AND|OR)(?=\s)/i.exec(query.slice(at, at + 4))?.[1]?.toUpperCase() as 'AND' | 'OR' | undefined;
      const kind = word ?? 'AND';
      if (word !== undefined) {
        at += word.length;
        skipSpace();
      }
      if (join !== undefined && join !== kind) {
        throw searchProblem('AND and OR cannot be combined in one query.');
      }
      join = kind;
      if (clauses.length >= SEARCH_MAX_CLAUSES) {
        throw searchProblem(`a query holds at most ${SEARCH_MAX_CLAUSES} clauses.`);
      }
    }
    const negate = query[at] === '-';
    if (negate) at++;
    const fieldStart = at;
    while (at < end && FIELD_CHAR.test(query[at] as string)) at++;
    const field = query.slice(fieldStart, at);
    if (field === '') throw searchProblem(`a field name is expected ${near()}.`);
    let key: string | undefined;
    if (query[at] === '[') {
      at++;
      if (query[at] !== "'" && query[at] !== '"') throw searchProblem(`a quoted key is expected ${near()}.`);
      key = quoted();
      if (query[at] !== ']') throw searchProblem(`] is expected ${near()}.`);
      at++;
    }
    const two = query.slice(at, at + 2);
    const operator = (
      two === '>=' || two === '<=' ? two : [':', '~', '=', '>', '<'].includes(query[at] ?? '') ? query[at] : undefined
    ) as SearchClause['operator'] | undefined;
    if (operator === undefined) throw searchProblem(`an operator (: ~ = > < >= <=) is expected ${near()}.`);
    at += operator.length;
    let value: string | null;
    if (query[at] === "'" || query[at] === '"') value = quoted();
    else {
      const valueStart = at;
      while (at < end && !SPACE.test(query[at] as string) && query[at] !== "'" && query[at] !== '"') at++;
      value = query.slice(valueStart, at);
      if (value === '') throw searchProblem(`a value is expected ${near()}.`);
      if (value === 'null') value = null;
    }
    if (operator === '~' && (value === null || value.length < 3)) {
      throw searchProblem('a substring (~) value needs at least 3 characters.');
    }
    if (operator !== ':' && operator !== '~' && (value === null || !Number.isFinite(Number(value)))) {
      throw searchProblem(`${operator} compares numbers; ${JSON.stringify(String(value).slice(0, 50))} is not one.`);
    }
    clauses.push({ negate, field, ...(key === undefined ? {} : { key }), operator, value });
    if (at < end && !SPACE.test(query[at] as string)) throw searchProblem(`a space is expected ${near()}.`);
    skipSpace();
  }
  return { join: join ?? 'AND', clauses };
}

function clauseHits(item: Record<string, unknown>, clause: SearchClause): boolean {
  let value = Object.hasOwn(item, clause.field) ? item[clause.field] : undefined;
  if (clause.key !== undefined) {
    const holder = value as Record<string, unknown> | null | undefined;
    value =
      typeof holder === 'object' && holder !== null && Object.hasOwn(holder, clause.key)
        ? holder[clause.key]
        : undefined;
  }
  const wanted = clause.value;
  let hit: boolean;
  if (wanted === null) hit = value === null || value === undefined || value === '';
  else {
    const text = value === null || value === undefined ? '' : String(value);
    if (clause.operator === '~') hit = text.toLowerCase().includes(wanted.toLowerCase());
    else if (clause.operator === ':') hit = text.toLowerCase() === wanted.toLowerCase();
    else {
      const [a, b] = [value === null || value === undefined || text === '' ? Number.NaN : Number(text), Number(wanted)];
      const op = clause.operator;
      hit = op === '=' ? a === b : op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
    }
  }
  return clause.negate ? !hit : hit;
}

/** Whether `item` matches a search query read by {@link parseSearch}. */
export function matchesSearch(item: Record<string, unknown>, query: SearchQuery): boolean {
  if (query.clauses.length === 0) return false;
  return query.join === 'OR'
    ? query.clauses.some((clause) => clauseHits(item, clause))
    : query.clauses.every((clause) => clauseHits(item, clause));
}

/** Keeps the items whose top-level scalar fields equal the query's plain parameters that they have. */
export function filterByQuery(
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  skip: ReadonlySet<string>,
): Record<string, unknown>[] {
  const wanted = Object.entries(query).filter(
    ([key, value]) =>
      !skip.has(key) && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'),
  );
  return items.filter((item) =>
    wanted.every(([key, value]) => !(key in item) || item[key] === null || String(item[key]) === String(value)),
  );
}

/** The page `query` asks for of `items` (in the profile's order already). */
export function pageOf(
  profile: TwinProfile,
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  url: string,
): Page {
  const pages = profile.pagination;
  const limit = sizeOf(query[pages.limit], pages.limit, pages.defaultLimit, pages.maxLimit);
  if (pages.style === 'cursor') {
    const after = query[pages.after];
    const before = query[pages.before];
    let start = 0;
    let end = items.length;
    if (typeof after === 'string' && after !== '') {
      const at = items.findIndex((item) => item.id === after);
      if (at === -1) throw new PageProblem(`No such object: '${after.slice(0, 200)}'`, pages.after);
      start = at + 1;
    }
    if (typeof before === 'string' && before !== '') {
      const at = items.findIndex((item) => item.id === before);
      if (at === -1) throw new PageProblem(`No such object: '${before.slice(0, 200)}'`, pages.before);
      end = at;
      start = Math.max(start, end - limit);
    }
    const slice = items.slice(start, Math.min(end, start + limit));
    return { items: slice, hasMore: start + limit < end, total: items.length };
  }
  const page = sizeOf(query[pages.page], pages.page, 1, Number.MAX_SAFE_INTEGER);
  const last = Math.max(1, Math.ceil(items.length / limit));
  const slice = items.slice((page - 1) * limit, page * limit);
  const linkTo = (n: number, rel: string) => `<${url}?${pages.limit}=${limit}&${pages.page}=${n}>; rel="${rel}"`;
  const links: string[] = [];
  if (page > 1) links.push(linkTo(page - 1, 'prev'), linkTo(1, 'first'));
  if (page < last) links.push(linkTo(page + 1, 'next'), linkTo(last, 'last'));
  return {
    items: slice,
    hasMore: page < last,
    total: items.length,
    ...(links.length > 0 ? { link: links.join(', ') } : {}),
  };
}
