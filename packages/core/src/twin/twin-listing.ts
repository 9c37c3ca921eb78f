/**
 * A twin's lists (twin-engine.ts): a collection's live items of the path's scope, filtered by the
 * query (or a search's), paged (twin-lists.ts) and answered in the profile's envelope or the one
 * the document's list operation describes.
 *
 * @module
 */
import type { Collections } from '../collections/collection-store.js';
import { SCAN_ITEM_UNITS } from '../turns/work-budget.js';
import { jsonAnswer, Refusal, type TwinAnswer, type TwinRequest } from './twin-answer.js';
import type { TwinParams } from './twin-body.js';
import { shownOf, type Twin } from './twin-context.js';
import { type DocumentList, documentList, membersOf } from './twin-document.js';
import { exampleContext, exampleOfOperation } from './twin-documented.js';
import { resolve, type Schema } from './twin-example.js';
import { fitted } from './twin-fit.js';
import { filterByQuery, type Page, pageOf, pagesOf, withPage } from './twin-lists.js';
import type { MatchedOperation, TwinResource } from './twin-operation.js';
import { responseSchema } from './twin-outside.js';
import { counted, withMembers } from './twin-related.js';
import { matchesSearch, parseSearch, type SearchQuery } from './twin-search.js';
import { pathScope, type Stored, storedOf } from './twin-stored.js';

/**
 * The list (or search) `matched` asks for of `resource`'s collection; `where`: the fields its
 * items must have (a view's, twin-reads.ts).
 */
export async function list(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  params: TwinParams,
  request: TwinRequest,
  where: readonly [string, string][] = [],
): Promise<TwinAnswer> {
  const { parts } = twin;
  const search =
    matched.op.action === 'search'
      ? parseSearch(typeof params.query.query === 'string' ? params.query.query : '')
      : undefined;
  const read = await parts.collections.get(parts.name);
  // A list the twin never wrote: empty, or (`unseen: "examples"`) the document's example.
  const all = (await storedOf(twin, resource, read)) ?? (twin.examples ? undefined : []);
  const { status, value } = exampleOfOperation(twin, matched);
  if (all === undefined) return jsonAnswer(status, value);
  // Every item of the collection is read (each of its scope filtered, counted, shown): work that
  // grows with the state, the daemon's budget's past a size (twin-admission.ts).
  const what = search === undefined ? 'a list read across its collection' : 'a search across its collection';
  return twin.admission.run(all.length * SCAN_ITEM_UNITS, what, async () => {
    const listed = { all, read, search, status, value };
    return listedPage(twin, matched, resource, params, request, where, listed);
  });
}

/** What {@link list} read before its scan: the collection's items, all the collections, the search. */
interface Read {
  all: readonly Stored[];
  read: Collections;
  search: SearchQuery | undefined;
  status: number;
  value: unknown;
}

