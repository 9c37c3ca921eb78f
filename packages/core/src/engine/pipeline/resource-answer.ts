/**
 * A resource route's answer (docs/state.md): REST over one of the endpoint's
 * collections below the route's path, in json-server's conventions. At the
 * route's path: `GET` lists (the query language of collections/list-query.ts),
 * `POST` creates (201, with `Location`). One segment below, the item with that
 * id: `GET`, `PUT` (replace, the id kept), `PATCH` (RFC 7396 merge), `DELETE`
 * (200 `{}`). Two below, json-server's nested routes: `/posts/1/comments`
 * lists (`GET`) or adds to (`POST`) the comments whose `postId` is `1`. Every
 * write is one atomic change of the collection (collections/collection-writes.ts,
 * shared with the admin API), acknowledged once it is stored. Items are
 * answered as their exact text.
 *
 * @module
 */

import { type EndpointAnswer, errorAnswer, type RespondAnswer } from '../../answer/endpoint-answer.js';
import { JSON_HEADERS } from '../../answer/read-response.js';
import type { RouteHit } from '../../answer/routes/route-table.js';
import { renderHeader } from '../../answer/template.js';
import type { AnswerHeaders, ResourceAnswer, RouteAnswer } from '../../api/route.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { utf8Text } from '../../codec/utf8.js';
import { utf8Length } from '../../codec/utf8-length.js';
import { parseItemBody } from '../../collections/collection-input.js';
import { COLLECTION_NAME } from '../../collections/collection-store.js';
import { createItem, findItem, type ItemPlace, removeItem, updateItem } from '../../collections/collection-writes.js';
import { collectionBytes, type Item, idText, itemOf, withMember } from '../../collections/item.js';
import {
  type ListQuery,
  type ListResult,
  linkHeader,
  parseListQuery,
  parseRelations,
  QueryTooCostlyError,
  runListQuery,
} from '../../collections/list-query.js';
import { type RelationContext, related, relatedBytes, singular } from '../../collections/relations.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import { isMockpointError, MockpointError } from '../../registry/errors.js';
import { parseTemplate, type TemplatePart } from '../../template/template-syntax.js';
import { admitted } from './budget-admission.js';
import type { Exchange } from './exchange.js';
import type { Verdict } from './step.js';
import { failedAnswer } from './verdicts.js';

/** A resource answer with its defaults. */
interface Resource {
  collection: string;
  idField: string;
}

function resourceOf(answer: ResourceAnswer): Resource {
  return typeof answer === 'string'
    ? { collection: answer, idField: 'id' }
    : { collection: answer.collection, idField: answer.idField ?? 'id' };
}

/** A JSON answer (no body for HEAD, Content-Length kept). */
function json(
  exchange: Exchange,
  status: number,
  text: string,
  extra: Record<string, string> = {},
  bytes = utf8Length(text),
): RespondAnswer {
  // Object.assign, not a spread: spreading `extra` over a key JSON_HEADERS has too
  // (access-control-expose-headers) cost 4% of a list's CPU in the profile (~2 µs).
  const headers: Record<string, string> = Object.assign({}, JSON_HEADERS, extra);
  headers['content-length'] = String(bytes);
  return { kind: 'respond', status, headers, body: exchange.head ? null : text, delay: 0 };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A Host header that can go back into a URL as it is; anything else is `localhost`. */
const PLAIN_HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::\d{1,5})?$/;

/**
 * The request's full URL, as json-server builds it for `Link` and `Location`
 * (its protocol is http). It goes into a response header, so what the request
 * brought is made safe there: an odd Host is `localhost`, and every character
 * of the target outside visible ASCII is percent-encoded (one byte each: the
 * target arrives as Latin-1), so no request can make a header Node refuses.
 */
function fullUrl(exchange: Exchange): string {
  const host = rawHeader(exchange.request.rawHeaders, 'host');
  const target = exchange.request.target.replace(/[^\x21-\x7e]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : '%3F';
  });
  return `http://${host !== undefined && PLAIN_HOST.test(host) ? host : 'localhost'}${target}`;
}

/** The request's query string, without the `?`. */
function searchOf(exchange: Exchange): string {
  const target = exchange.request.target;
  const q = target.indexOf('?');
  return q === -1 ? '' : target.slice(q + 1);
}

/** Where the resource's item operations work (collections/collection-writes.ts). */
function placeOf(exchange: Exchange, resource: Resource): ItemPlace {
  const { endpoints, collectionLimits } = exchange.parts;
  return { store: endpoints.collections, name: exchange.name, ...resource, limits: collectionLimits };
}

