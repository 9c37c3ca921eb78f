/**
 * The management API: list, read, create-or-replace and delete endpoints, and reset.
 *
 * @module
 */
import type { Hono } from 'hono';
import { JSON_HEADERS, jsonTextResponse } from '../../answer/read-response.js';
import { NAMESPACE_CHAOS_KEY } from '../../api/chaos.js';
import { type EndpointRecord, isValidName, parseMembers } from '../../api/schemas.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import { NAME_RULE } from '../../registry/rules.js';
import { NAME_SETTINGS, SETTING_KINDS } from '../../settings/name-settings.js';
import { recordJson, recordSummaryJson } from '../../store/record-codec.js';
import type { AppContext } from '../context.js';
import { listContaining } from '../list-contains.js';
import { withMember } from '../list-member.js';
import {
  ADMIN_ERRORS,
  BODY_ERRORS,
  errorResponses,
  HOST_ERRORS,
  REQUEST_ERRORS,
  readDoc,
  STORE_ERRORS,
} from './responses.js';

/** The name from the path, or a 400 `INVALID_NAME` (the rule of `schemas.name`). */
export function pathName(name: string): string {
  if (!isValidName(name)) throw new MockpointError('INVALID_NAME', NAME_RULE);
  return name;
}

/** A list page stops adding records past this many characters of JSON (it always has one). */
export const LIST_MAX_BYTES = 8 * 1024 * 1024;

function notFound(name: string): MockpointError {
  return new MockpointError('NOT_FOUND', `no endpoint named "${name}"`);
}

export function registerManageRoutes(app: Hono, ctx: AppContext): void {
  registerListRoute(app, ctx);
  registerRecordRoutes(app, ctx);
  documentManageRoutes(ctx);
}

