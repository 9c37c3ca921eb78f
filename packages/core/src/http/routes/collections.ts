/**
 * `/api/endpoints/{name}/collections[/{collection}]`: an endpoint's collections
 * of items (docs/state.md). GET reads them as their exact text; PUT replaces
 * them (all, or one) and makes what was put the seed a reset returns to; DELETE
 * removes them. `POST /api/endpoints/{name}/reset` returns the collections to
 * their seed and the state to its start (`?journal=true` also forgets the
 * name's recorded requests).
 *
 * @module
 */
import type { Hono } from 'hono';
import type { z } from 'zod';
import { jsonTextResponse } from '../../answer/read-response.js';
import { decodeUtf8, readDecodedBody, readJsonObjectBody } from '../../codec/body.js';
import {
  type CollectionLimits,
  collectionName,
  collectionsText,
  parseCollection,
  parseCollections,
} from '../../collections/collection-input.js';
import { collectionText } from '../../collections/item.js';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import type { RouteDoc } from '../openapi.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

/** The `journal` query of a reset: `true` forgets the recorded requests too. */
function journalFlag(value: string | undefined): boolean {
  if (value !== undefined && value !== 'true' && value !== 'false') {
    throw new MockpointError('INVALID_QUERY', `journal must be true or false (got ${JSON.stringify(value)})`);
  }
  return value === 'true';
}

function notFound(name: string, collection: string): MockpointError {
  return new MockpointError(
    'COLLECTION_NOT_FOUND',
    `"${name}" has no collection "${collection}"; GET /api/endpoints/${name}/collections lists them`,
    { details: { collection } },
  );
}

export function registerCollectionRoutes(app: Hono, ctx: AppContext): void {
  registerCollectionHandlers(app, ctx);
  documentCollectionRoutes(ctx);
}

/** The collections of a name (all, or one), and the resets to their seeds. */
function registerCollectionHandlers(app: Hono, ctx: AppContext): void {
  const { backend, options, journal } = ctx;
  const { collections } = backend;
  const limits: CollectionLimits = options;
  const base = '/api/endpoints/:name/collections';

  app.get(base, async (c) => {
    const name = pathName(c.req.param('name'));
    return jsonTextResponse(collectionsText(await collections.get(name)));
  });

  app.put(base, async (c) => {
    const name = pathName(c.req.param('name'));
    const given = parseCollections(await readJsonObjectBody(c.req.raw, options.maxBodyBytes), limits);
    await collections.seed(name, given);
    return jsonTextResponse(collectionsText(given));
  });

  app.delete(base, async (c) => {
    await collections.delete(pathName(c.req.param('name')));
    return c.body(null, 204);
  });

  app.get(`${base}/:collection`, async (c) => {
    const name = pathName(c.req.param('name'));
    const collection = collectionName(c.req.param('collection'));
    const items = (await collections.get(name)).get(collection);
    if (items === undefined) throw notFound(name, collection);
    return jsonTextResponse(collectionText(items));
  });

  app.put(`${base}/:collection`, async (c) => {
    const name = pathName(c.req.param('name'));
    const collection = collectionName(c.req.param('collection'));
    const text = decodeUtf8(await readDecodedBody(c.req.raw, options.maxBodyBytes));
    const items = parseCollection(collection, text, limits);
    await collections.seedOne(name, collection, items);
    return jsonTextResponse(collectionText(items));
  });

  app.delete(`${base}/:collection`, async (c) => {
    const name = pathName(c.req.param('name'));
    const collection = collectionName(c.req.param('collection'));
    if (!(await collections.get(name)).has(collection)) throw notFound(name, collection);
    await collections.seedOne(name, collection, undefined);
    return c.body(null, 204);
  });

  app.post('/api/endpoints/:name/reset', async (c) => {
    const name = pathName(c.req.param('name'));
    const forgetJournal = journalFlag(c.req.query('journal'));
    await Promise.all([collections.reset(name), backend.states.reset(name), backend.rateBuckets?.reset(name)]);
    ctx.timers.cancel(name); // a timed move scheduled before the reset is forgotten with it
    if (forgetJournal) await journal.clear(name);
    return c.body(null, 204);
  });

  // Every name at once (the Vitest fixture between tests): each with collections or state is reset.
  app.post('/api/reset', async (c) => {
    const forgetJournal = journalFlag(c.req.query('journal'));
    const names = new Set([...(await collections.names()), ...(await backend.states.names())]);
    await Promise.all([
      ...[...names].flatMap((name) => [collections.reset(name), backend.states.reset(name)]),
      backend.rateBuckets?.resetAll(),
    ]);
    ctx.timers.cancelAll();
    await ctx.clockSync.change((clock) => clock.reset()); // every test starts at real time (docs/clock.md)
    if (forgetJournal) await journal.clearAll();
    return c.body(null, 204);
  });
}