/** The request body as an item: an empty body is `{}` (as json-server takes it). */
function bodyItem(exchange: Exchange): Item {
  const { request, wholeBody } = exchange;
  if (request.bodyTruncated && wholeBody === undefined) {
    throw new MockpointError('BODY_TOO_LARGE', `the body is larger than the limit ${exchange.parts.maxBodyBytes}`);
  }
  const text = utf8Text(wholeBody ?? request.body, false);
  if (text === undefined) throw new MockpointError('INVALID_UTF8', 'the body is not UTF-8 text; an item is JSON');
  return parseItemBody(text);
}

function methodNotAllowed(exchange: Exchange, allow: string): MockpointError {
  return new MockpointError(
    'METHOD_NOT_ALLOWED',
    `${exchange.request.method} is not served here by a resource route; use ${allow}`,
    { details: { allow } },
  );
}

const COLLECTION_METHODS = 'GET, HEAD, POST';
const ITEM_METHODS = 'GET, HEAD, PUT, PATCH, DELETE';

/**
 * Lists already answered, by the items they were run on (a store hands out the
 * same array until the collection changes: a write makes a new one, and the
 * entries of the old one go with it) and the request's query string; at most
 * {@link LISTS_PER_COLLECTION} per array, the oldest dropped first.
 */
const answeredLists = new WeakMap<readonly Item[], Map<string, Listed>>();
const LISTS_PER_COLLECTION = 32;

/** A list query and its result; the answer's body and its UTF-8 length, once made (kept only without relations). */
interface Listed {
  query: ListQuery;
  result: ListResult;
  body?: { text: string; bytes: number };
}

/** The query and its result over `items`: run once per query string and version of the collection. */
function listed(items: readonly Item[], search: string): Listed {
  let lists = answeredLists.get(items);
  const known = lists?.get(search);
  if (known !== undefined) return known;
  const query = parseListQuery(new URLSearchParams(search));
  if ('problem' in query) throw new MockpointError('INVALID_QUERY', query.problem);
  let result: ListResult;
  try {
    result = runListQuery(items, query);
  } catch (error) {
    if (error instanceof QueryTooCostlyError) throw new MockpointError('INVALID_QUERY', error.message);
    throw error;
  }
  const answered: Listed = { query, result };
  if (lists === undefined) {
    lists = new Map();
    answeredLists.set(items, lists);
  }
  if (lists.size >= LISTS_PER_COLLECTION) lists.delete(lists.keys().next().value as string);
  lists.set(search, answered);
  return answered;
}

/** An answer, and the item it answers (none for a list or a removal), which `{{item…}}` headers read. */
interface Answered {
  /** A resource answers with JSON (or an error in JSON): a respond answer, always. */
  answer: RespondAnswer;
  item?: Item;
}

async function list(exchange: Exchange, resource: Resource, nested?: Nested): Promise<Answered> {
  const collections = await exchange.parts.endpoints.collections.get(exchange.name);
  const items = collections.get(resource.collection);
  if (items === undefined && nested !== undefined) throw noNested(exchange, resource.collection);
  const answered = listed(items ?? [], nested === undefined ? searchOf(exchange) : nestedSearch(exchange, nested));
  const { query, result } = answered;
  // Without _embed/_expand the body depends on this collection's version only: made once.
  let body = answered.body;
  if (body === undefined) {
    const context = relationContext(collections, resource);
    const relations = query.embed.length > 0 || query.expand.length > 0;
    // Counted from the items' sizes before anything is built: what relations multiply is refused at no cost.
    let bytes = 2 + Math.max(0, result.indexes.length - 1);
    if (relations) {
      for (const i of result.indexes) bytes += relatedBytes(items?.[i] as Item, query.embed, query.expand, context);
      checkAnswerSize(exchange, items ?? [], bytes);
    }
    const build = () => {
      const text = `[${result.indexes.map((i) => related(items?.[i] as Item, query.embed, query.expand, context)).join(',')}]`;
      return { text, bytes: utf8Length(text) };
    };
    // With relations the answer grows with every collection it draws from: the daemon's budget's.
    const made = relations ? await admitted(exchange, bytes, 'a list with _embed/_expand', build) : { value: build() };
    if ('refused' in made) return { answer: made.refused };
    body = made.value;
    if (!relations) answered.body = body;
  }
  const extra: Record<string, string> = {};
  if (result.total !== undefined) {
    extra['x-total-count'] = String(result.total);
    extra['access-control-expose-headers'] = `X-Total-Count${result.pages === undefined ? '' : ', Link'}`;
  }
  if (result.pages !== undefined) extra.link = linkHeader(fullUrl(exchange), result.pages);
  return { answer: json(exchange, 200, body.text, extra, body.bytes) };
}

