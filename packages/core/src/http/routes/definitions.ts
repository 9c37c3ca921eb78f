/**
 * What an endpoint's two definition resources share: `/api/endpoints/{name}/graphql` (its GraphQL
 * schema) and `/api/endpoints/{name}/grpc` (its protobuf definitions). Both take the name of a
 * record that need not exist, answer a name without them `404 NOT_FOUND` saying how to put them,
 * and remove them with a DELETE that leaves the record, routes and journal.
 *
 * @module
 */
import type { Context, Hono } from 'hono';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import type { RouteDoc } from '../openapi.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

/** One definition resource: its path segment, what it holds, how its GET reads and sends it, how its DELETE clears it. */
export interface DefinitionsResource<T> {
  /** The segment after `/api/endpoints/{name}/`, also the OpenAPI tag. */
  readonly segment: 'graphql' | 'grpc';
  /** What it holds, as a sentence names it (`GraphQL schema`, `protobuf definitions`). */
  readonly what: string;
  /** How a sentence says "put it" (`one`, `them`). */
  readonly it: string;
  /** `name`'s definitions, or `undefined` when it has none. */
  read(name: string): Promise<T | undefined>;
  /** The GET's answer of `value`. */
  send(c: Context, value: T): Response;
  /** Removes `name`'s definitions (none there is not an error). */
  clear(name: string): Promise<unknown>;
}

/** The errors any request to a definition resource may get, besides its own. */
export const DEFINITION_REFUSALS = [REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS];

/** The `{name}` path parameter of a definition resource. */
function definitionParams(ctx: Pick<AppContext, 'schemas'>) {
  return { name: { description: 'Endpoint name (the record need not exist).', schema: ctx.schemas.name } };
}

/** `NOT_FOUND` for a GET of `name`, which holds no such definitions. */
function noDefinitions(resource: DefinitionsResource<unknown>, name: string): MockpointError {
  return new MockpointError(
    'NOT_FOUND',
    `"${name}" has no ${resource.what}; put ${resource.it} with PUT /api/endpoints/${name}/${resource.segment}`,
  );
}

/**
 * Registers the resource's GET (`read`'s value sent with `send`, or `404` when `read` finds none)
 * and DELETE; returns the `{name}` parameter's doc and the DELETE's doc.
 */
export function registerDefinitions<T>(
  app: Hono,
  ctx: Pick<AppContext, 'schemas'>,
  resource: DefinitionsResource<T>,
): { params: ReturnType<typeof definitionParams>; deleteDoc: RouteDoc } {
  app.get(`/api/endpoints/:name/${resource.segment}`, async (c) => {
    const name = pathName(c.req.param('name'));
    const value = await resource.read(name);
    if (value === undefined) throw noDefinitions(resource, name);
    return resource.send(c, value);
  });
  app.delete(`/api/endpoints/:name/${resource.segment}`, async (c) => {
    await resource.clear(pathName(c.req.param('name')));
    return c.body(null, 204);
  });
  const params = definitionParams(ctx);
  const deleteDoc: RouteDoc = {
    method: 'delete',
    path: `/api/endpoints/{name}/${resource.segment}`,
    summary: `Remove the ${resource.what} (the record, routes and journal stay).`,
    tag: resource.segment,
    params,
    admin: true,
    responses: {
      204: { description: 'Removed (or there was none).' },
      ...errorResponses(ctx.schemas, ...DEFINITION_REFUSALS),
    },
  };
  return { params, deleteDoc };
}
