/**
 * json-server's query language for a list of items (`GET /users?…`, as
 * json-server 0.17 reads it, so that its users switch by pointing their client
 * at mockpoint): full text `q`; filters `field=value` (repeated: any of them),
 * `field_ne` (none of them), `field_gte`, `field_lte`, `field_like` (a regular
 * expression, case-insensitive) over dotted paths; `_sort`/`_order` over several
 * fields; `_page`/`_limit` (with a `Link` header) or `_start`/`_end`/`_limit`;
 * `X-Total-Count`. Where json-server is odd, this is too (docs/state.md lists
 * how): a filter on a field no item has is ignored; values compare as text,
 * `_gte`/`_lte` as JavaScript's `<=` does. Where it must differ, it refuses
 * instead of guessing: a paging number that is not a whole number, or a
 * `_like` pattern that is not valid (patterns run by RE2, in linear time), is a
 * problem to answer with `INVALID_QUERY`.
 *
 * @module
 */
import { compilePattern, type SchemaPattern } from '../pattern/schema-pattern.js';
import type { Item } from './item.js';
import { hasPath, pathProblem, valueAt } from './json-path.js';

/** The query parameters that are not filters. */
const RESERVED = new Set(['q', '_start', '_end', '_page', '_sort', '_order', '_limit', '_embed', '_expand']);
/** Parameters json-server leaves alone (JSONP, and jQuery's cache-buster). */
const IGNORED = new Set(['callback', '_']);
const OPERATOR = /_(ne|gte|lte|like)$/;
/** A whole number as a paging parameter takes it (json-server's `parseInt`, without its leniency). */
const WHOLE = /^-?\d{1,15}$/;
/** `_like` patterns at most per request: each is run once per item. */
const MAX_PATTERNS = 32;
/** Filters (distinct parameter names), `_sort` fields, and `_embed` plus `_expand` names at most per request. */
const MAX_FILTERS = 64;
const MAX_SORT_FIELDS = 16;
const MAX_RELATIONS = 16;
/** Filter values at most per request, all filters together: each is compared once per item. */
const MAX_FILTER_VALUES = 1_000;
/**
 * The most RE2 work the `_like` filters of one request may do, in steps of
 * about 256 pattern instructions × characters (as a route's JSON Schema
 * patterns are charged): a costly pattern over a large collection is refused
 * (`INVALID_QUERY`) instead of stalling the daemon. Typical filters take a
 * few thousand.
 */
export const MAX_LIKE_STEPS = 500_000;

type Operator = 'eq' | 'ne' | 'gte' | 'lte' | 'like';

interface Filter {
  path: string;
  /** `path` split at its dots, once per request rather than once per item. */
  segments: string[];
  operator: Operator;
  values: string[];
  patterns: SchemaPattern[];
}

/** One `_sort` field and its `_order`. */
interface SortKey {
  path: string;
  segments: string[];
  descending: boolean;
}

/** A list query, read from the request's parameters by {@link parseListQuery}. */
export interface ListQuery {
  /** `q`, lower-cased; undefined when absent or empty. */
  q: string | undefined;
  filters: Filter[];
  sort: SortKey[];
  page: number | undefined;
  limit: number | undefined;
  start: number | undefined;
  end: number | undefined;
  /** Collections to embed (`_embed`): the items whose `<singular>Id` is this item's id. */
  embed: string[];
  /** Items to expand (`_expand=user`): the `users` item whose id is this item's `userId`. */
  expand: string[];
}

/** What is wrong with a query, in a sentence (for `INVALID_QUERY`). */
export interface QueryProblem {
  problem: string;
}

function whole(name: string, value: string | undefined): number | undefined | QueryProblem {
  if (value === undefined || value === '') return undefined;
  if (!WHOLE.test(value)) return { problem: `${name} must be a whole number (got ${JSON.stringify(value)})` };
  return Number(value);
}

/**
 * Reads the parameters of `GET /<collection>?…` (in the order given; a
 * repeated reserved parameter counts once, its first value).
 */
