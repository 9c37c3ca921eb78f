/**
 * `/api/endpoints/{name}/collections/{collection}/items[/{id}]`: one item of a
 * collection (docs/state.md). GET reads it as its exact text; POST creates one
 * (its id given as a resource route gives it), PUT replaces one (the id kept),
 * PATCH merges into one (RFC 7396), DELETE removes one. These change the items
 * and never the seed (only a PUT of the collection sets it), through the same
 * operations as a resource route (collections/collection-writes.ts). `?idField=`
 * names the field that holds the ids when it is not `id`.
 *
 * @module
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { jsonTextResponse } from '../../answer/read-response.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { decodeUtf8, readDecodedBody } from '../../codec/body.js';
import { collectionName, parseItemBody } from '../../collections/collection-input.js';
import { createItem, getItem, type ItemPlace, removeItem, updateItem } from '../../collections/collection-writes.js';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import type { RouteDoc } from '../openapi.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

/** The `idField` query, held to what a resource route's `idField` may be. */
const itemQuery = onFirstUse(() =>
  z.object({
    idField: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        'The field that holds each item\'s id (1-64 characters), as a resource route\'s idField; default "id".',
      ),
  }),
);

/** The `idField` query of `c`, checked. @throws MockpointError `INVALID_QUERY` */
function idFieldOf(c: Context): string {
  const parsed = itemQuery().safeParse({ idField: c.req.query('idField') });
  if (!parsed.success) {
    throw new MockpointError(
      'INVALID_QUERY',
      `idField is 1-64 characters, the field that holds each item's id (got ${JSON.stringify(c.req.query('idField'))})`,
    );
  }
  return parsed.data.idField ?? 'id';
}

export function registerCollectionItemRoutes(app: Hono, ctx: AppContext): void {
  const { backend, schemas, options } = ctx;
  const base = '/api/endpoints/:name/collections/:collection/items';

  /** The collection the request names, with the id field it asks for. */
  const placeOf = (c: Context, { name, collection }: { name: string; collection: string }): ItemPlace => ({
    store: backend.collections,
    name: pathName(name),
    collection: collectionName(collection),
    idField: idFieldOf(c),
    limits: options,
  });
  const bodyOf = async (c: Context) =>
    parseItemBody(decodeUtf8(await readDecodedBody(c.req.raw, options.maxBodyBytes)));

  app.get(`${base}/:id`, async (c) => {
    const item = await getItem(placeOf(c, c.req.param()), c.req.param('id'));
    return jsonTextResponse(item.text);
  });

  app.post(base, async (c) => {
    const place = placeOf(c, c.req.param());
    return jsonTextResponse((await createItem(place, await bodyOf(c))).text, 201);
  });

  app.put(`${base}/:id`, async (c) => {
    const place = placeOf(c, c.req.param());
    return jsonTextResponse((await updateItem(place, c.req.param('id'), await bodyOf(c), 'replace')).text);
  });

  app.patch(`${base}/:id`, async (c) => {
    const place = placeOf(c, c.req.param());
    return jsonTextResponse((await updateItem(place, c.req.param('id'), await bodyOf(c), 'merge')).text);
  });

  app.delete(`${base}/:id`, async (c) => {
    await removeItem(placeOf(c, c.req.param()), c.req.param('id'));
    return c.body(null, 204);
  });

  const params = {
    name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name },
    collection: 'The collection name (1-64 of A-Z a-z 0-9 _ -).',
  };
  const one = { ...params, id: 'The item\'s id, as a resource route\'s URL names it (`1` finds `1` and `"1"`).' };
  const item = schemas.collectionItems.element;
  const refused = [
    REQUEST_ERRORS,
    BODY_ERRORS,
    STORE_ERRORS,
    ADMIN_ERRORS,
    ['INVALID_COLLECTION', 'INVALID_ITEM'] as const,
  ];
  /** The doc of a write with an item for its body, answered with the item as stored. */
  const writeDoc = (
    method: 'post' | 'put' | 'patch',
    summary: string,
    ok: 200 | 201,
    ...also: ('ITEM_NOT_FOUND' | 'ID_TAKEN')[]
  ): RouteDoc => ({
    method,
    path: `/api/endpoints/{name}/collections/{collection}/items${method === 'post' ? '' : '/{id}'}`,
    summary,
    tag: 'collections',
    params: method === 'post' ? params : one,
    query: itemQuery(),
    body: item,
    admin: true,
    responses: {
      [ok]: { description: 'The item as stored, its exact JSON text.', schema: item },
      ...errorResponses(schemas, ...refused, ...also, 'COLLECTION_TOO_LARGE'),
    },
  });
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/collections/{collection}/items/{id}',
        summary: 'One item of a collection, as its exact JSON text.',
        tag: 'collections',
        params: one,
        query: itemQuery(),
      },
      { description: 'The item.', schema: item },
      'INVALID_COLLECTION',
      'ITEM_NOT_FOUND',
    ),
    writeDoc(
      'post',
      'Add an item at the end of a collection (creating it): its own id when it has a truthy one, else one more than the greatest numeric id (1 in an empty collection), or a UUID where ids are strings. The seed stays.',
      201,
      'ID_TAKEN',
    ),
    writeDoc('put', 'Replace an item by the body, its id kept. The seed stays.', 200, 'ITEM_NOT_FOUND'),
    writeDoc(
      'patch',
      'Merge the body into an item (JSON Merge Patch, RFC 7396: null removes a field); its id is kept and every other field keeps its exact text. The seed stays.',
      200,
      'ITEM_NOT_FOUND',
    ),
    {
      method: 'delete',
      path: '/api/endpoints/{name}/collections/{collection}/items/{id}',
      summary: 'Remove an item. The seed stays.',
      tag: 'collections',
      params: one,
      query: itemQuery(),
      admin: true,
      responses: {
        204: { description: 'Removed.' },
        ...errorResponses(schemas, REQUEST_ERRORS, STORE_ERRORS, ADMIN_ERRORS, 'INVALID_COLLECTION', 'ITEM_NOT_FOUND'),
      },
    },
  );
}