/**
 * Refuses with `ANSWER_TOO_LARGE` an answer with relations of more than
 * `bytes`: past `MOCKPOINT_MAX_COLLECTION_BYTES`, or past the items it is made
 * of when they are more (held from before the limit was lowered).
 */
function checkAnswerSize(exchange: Exchange, items: readonly Item[], bytes: number): void {
  const limit = Math.max(exchange.parts.collectionLimits.maxCollectionBytes, collectionBytes(items));
  if (bytes > limit) {
    throw new MockpointError(
      'ANSWER_TOO_LARGE',
      `the answer would be about ${bytes} bytes with its _embed/_expand, more than the limit ${limit} (MOCKPOINT_MAX_COLLECTION_BYTES); page the list (_limit, _page) or ask for fewer relations`,
    );
  }
}

function relationContext(collections: ReadonlyMap<string, readonly Item[]>, resource: Resource): RelationContext {
  return {
    collection: resource.collection,
    idField: resource.idField,
    find: (name) => {
      const items = collections.get(name);
      return items === undefined ? undefined : { items, idField: 'id' };
    },
  };
}

async function show(exchange: Exchange, resource: Resource, id: string): Promise<Answered> {
  const collections = await exchange.parts.endpoints.collections.get(exchange.name);
  const item = findItem(placeOf(exchange, resource), collections.get(resource.collection) ?? [], id);
  const query = new URLSearchParams(searchOf(exchange));
  const relations = parseRelations(query.getAll('_embed'), query.getAll('_expand'));
  if ('problem' in relations) throw new MockpointError('INVALID_QUERY', relations.problem);
  const context = relationContext(collections, resource);
  const bytes = relatedBytes(item, relations.embed, relations.expand, context);
  checkAnswerSize(exchange, [item], bytes);
  const made = await admitted(exchange, bytes, 'an item with _embed/_expand', () =>
    related(item, relations.embed, relations.expand, context),
  );
  if ('refused' in made) return { answer: made.refused, item };
  return { answer: json(exchange, 200, made.value), item };
}

async function create(exchange: Exchange, resource: Resource, nested?: Nested): Promise<Answered> {
  let body = bodyItem(exchange);
  if (nested !== undefined) {
    const collections = await exchange.parts.endpoints.collections.get(exchange.name);
    if (!collections.has(resource.collection)) throw noNested(exchange, resource.collection);
    // As json-server: the parent's id as the request's URL has it, a string.
    body = itemOf(withMember(body.text, nested.field, JSON.stringify(nested.id)));
  }
  const item = await createItem(placeOf(exchange, resource), body);
  // Lone surrogates (a JSON string may hold one) become U+FFFD: encodeURIComponent refuses them.
  const id = (idText(item, resource.idField) ?? '').replace(LONE_SURROGATE, '\uFFFD');
  const answer = json(exchange, 201, item.text, {
    location: `${fullUrl(exchange)}/${encodeURIComponent(id)}`,
    'access-control-expose-headers': 'Location',
  });
  return { answer, item };
}

async function update(exchange: Exchange, resource: Resource, id: string, merge: boolean): Promise<Answered> {
  const body = bodyItem(exchange);
  const item = await updateItem(placeOf(exchange, resource), id, body, merge ? 'merge' : 'replace');
  return { answer: json(exchange, 200, item.text), item };
}

async function remove(exchange: Exchange, resource: Resource, id: string): Promise<Answered> {
  await removeItem(placeOf(exchange, resource), id);
  return { answer: json(exchange, 200, '{}') };
}

/**
 * json-server's nested routes: `/posts/1/comments` is the collection `comments`
 * narrowed to `postId=1` (the singular of the route's collection, then `Id`).
 */
interface Nested {
  /** The foreign key: `postId`. */
  field: string;
  /** The parent's id as the URL names it. */
  id: string;
}

const NESTED_METHODS = 'GET, HEAD, POST';

/** The request's query with the foreign key set to the parent's id (replacing any the request gave, as json-server does). */
function nestedSearch(exchange: Exchange, nested: Nested): string {
  const params = new URLSearchParams(searchOf(exchange));
  params.set(nested.field, nested.id);
  return params.toString();
}

function noNested(exchange: Exchange, collection: string): MockpointError {
  return new MockpointError(
    'COLLECTION_NOT_FOUND',
    `"${exchange.name}" has no collection "${collection}" to list below an item; PUT /api/endpoints/${exchange.name}/collections/${collection} makes one`,
    { details: { collection } },
  );
}