export function parseListQuery(params: Iterable<readonly [string, string]>): ListQuery | QueryProblem {
  const first = new Map<string, string>();
  const all = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (!first.has(key)) first.set(key, value);
    const values = all.get(key);
    if (values) values.push(value);
    else all.set(key, [value]);
  }
  const numbers: Record<'page' | 'limit' | 'start' | 'end', number | undefined> = {
    page: undefined,
    limit: undefined,
    start: undefined,
    end: undefined,
  };
  for (const name of ['page', 'limit', 'start', 'end'] as const) {
    const value = whole(`_${name}`, first.get(`_${name}`));
    if (typeof value === 'object') return value;
    numbers[name] = value;
  }
  const filters: Filter[] = [];
  let patternCount = 0;
  let valueCount = 0;
  for (const [key, values] of all) {
    if (RESERVED.has(key) || IGNORED.has(key)) continue;
    const operator = (OPERATOR.exec(key)?.[1] ?? 'eq') as Operator;
    const path = operator === 'eq' ? key : key.slice(0, -(operator.length + 1));
    const patterns: SchemaPattern[] = [];
    if (operator === 'like') {
      for (const value of values) {
        if (++patternCount > MAX_PATTERNS) return { problem: `at most ${MAX_PATTERNS} _like patterns per request` };
        const pattern = compilePattern(value, { ignoreCase: true });
        if (typeof pattern === 'string') return { problem: `${key} is not a pattern mockpoint can run: ${pattern}` };
        patterns.push(pattern);
      }
    }
    if (filters.length === MAX_FILTERS) return { problem: `at most ${MAX_FILTERS} filter parameters per request` };
    valueCount += values.length;
    if (valueCount > MAX_FILTER_VALUES) return { problem: `at most ${MAX_FILTER_VALUES} filter values per request` };
    const bad = pathProblem(path);
    if (bad !== undefined) return { problem: `the filter ${shortKey(key)}: ${bad}` };
    filters.push({ path, segments: path.split('.'), operator, values, patterns });
  }
  const sortFields = first.get('_sort');
  const orders = (first.get('_order') ?? '').split(',').map((order) => order.toLowerCase());
  const q = first.get('q');
  if (sortFields && sortFields.split(',').length > MAX_SORT_FIELDS) {
    return { problem: `_sort names at most ${MAX_SORT_FIELDS} fields` };
  }
  for (const field of sortFields ? sortFields.split(',') : []) {
    const bad = pathProblem(field);
    if (bad !== undefined) return { problem: `the _sort field ${shortKey(field)}: ${bad}` };
  }
  const relations = parseRelations(all.get('_embed') ?? [], all.get('_expand') ?? []);
  if ('problem' in relations) return relations;
  const { embed, expand } = relations;
  return {
    q: q ? q.toLowerCase() : undefined,
    filters,
    sort: sortFields
      ? sortFields.split(',').map((path, i) => ({ path, segments: path.split('.'), descending: orders[i] === 'desc' }))
      : [],
    ...numbers,
    embed,
    expand,
  };
}

/** A parameter name as a message quotes it: JSON, its first 40 characters. */
function shortKey(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
}

/** The collections one request embeds and expands (each once), or why not. */
export interface Relations {
  embed: string[];
  expand: string[];
}

/**
 * `_embed` and `_expand` of one request, on a list and on an item alike: each
 * name once (a repeat adds nothing to the answer), at most {@link MAX_RELATIONS}
 * names together.
 */
export function parseRelations(embed: readonly string[], expand: readonly string[]): Relations | QueryProblem {
  const relations = { embed: [...new Set(embed)], expand: [...new Set(expand)] };
  if (relations.embed.length + relations.expand.length > MAX_RELATIONS) {
    return { problem: `_embed and _expand name at most ${MAX_RELATIONS} collections together` };
  }
  return relations;
}

/** Whether `value` holds `q` anywhere (json-server's `deepQuery`: falsy values never do). */
function deepQuery(value: unknown, q: string): boolean {
  if (!value) return false;
  if (Array.isArray(value)) return value.some((element) => deepQuery(element, q));
  if (typeof value === 'object') return Object.values(value).some((member) => deepQuery(member, q));
  return String(value).toLowerCase().includes(q);
}

/** The RE2 steps a list query's `_like` filters have spent (see {@link MAX_LIKE_STEPS}). */
interface LikeBudget {
  steps: number;
}

/** A list query whose `_like` filters would cost more than {@link MAX_LIKE_STEPS} over this collection. */
export class QueryTooCostlyError extends Error {
  override readonly name = 'QueryTooCostlyError';
}

/** One filter value against an item: undefined (no match) where the item has nothing at the path. */
function test(filter: Filter, item: Item, i: number, budget: LikeBudget): boolean {
  const found = valueAt(item.value, filter.path, filter.segments);
  if (found === undefined || found === null) return false;
  const value = filter.values[i] as string;
  // As json-server compares: as text, and `_gte`/`_lte` by JavaScript's own `<=`.
  // biome-ignore lint/suspicious/noExplicitAny: the comparison is JavaScript's, between a string and any JSON value
  const other = found as any;
  switch (filter.operator) {
    case 'gte':
      return value <= other;
    case 'lte':
      return value >= other;
    case 'ne':
      return value !== String(found);
    case 'like': {
      const pattern = filter.patterns[i] as SchemaPattern;
      const text = String(found);
      budget.steps += 1 + Math.floor((text.length * (32 + pattern.programSize())) / 256);
      if (budget.steps > MAX_LIKE_STEPS) {
        throw new QueryTooCostlyError(
          `the _like patterns would take more than ${MAX_LIKE_STEPS} steps over this collection; use a simpler pattern, or another filter first`,
        );
      }
      return pattern.test(text);
    }
    default:
      return value === String(found);
  }
}