/** The page {@link list} answers, from what it read. */
function listedPage(
  twin: Twin,
  matched: MatchedOperation,
  resource: TwinResource,
  params: TwinParams,
  request: TwinRequest,
  where: readonly [string, string][],
  { all, read, search, status, value }: Read,
): TwinAnswer {
  const { parts } = twin;
  const scope = pathScope(matched, resource);
  const inScope = (items: readonly Stored[]) => items.filter((item) => !item.deleted && item.scope === scope);
  let live = withMembers(twin.related, resource, counted(twin.related, resource, inScope(all), read), scope, read);
  // A view's items: those whose fields are its path's (a customer's payment methods).
  if (where.length > 0) live = live.filter((item) => where.every(([field, value]) => item[field] === value));
  if (parts.profile.list.order === 'newest') live = live.reverse();
  const said = listOf(twin, matched);
  const pages = pagesOf(parts.profile.pagination, said);
  if (search !== undefined) {
    live = live.filter((item) => matchesSearch(item, search));
  } else {
    const skip = new Set([pages.limit, 'expand', 'page', pages.style === 'page' ? pages.page : pages.after]);
    if (pages.style === 'cursor') skip.add(pages.before);
    const listed = parts.flows?.list?.(resource.template, live, params.query);
    if (listed !== undefined && 'error' in listed) throw new Refusal(listed.error);
    for (const used of listed?.used ?? []) skip.add(used);
    live = filterByQuery(listed?.items ?? live, params.query, skip);
  }
  live = live.map((item) => shownOf(twin, resource, item));
  const unseen = twin.examples ? 'examples' : 'missing';
  const page = pageOf(parts.profile, live, params.query, request.path, request.query, said, unseen);
  // A document twin's items as the list's own item schema has them (twin-fit.ts).
  if (parts.flows === undefined) {
    const schema = listItemSchema(parts.model.doc, matched.op.operation, said);
    const ctx = exampleContext(twin);
    page.items = page.items.map((item) => fitted(ctx, item, schema) as Record<string, unknown>);
  }
  const headers: Record<string, string> = page.link === undefined ? {} : { link: page.link };
  const { style, envelope: members } = parts.profile.list;
  if (style === 'bare' || (style === 'document' && said?.items === undefined)) {
    return jsonAnswer(200, page.items, headers);
  }
  const envelope = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<
    string,
    unknown
  >;
  if (style === 'document' && said !== undefined) {
    return jsonAnswer(
      status,
      documentPage(envelope, said, page, pages.style === 'page' ? '' : pages.after, request),
      headers,
    );
  }
  // An `envelope` list fills the members its profile names (the profile's check requires them).
  if (members === undefined) return jsonAnswer(200, page.items, headers);
  envelope[members.items] = page.items;
  if (members.hasMore !== undefined) envelope[members.hasMore] = page.hasMore;
  if (members.url !== undefined && members.url in envelope) envelope[members.url] = request.path;
  if (members.total !== undefined && members.total in envelope) envelope[members.total] = page.total;
  if (members.nextPage !== undefined && members.nextPage in envelope) envelope[members.nextPage] = null;
  return jsonAnswer(200, envelope, headers);
}

/** What the document's list operation says of its answer and pages, read once an operation (`undefined`: the profile says). */
function listOf(twin: Twin, matched: MatchedOperation): DocumentList | undefined {
  const { profile } = twin.parts;
  if (profile.list.style !== 'document' && profile.pagination.style !== 'document') return undefined;
  const operation = matched.op.operation;
  let said = twin.lists.get(operation);
  if (said === undefined) {
    said = documentList(twin.parts.model.doc, operation);
    twin.lists.set(operation, said);
  }
  return said;
}

/**
 * A page in the envelope the document's list operation describes: its array member the page,
 * its cursor member the next page's cursor (`null` on the last), its has-more, total,
 * next-link and first and last id members filled where it has them.
 */
function documentPage(
  envelope: Record<string, unknown>,
  said: DocumentList,
  page: Page,
  after: string,
  request: TwinRequest,
): Record<string, unknown> {
  envelope[said.items as string] = page.items;
  const next = page.next ?? null;
  if (said.cursor !== undefined) envelope[said.cursor] = next;
  if (said.hasMore !== undefined) envelope[said.hasMore] = page.hasMore;
  if (said.total !== undefined) envelope[said.total] = page.total;
  // The page's own first and last ids (OpenAI's `first_id`, `last_id`: what its SDKs page `after`); an empty page keeps the example's.
  const ids = page.items.map((item) => item.id).filter((id) => typeof id === 'string' || typeof id === 'number');
  if (said.firstId !== undefined && ids.length > 0) envelope[said.firstId] = String(ids[0]);
  if (said.lastId !== undefined && ids.length > 0) envelope[said.lastId] = String(ids.at(-1));
  if (said.nextLink !== undefined) {
    envelope[said.nextLink] =
      next === null || after === '' ? null : `${request.path}?${withPage(request.query, after, next)}`;
  }
  // A cursor or link whose schema takes no null is left out where there is no next page.
  for (const member of said.omitLast ?? []) if (envelope[member] === null) delete envelope[member];
  return envelope;
}

/** The schema of one item of a list operation's page (`undefined`: the document does not say). */
function listItemSchema(doc: Schema, operation: Schema, said: DocumentList | undefined): Schema | undefined {
  const { schema } = responseSchema(doc, operation);
  if (schema === undefined) return undefined;
  const array = said?.items === undefined ? resolve(doc, schema) : membersOf(doc, schema)[said.items];
  return array?.items === undefined ? undefined : resolve(doc, array.items);
}
