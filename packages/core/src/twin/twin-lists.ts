/**
 * A twin's lists: the live items of a collection filtered by the query's plain
 * fields (or a search query), ordered as the profile says and paged the
 * provider's way — a cursor (`limit`, `starting_after`, `ending_before`,
 * `has_more`), numbered pages (`per_page`, `page` and a `Link` header), or as
 * the document's list operation says (twin-document.ts): its cursor parameter
 * taking the `next_cursor` the page before answered.
 *
 * @module
 */
import type { DocumentList } from './twin-document.js';
import type { TwinProfile } from './twin-profile.js';

/** One page of a list and what the answer says about the rest. */
export interface Page {
  items: Record<string, unknown>[];
  hasMore: boolean;
  total: number;
  /** The `Link` header of numbered pages. */
  link?: string;
  /** The cursor of the next page (`null`: this is the last) where the pages take one. */
  next?: string | null;
}

/** Pages as the document's cursor parameter takes them: after the item whose id it is. */
interface TokenPages {
  style: 'token';
  limit: string;
  after: string;
  defaultLimit: number;
  minLimit: number;
  maxLimit: number;
}

/** How one list pages: the profile's, or what the document's list operation says. */
export type Pages = (Exclude<TwinProfile['pagination'], { style: 'document' }> | TokenPages) & { minLimit?: number };

/**
 * The default page size of a document that gives none. A document that states no maximum sets
 * none: a page is at most what the collection holds (`--max-collection-items`).
 */
const DOCUMENT_DEFAULT_LIMIT = 30;

/**
 * The pages of a list: the profile's; with its `document` style (the default), a cursor where the
 * list operation takes one (`cursor`, `pageToken`), else numbered pages, by its own parameters'
 * names, default and bounds.
 */
export function pagesOf(pagination: TwinProfile['pagination'], list: DocumentList = {}): Pages {
  if (pagination.style !== 'document') return pagination;
  const maxLimit = list.maxLimit ?? Number.MAX_SAFE_INTEGER;
  const minLimit = Math.min(list.minLimit ?? 1, maxLimit);
  const defaultLimit = Math.max(Math.min(list.defaultLimit ?? DOCUMENT_DEFAULT_LIMIT, maxLimit), minLimit);
  const sizes = { defaultLimit, minLimit, maxLimit };
  if (list.after !== undefined) return { style: 'token', limit: list.limit ?? 'limit', after: list.after, ...sizes };
  return { style: 'page', limit: list.limit ?? 'per_page', page: list.page ?? 'page', ...sizes };
}