/** The OpenAPI documentation of the routes above. */
function documentCollectionRoutes(ctx: AppContext): void {
  const { schemas } = ctx;
  const params = {
    name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name },
  };
  const one = { ...params, collection: 'The collection name (1-64 of A-Z a-z 0-9 _ -).' };
  const refused = [REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS];
  const bad = ['INVALID_COLLECTION', 'COLLECTION_TOO_LARGE'] as const;
  /** The doc of a PUT of collections (all of them, or one): the body is what is answered. */
  const writeDoc = (path: string, summary: string, params: RouteDoc['params'], schema: z.ZodType): RouteDoc => ({
    method: 'put',
    path,
    summary,
    tag: 'collections',
    params,
    body: schema,
    admin: true,
    responses: { 200: { description: 'Saved.', schema }, ...errorResponses(schemas, ...refused, bad) },
  });
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/collections',
        summary: 'Every collection of this name, each item as its exact JSON text.',
        tag: 'collections',
        params,
      },
      { description: 'The collections by name.', schema: schemas.collections },
    ),
    writeDoc(
      '/api/endpoints/{name}/collections',
      'Replace every collection of this name; what is put is also the seed that POST /api/endpoints/{name}/reset returns to. Items are kept as their exact text.',
      params,
      schemas.collections,
    ),
    {
      method: 'delete',
      path: '/api/endpoints/{name}/collections',
      summary: 'Remove every collection of this name, and their seeds.',
      tag: 'collections',
      params,
      admin: true,
      responses: { 204: { description: 'Removed.' }, ...errorResponses(schemas, ...refused) },
    },
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/collections/{collection}',
        summary: 'One collection: its items, in order, as their exact JSON text.',
        tag: 'collections',
        params: one,
      },
      { description: 'The items.', schema: schemas.collectionItems },
      'INVALID_COLLECTION',
      'COLLECTION_NOT_FOUND',
    ),
    writeDoc(
      '/api/endpoints/{name}/collections/{collection}',
      'Replace (or create) one collection, which is also its seed; the others stay as they are.',
      one,
      schemas.collectionItems,
    ),
    {
      method: 'delete',
      path: '/api/endpoints/{name}/collections/{collection}',
      summary: 'Remove one collection and its seed.',
      tag: 'collections',
      params: one,
      admin: true,
      responses: {
        204: { description: 'Removed.' },
        ...errorResponses(schemas, 'INVALID_COLLECTION', 'COLLECTION_NOT_FOUND', ...refused),
      },
    },
    {
      method: 'post',
      path: '/api/endpoints/{name}/reset',
      summary:
        "Return this name's collections to their seed and its state to its start (routes, record and queue stay); with journal=true, also forget its recorded requests.",
      tag: 'collections',
      params,
      query: schemas.resetQuery,
      admin: true,
      responses: { 204: { description: 'Reset.' }, ...errorResponses(schemas, ...refused) },
    },
    {
      method: 'post',
      path: '/api/reset',
      summary:
        "Return every name's collections to their seed and state to its start, and the clock to real time (routes, records, queues and chaos stay); with journal=true, also forget every recorded request.",
      tag: 'collections',
      query: schemas.resetQuery,
      admin: true,
      responses: { 204: { description: 'Reset.' }, ...errorResponses(schemas, ...refused) },
    },
  );
}