/** `GET` lists, `POST` creates, the items of collection `child` whose foreign key is `id`. */
function nestedAnswer(exchange: Exchange, resource: Resource, id: string, child: string): Promise<Answered> {
  if (!COLLECTION_NAME.test(child)) throw noNested(exchange, child);
  const nested = { field: `${singular(resource.collection)}Id`, id };
  const target = { collection: child, idField: resource.idField };
  const method = exchange.request.method;
  if (method === 'GET' || method === 'HEAD') return list(exchange, target, nested);
  if (method === 'POST') return create(exchange, target, nested);
  throw methodNotAllowed(exchange, NESTED_METHODS);
}

/** What the request asks of the resource, by method and by how far below the route's path it is. */
function answer(exchange: Exchange, resource: Resource, below: readonly string[]): Promise<Answered> {
  const method = exchange.request.method;
  if (below.length === 0) {
    if (method === 'GET' || method === 'HEAD') return list(exchange, resource);
    if (method === 'POST') return create(exchange, resource);
    throw methodNotAllowed(exchange, COLLECTION_METHODS);
  }
  if (below.length === 2) return nestedAnswer(exchange, resource, below[0] as string, below[1] as string);
  if (below.length > 2) {
    throw new MockpointError(
      'ITEM_NOT_FOUND',
      `a resource route serves its collection at its path, each item one segment below, and another collection's items of one item two below (/posts/1/comments); ${below.join('/')} is deeper`,
      { details: { collection: resource.collection } },
    );
  }
  const id = below[0] as string;
  if (method === 'GET' || method === 'HEAD') return show(exchange, resource, id);
  if (method === 'PUT') return update(exchange, resource, id, false);
  if (method === 'PATCH') return update(exchange, resource, id, true);
  if (method === 'DELETE') return remove(exchange, resource, id);
  throw methodNotAllowed(exchange, ITEM_METHODS);
}

/** The part of the subpath below the route's path, as segments (none: the collection itself). */
function belowPath(exchange: Exchange, hit: RouteHit): string[] {
  const rest = hit.params['*'] ?? exchange.view.subpath.slice(1);
  return rest.split('/').filter((segment) => segment !== '');
}

/** Parsed header templates, per route answer. */
const headerTemplates = new WeakMap<RouteAnswer, ReadonlyMap<string, readonly TemplatePart[][]>>();

function templatesOf(answer: RouteAnswer, headers: AnswerHeaders): ReadonlyMap<string, readonly TemplatePart[][]> {
  let parsed = headerTemplates.get(answer);
  if (parsed === undefined) {
    parsed = new Map(
      Object.entries(headers).map(([name, value]) => [
        name.toLowerCase(),
        (Array.isArray(value) ? value : [value]).map((one) => parseTemplate(one)),
      ]),
    );
    headerTemplates.set(answer, parsed);
  }
  return parsed;
}

/**
 * The route's own `headers` added to a successful answer (after the resource's:
 * a header the route names replaces the resource's), rendered with `{{item…}}`
 * (the item answered) when the route's answer is a template.
 */
function withHeaders(exchange: Exchange, hit: RouteHit, answered: Answered): EndpointAnswer {
  const { answer } = answered;
  const own = hit.route.route.answer;
  if (own.headers === undefined) return answer;
  const headers: Record<string, string | readonly string[]> = Object.assign({}, answer.headers);
  if (own.template !== true) {
    for (const [name, value] of Object.entries(own.headers)) headers[name.toLowerCase()] = value;
    return { ...answer, headers };
  }
  const context = { ...exchange.context(hit.params, ++hit.route.seq), item: answered.item?.text };
  for (const [name, values] of templatesOf(own, own.headers)) {
    const rendered = values.map((parts) => renderHeader(parts, context));
    headers[name] = rendered.length === 1 ? (rendered[0] as string) : rendered;
  }
  return { ...answer, headers };
}

/** The resource route `hit`'s answer to `exchange`, journaled with the route's id. */
export async function resourceVerdict(exchange: Exchange, hit: RouteHit, resource: ResourceAnswer): Promise<Verdict> {
  const mark: AnswerMark = { answeredBy: { route: hit.route.id }, params: hit.params };
  if (exchange.validation !== undefined) mark.validation = exchange.validation;
  try {
    const answered = await answer(exchange, resourceOf(resource), belowPath(exchange, hit));
    return { answer: withHeaders(exchange, hit, answered), mark };
  } catch (error) {
    if (!isMockpointError(error)) return { answer: failedAnswer(exchange, error), status: 500, mark };
    const allow = error.code === 'METHOD_NOT_ALLOWED' ? { allow: String(error.details?.allow) } : undefined;
    const failure = errorAnswer(error.status, error.code, error.message, {
      head: exchange.head,
      cors: true,
      details: error.details,
      extra: allow,
    });
    return { answer: failure, mark };
  }
}