/** A page problem: a bad page size or cursor (`code` and `param` absent where the provider names none). */
export class PageProblem extends Error {
  constructor(
    message: string,
    readonly param: string | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * What Stripe calls the objects of a list in `No such customer: 'cus_x'`: its items' `object`,
 * else the path's last segment made singular (`/v1/payment_intents`: `payment_intent`).
 */
function objectName(items: readonly Record<string, unknown>[], url: string): string {
  const named = items.find((item) => typeof item.object === 'string')?.object;
  if (typeof named === 'string') return named;
  const last = url.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? 'object';
  return last.endsWith('s') ? last.slice(0, -1) : last;
}

function sizeOf(value: unknown, param: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const size = Number(value);
  if (!Number.isSafeInteger(size) || size < min || size > max) {
    const within = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `between ${min} and ${max}`;
    throw new PageProblem(`Invalid ${param}: must be an integer ${within}.`, param, 'parameter_invalid_integer');
  }
  return size;
}

/**
 * Keeps the items whose top-level scalar fields equal the query's plain
 * parameters. A parameter no item has as a field (`sort`, `direction`) is no
 * filter; a filter never matches an item whose field is absent or null (docs/design.md#twins-as-the-provider-answers).
 */
export function filterByQuery(
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  skip: ReadonlySet<string>,
): Record<string, unknown>[] {
  const wanted = Object.entries(query).filter(
    ([key, value]) =>
      !skip.has(key) &&
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
      items.some((item) => key in item),
  );
  return items.filter((item) =>
    wanted.every(
      ([key, value]) => item[key] !== null && item[key] !== undefined && String(item[key]) === String(value),
    ),
  );
}

/**
 * The query string `raw` with its `page` parameter `n` (in its place, else added), every other
 * parameter kept as sent (GitHub's `Link` keeps the request's filters); what could break the
 * header (`<`, `>`, `"`, spaces, anything outside visible ASCII) percent-encoded.
 */
export function withPage(raw: string, param: string, n: number | string): string {
  const pairs = raw.split('&').filter((pair) => pair !== '');
  const name = (pair: string) => {
    const key = pair.split('=')[0] ?? '';
    try {
      return decodeURIComponent(key.replaceAll('+', ' '));
    } catch {
      return key;
    }
  };
  const page = `${encodeURIComponent(param)}=${encodeURIComponent(n)}`;
  let placed = false;
  const kept = pairs.flatMap((pair) => {
    if (name(pair) !== param) return [pair];
    if (placed) return [];
    placed = true;
    return [page];
  });
  if (!placed) kept.push(page);
  return kept.join('&').replace(/[^\x21-\x7e]|[<>"]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : '%3F';
  });
}

/**
 * The page `query` asks for of `items` (in the profile's order already); numbered pages link to
 * the others at `url` with the request's query string `raw`, only its page changed. `list`: what
 * the document's list operation says of its pages.
 */
export function pageOf(
  profile: TwinProfile,
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  url: string,
  raw = '',
  list?: DocumentList,
  unseen: 'missing' | 'examples' = 'missing',
): Page {
  const pages = pagesOf(profile.pagination, list);
  const limit = sizeOf(query[pages.limit], pages.limit, pages.defaultLimit, pages.minLimit ?? 1, pages.maxLimit);
  if (pages.style === 'token') {
    const after = query[pages.after];
    let start = 0;
    if (after !== undefined && after !== null && after !== '') {
      const at = items.findIndex((item) => String(item.id) === String(after));
      // With `unseen: "examples"` a cursor the twin never answered is one of an item it never made:
      // nothing of what it made comes after it (an SDK's generated test sends `after: 'after'`).
      if (at === -1 && unseen === 'examples') return { items: [], hasMore: false, total: items.length, next: null };
      if (at === -1) {
        throw new PageProblem(
          `Invalid ${pages.after}: '${String(after).slice(0, 200)}' is no cursor this list answered (or its item is gone).`,
          pages.after,
          'cursor_invalid',
        );
      }
      start = at + 1;
    }
    const slice = items.slice(start, start + limit);
    const hasMore = start + limit < items.length;
    // An empty page (`limit=0`) has no item to continue after: the next page starts where this one did.
    const next = !hasMore ? null : slice.length > 0 ? String(slice.at(-1)?.id) : start > 0 ? String(after) : null;
    return { items: slice, hasMore, total: items.length, next };
  }
  if (pages.style === 'cursor') {
    const after = query[pages.after];
    const before = query[pages.before];
    let start = 0;
    let end = items.length;
    const given = (value: unknown): value is string => typeof value === 'string' && value !== '';
    // Stripe takes one cursor or the other, never both (its message names them in this order).
    if (given(after) && given(before)) {
      const both = [pages.after, pages.before].sort().join(', ');
      throw new PageProblem(`You may only specify one of these parameters: ${both}.`, undefined, undefined);
    }
    // A cursor naming no object of the list: Stripe's `resource_missing` on that parameter.
    const missing = (id: string, param: string) =>
      new PageProblem(`No such ${objectName(items, url)}: '${id.slice(0, 200)}'`, param, 'resource_missing');
    if (given(after)) {
      const at = items.findIndex((item) => item.id === after);
      if (at === -1) throw missing(after, pages.after);
      start = at + 1;
    }
    if (given(before)) {
      const at = items.findIndex((item) => item.id === before);
      if (at === -1) throw missing(before, pages.before);
      end = at;
      start = Math.max(start, end - limit);
    }
    const slice = items.slice(start, Math.min(end, start + limit));
    return { items: slice, hasMore: start + limit < end, total: items.length };
  }
  const page = sizeOf(query[pages.page], pages.page, 1, 1, Number.MAX_SAFE_INTEGER);
  // An empty page size (`per_page=0`, where the document allows it) makes one empty page of each number.
  const last = limit === 0 ? page : Math.max(1, Math.ceil(items.length / limit));
  const slice = items.slice((page - 1) * limit, page * limit);
  const linkTo = (n: number, rel: string) => `<${url}?${withPage(raw, pages.page, n)}>; rel="${rel}"`;
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