/** `GET /api/endpoints`: a page of records, names with routes and names with a schema, in name order. */
function registerListRoute(app: Hono, ctx: AppContext): void {
  const { schemas, endpoints, journal } = ctx;

  app.get('/api/endpoints', async (c) => {
    const parsed = schemas.listQuery.safeParse(c.req.query());
    if (!parsed.success) {
      throw new MockpointError(
        'INVALID_QUERY',
        'limit must be an integer from 1 to 1000, after a name, prefix up to 64 characters of A-Z a-z 0-9 _ -, contains up to 200 characters, and summary true or false',
      );
    }
    const { limit, after, summary, prefix, contains, requests } = parsed.data;
    // How many requests the journal holds for each name shown (one read for the page, when asked).
    // A journal of one's own written before `counts` existed (plain JavaScript) gives lists without counts, not a 500.
    const countable = typeof journal.counts === 'function';
    const requestCounts = requests === 'true' && countable ? journal.counts.bind(journal) : undefined;
    if (contains !== undefined && contains !== '') {
      const text = await listContaining(endpoints.store, {
        contains,
        prefix,
        after,
        limit,
        summary: summary === 'true',
        requestCounts,
      });
      return jsonTextResponse(text);
    }
    const [page, total, routed, partsHeld] = await Promise.all([
      endpoints.list({ limit, after, prefix }),
      endpoints.count({ prefix }),
      endpoints.store.routeNames({ prefix }),
      partNames(endpoints, ctx.backend.states, prefix),
    ]);
    // Names with routes and no record are listed too, as { name, routes }, in name
    // order among the records; a record with routes shows its route count.
    const counts = new Map(routed.map((entry) => [entry.name, entry.routes]));
    const entries: { name: string; json: () => string }[] = page.endpoints.map((record) => ({
      name: record.name,
      json: () =>
        withMember(
          summary === 'true' ? recordSummaryJson(record) : recordJson(record),
          'routes',
          counts.get(record.name),
        ),
    }));
    for (const entry of routed) {
      if (entry.record || (after !== undefined && entry.name <= after)) continue;
      // Past the last record of a page that is not the last: the next page lists it.
      if (page.next !== null && entry.name > page.next) continue;
      entries.push({ name: entry.name, json: () => `{"name":${JSON.stringify(entry.name)},"routes":${entry.routes}}` });
    }
    // Names with neither a record nor routes that hold a GraphQL schema, protobuf definitions, hosts, chaos,
    // collections, a signature check, state or queued answers, as { name, graphql: true, … } (what each holds).
    const listed = new Set(routed.map((entry) => entry.name));
    const recorded = new Set(page.endpoints.map((record) => record.name));
    let partOnly = 0;
    for (const [name, held] of partsHeld) {
      if (listed.has(name) || recorded.has(name) || (await endpoints.get(name)) !== undefined) continue;
      partOnly++;
      if ((after !== undefined && name <= after) || (page.next !== null && name > page.next)) continue;
      entries.push({
        name,
        json: () => `{"name":${JSON.stringify(name)},${held.map((part) => `"${part}":true`).join(',')}}`,
      });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const shown = entries.slice(0, limit);
    let next = page.next !== null || entries.length > limit ? (shown.at(-1)?.name ?? null) : null;
    const held = await requestCounts?.(shown.map((entry) => entry.name));
    // Serialised entry by entry, so a page of large records can end early (with
    // `next`) instead of building one huge answer.
    const parts: string[] = [];
    let bytes = 0;
    for (const [index, entry] of shown.entries()) {
      const json = withMember(entry.json(), 'requests', held?.[index]);
      if (parts.length > 0 && bytes + json.length > LIST_MAX_BYTES) {
        next = (shown[parts.length - 1] as { name: string }).name;
        break;
      }
      parts.push(json);
      bytes += json.length;
    }
    const all = total + routed.filter((entry) => !entry.record).length + partOnly;
    return new Response(`{"endpoints":[${parts.join(',')}],"next":${JSON.stringify(next)},"total":${all}}`, {
      headers: { 'content-type': JSON_HEADERS['content-type'] },
    });
  });
}

/** A name's parts besides a record, routes and its settings that the list shows, after the settings. */
const LISTED_PARTS = ['collections', 'state', 'queue'] as const;

/**
 * The names (with `prefix`) holding any per-name setting (settings/name-settings.ts), collections,
 * state or queued answers, in name order: what each holds (each setting by its key, then the parts).
 */
export async function partNames(
  endpoints: AppContext['endpoints'],
  states: AppContext['backend']['states'],
  prefix: string | undefined,
): Promise<[string, string[]][]> {
  const { store } = endpoints;
  const prefixed = (names: string[]) => names.filter((name) => name.startsWith(prefix ?? ''));
  const lists = await Promise.all([
    // The namespace's own chaos is kept under a key that is no name (`*`): not listed.
    ...SETTING_KINDS.map((kind) =>
      store.settingNames(kind, { prefix }).then((names) => names.filter((name) => name !== NAMESPACE_CHAOS_KEY)),
    ),
    endpoints.collections.names().then(prefixed),
    states.names().then(prefixed),
    endpoints.queue.names().then(prefixed),
  ]);
  const labels = [...SETTING_KINDS.map((kind) => NAME_SETTINGS[kind].key), ...LISTED_PARTS];
  const held = new Map<string, string[]>();
  for (const [index, names] of lists.entries()) {
    for (const name of names) held.set(name, [...(held.get(name) ?? []), labels[index] as string]);
  }
  return [...held].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Delete everything, and read, create-or-replace and delete one record. */
function registerRecordRoutes(app: Hono, ctx: AppContext): void {
  const { endpoints, journal } = ctx;

  app.delete('/api/endpoints', async (c) => {
    await endpoints.clear();
    ctx.timers.cancelAll();
    await ctx.clockSync.change((clock) => clock.reset()); // a full reset restores real time (docs/clock.md)
    await journal.clearAll();
    await ctx.storedHosts.forgetAll();
    return c.body(null, 204);
  });

  app.get('/api/endpoints/:name', async (c) => {
    const name = pathName(c.req.param('name'));
    const record = await endpoints.get(name);
    if (record === undefined) throw notFound(name);
    return jsonTextResponse(recordJson(record));
  });

  app.put('/api/endpoints/:name', (c) => putEndpoint(ctx, c.req.param('name'), c.req.raw));

  app.delete('/api/endpoints/:name', async (c) => {
    const name = pathName(c.req.param('name'));
    const deleted = await endpoints.delete(name);
    ctx.timers.cancel(name);
    // The store removed its hosts with it.
    await ctx.storedHosts.forget(name);
    if (!deleted) throw notFound(name);
    return c.body(null, 204);
  });
}

/**
 * `PUT /api/endpoints/{name}`: creates or replaces the record, from the parts of the app given (a
 * namespace's app not yet registered answers it too: namespace-early.ts).
 */
export async function putEndpoint(
  ctx: Pick<AppContext, 'schemas' | 'endpoints' | 'options'>,
  pathParam: string,
  request: Request,
): Promise<Response> {
  const { schemas, endpoints, options } = ctx;
  const name = pathName(pathParam);
  const members = await readJsonObjectBody(request, options.maxBodyBytes);
  // A record read from GET may be sent back as it is: a `name` equal to the
  // path's is accepted, a different one is refused.
  const bodyNameText = members.get('name');
  if (bodyNameText !== undefined) {
    const bodyName: unknown = JSON.parse(bodyNameText);
    if (bodyName !== name) {
      throw new MockpointError(
        'INVALID_NAME',
        `name in the body ("${String(bodyName)}") differs from the URL ("${name}")`,
      );
    }
    members.delete('name');
  }
  const definition = parseMembers(schemas.replaceRequest, members, options.maxDelayMs) as Omit<EndpointRecord, 'name'>;
  const record: EndpointRecord = { name, ...definition };
  const { created } = await endpoints.put(record);
  return jsonTextResponse(recordJson(record), created ? 201 : 200);
}

/** The OpenAPI documentation of the routes above. */
function documentManageRoutes(ctx: AppContext): void {
  const { schemas } = ctx;
  const params = { name: { description: 'Endpoint name.', schema: schemas.name } };
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints',
        summary:
          'List endpoints in name order, paginated by cursor, optionally those with a name prefix or containing a text in name or data, with their total.',
        tag: 'endpoints',
        query: schemas.listQuery,
      },
      { description: 'One page; pass `next` as `after` for the next one.', schema: schemas.listResponse },
    ),
    {
      method: 'delete',
      path: '/api/endpoints',
      summary:
        "Remove every endpoint, every queued answer, every recorded request, the hosts the API mapped and the namespace's chaos, and return the clock to real time (test reset).",
      tag: 'endpoints',
      admin: true,
      responses: {
        204: { description: 'Everything removed.' },
        ...errorResponses(schemas, HOST_ERRORS, ADMIN_ERRORS, STORE_ERRORS),
      },
    },
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}',
        summary: 'Read one endpoint record.',
        tag: 'endpoints',
        params,
      },
      { description: 'The record.', schema: schemas.record },
      'NOT_FOUND',
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}',
      summary:
        'Create or replace an endpoint. The read cache is updated before the answer; queued answers of this name are dropped.',
      tag: 'endpoints',
      params,
      body: schemas.replaceRequest,
      admin: true,
      responses: {
        200: { description: 'Replaced.', schema: schemas.record },
        201: { description: 'Created.', schema: schemas.record },
        ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, ADMIN_ERRORS, 'TOO_MANY_ENDPOINTS', STORE_ERRORS),
      },
    },
    {
      method: 'delete',
      path: '/api/endpoints/{name}',
      summary: 'Delete an endpoint and its queued answers (its recorded requests are kept).',
      tag: 'endpoints',
      params,
      admin: true,
      responses: {
        204: { description: 'Deleted.' },
        ...errorResponses(schemas, REQUEST_ERRORS, 'NOT_FOUND', STORE_ERRORS, ADMIN_ERRORS),
      },
    },
  );
}