function passes(filter: Filter, item: Item, budget: LikeBudget): boolean {
  // `_ne`: none of the values; the others: any of them.
  if (filter.operator === 'ne') return filter.values.every((_, i) => test(filter, item, i, budget));
  return filter.values.some((_, i) => test(filter, item, i, budget));
}

/** lodash's `compareAscending`, for JSON values: `null` after the rest, missing values last. */
function compareAscending(a: unknown, b: unknown): number {
  if (a === b) return 0;
  // biome-ignore lint/suspicious/noExplicitAny: JavaScript's `<` and `>` between any two JSON values, as lodash compares
  const [x, y] = [a as any, b as any];
  const aDefined = a !== undefined;
  const bDefined = b !== undefined;
  if ((b !== null && x > y) || (a === null && bDefined) || !aDefined) return 1;
  if ((a !== null && x < y) || (b === null && aDefined) || !bDefined) return -1;
  return 0;
}

/** The page numbers a `Link` header names (json-server's `getPage`). */
export interface PageLinks {
  current?: number;
  first?: number;
  prev?: number;
  next?: number;
  last?: number;
}

/** Which items a list answers with, in order, and what its headers say. */
export interface ListResult {
  /** Indexes into the items, in the order to answer. */
  indexes: number[];
  /** `X-Total-Count`: how many matched, before paging (only when paged). */
  total: number | undefined;
  /** The pages for `Link` (only with `_page`). */
  pages: PageLinks | undefined;
}

/**
 * Applies `query` to `items`: full text, filters, sort, then the page or slice.
 * @throws QueryTooCostlyError when its `_like` filters would cost more than {@link MAX_LIKE_STEPS}
 */
export function runListQuery(items: readonly Item[], query: ListQuery): ListResult {
  const budget: LikeBudget = { steps: 0 };
  let indexes = items.map((_, i) => i);
  const { q } = query;
  if (q !== undefined) indexes = indexes.filter((i) => deepQuery((items[i] as Item).value, q));
  for (const filter of query.filters) {
    // A filter on a field that no item has is dropped (json-server's rule); operators always apply.
    if (filter.operator === 'eq' && !items.some((item) => hasPath(item.value, filter.path, filter.segments))) continue;
    indexes = indexes.filter((i) => passes(filter, items[i] as Item, budget));
  }
  if (query.sort.length > 0) {
    const keys = indexes.map((i) => query.sort.map((key) => valueAt((items[i] as Item).value, key.path, key.segments)));
    const order = indexes.map((_, k) => k);
    order.sort((a, b) => {
      for (let s = 0; s < query.sort.length; s++) {
        const result = compareAscending((keys[a] as unknown[])[s], (keys[b] as unknown[])[s]);
        if (result !== 0) return (query.sort[s] as SortKey).descending ? -result : result;
      }
      return a - b;
    });
    indexes = order.map((k) => indexes[k] as number);
  }
  const paged = query.end !== undefined || query.limit !== undefined || query.page !== undefined;
  const total = paged ? indexes.length : undefined;
  if (query.page !== undefined) {
    const page = Math.max(query.page, 1);
    const limit = query.limit || 10;
    const start = (page - 1) * limit;
    const end = page * limit;
    const slice = indexes.slice(start, end);
    const pages: PageLinks = {};
    if (slice.length > 0) {
      if (page > 1) pages.prev = page - 1;
      if (end < indexes.length) pages.next = page + 1;
      if (slice.length !== indexes.length) {
        pages.current = page;
        pages.first = 1;
        pages.last = Math.ceil(indexes.length / limit);
      }
    }
    return { indexes: slice, total, pages };
  }
  if (query.end !== undefined) return { indexes: indexes.slice(query.start ?? 0, query.end), total, pages: undefined };
  if (query.limit !== undefined) {
    const start = query.start ?? 0;
    return { indexes: indexes.slice(start, start + query.limit), total, pages: undefined };
  }
  return { indexes, total, pages: undefined };
}

/**
 * The `Link` header of a page, as json-server (Express's `res.links`) writes it:
 * the request's full URL with its first `page=<current>` replaced, per relation.
 */
export function linkHeader(fullUrl: string, pages: PageLinks): string {
  const rels = ['first', 'prev', 'next', 'last'] as const;
  return rels
    .filter((rel) => pages[rel] !== undefined)
    .map((rel) => `<${fullUrl.replace(`page=${pages.current}`, `page=${pages[rel]}`)}>; rel="${rel}"`)
    .join(', ');
}
