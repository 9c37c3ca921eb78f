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

/** A page problem: a bad page size or cursor. */
export class PageProblem extends Error {
  constructor(
    message: string,
    readonly param: string,
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

/**
 * Keeps the items whose top-level scalar fields equal the query's plain
 * parameters. A parameter no item has as a field (`sort`, `direction`) is no
 * filter; a filter never matches an item whose field is absent or null (SPEC §2.20).
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
function withPage(raw: string, param: string, n: number): string {
  const pairs = raw.split('&').filter((pair) => pair !== '');
  const name = (pair: string) => {
    const key = pair.split('=')[0] ?? '';
    try {
      return decodeURIComponent(key.replaceAll('+', ' '));
    } catch {
      return key;
    }
  };
  const page = `${encodeURIComponent(param)}=${n}`;
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
 * the others at `url` with the request's query string `raw`, only its page changed.
 */
export function pageOf(
  profile: TwinProfile,
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  url: string,
  raw = '',
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
