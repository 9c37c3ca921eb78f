/**
 * `/api/endpoints/{name}/routes`: the ordered routes that answer the paths
 * below `/endpoint/{name}` (GET lists, PUT replaces the list atomically, POST
 * appends, DELETE clears; `DELETE …/routes/{id}` removes one). A list with one
 * bad route is refused whole, with the route's index.
 *
 * @module
 */
import type { Hono } from 'hono';
import { jsonTextResponse } from '../../answer/read-response.js';
import type { Route } from '../../api/route.js';
import { routesPageJson } from '../../api/route.js';
import { parseRoutesBody } from '../../api/route-schema.js';
import type { Schemas } from '../../api/schemas.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import { routesBodyBytes } from '../../registry/limits.js';
import { SLICED_ROUTES_CHARS } from '../../turns/turn-budget.js';
import type { AppContext } from '../context.js';
import { checkGrpcRoutes } from '../grpc-answer-check.js';
import type { RouteDoc } from '../openapi.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

function tooMany(name: string, count: number, max: number): MockpointError {
  return new MockpointError(
    'TOO_MANY_ROUTES',
    `"${name}" would have ${count} routes, more than the limit ${max} (MOCKPOINT_MAX_ROUTES); nothing was changed`,
  );
}

/** How a routes body is read: a long one a slice per turn; one that is no object is shown the shape. */
const ROUTES_BODY = { inTurnsFrom: SLICED_ROUTES_CHARS, shape: '{ "routes": [ { "match": …, "answer": … } ] }' };

export function registerEndpointRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'schemas' | 'endpoints' | 'options' | 'describe'>,
): void {
  const { schemas, endpoints, options } = ctx;
  const routeSchema = schemas.route;

  /** The routes of a request body; indices in errors count from the body's first route. */
  const read = async (name: string, request: Request, existingIds?: ReadonlySet<string>): Promise<Route[]> => {
    // Checked like every management body (strict UTF-8, no duplicate keys, depth);
    // each answer's data stays its exact text, like a record's. A list is many answers,
    // each held to the body limit on its own: the list may take ROUTES_BODY_FACTOR times it.
    const members = await readJsonObjectBody(request, routesBodyBytes(options.maxBodyBytes), ROUTES_BODY);
    const routes = await parseRoutesBody(members, routeSchema, { ...options, existingIds });
    return checkGrpcRoutes(endpoints, name, routes, options);
  };

  app.get('/api/endpoints/:name/routes', async (c) => {
    const name = pathName(c.req.param('name'));
    return jsonTextResponse(routesPageJson(await endpoints.routes(name)));
  });

  app.put('/api/endpoints/:name/routes', async (c) => {
    const name = pathName(c.req.param('name'));
    const routes = await read(name, c.req.raw);
    if (routes.length > options.maxRoutes) throw tooMany(name, routes.length, options.maxRoutes);
    const saved = await endpoints.updateRoutes(name, () => routes);
    return jsonTextResponse(routesPageJson(saved));
  });

  app.post('/api/endpoints/:name/routes', async (c) => {
    const name = pathName(c.req.param('name'));
    // Checked against the ids there are now; checked again inside the atomic update.
    const current = await endpoints.routes(name);
    const added = await read(name, c.req.raw, new Set(current.map((route) => route.id)));
    const saved = await endpoints.updateRoutes(name, (now) => {
      const ids = new Set(now.map((route) => route.id));
      const clash = added.findIndex((route) => ids.has(route.id));
      if (clash !== -1) {
        throw new MockpointError('DUPLICATE_ROUTE_ID', `routes[${clash}]: id "${added[clash]?.id}" is already used`, {
          details: { index: clash },
        });
      }
      if (now.length + added.length > options.maxRoutes) {
        throw tooMany(name, now.length + added.length, options.maxRoutes);
      }
      return [...now, ...added];
    });
    return jsonTextResponse(routesPageJson(saved), 201);
  });

  app.delete('/api/endpoints/:name/routes', async (c) => {
    await endpoints.updateRoutes(pathName(c.req.param('name')), () => []);
    return c.body(null, 204);
  });

  app.delete('/api/endpoints/:name/routes/:id', async (c) => {
    const name = pathName(c.req.param('name'));
    const id = c.req.param('id');
    await endpoints.updateRoutes(name, (now) => {
      const next = now.filter((route) => route.id !== id);
      if (next.length === now.length) {
        throw new MockpointError(
          'NOT_FOUND',
          `"${name}" has no route with id "${id}"; list them at GET /api/endpoints/${name}/routes`,
        );
      }
      return next;
    });
    return c.body(null, 204);
  });

  ctx.describe?.push(...endpointRouteDocs(schemas));
}

/** The codes of a route list refused for one bad route: nothing is changed, and error.details.index names it. */
const BAD_ROUTE = [
  'INVALID_ROUTE',
  'INVALID_ROUTE_ID',
  'DUPLICATE_ROUTE_ID',
  'INVALID_ROUTE_PATTERN',
  'INVALID_MATCH',
  'INVALID_ANSWER',
  'INVALID_LATENCY',
  'INVALID_HEADER',
  'INVALID_TEMPLATE',
  'INVALID_STREAM',
  'INVALID_LLM',
  'STREAM_TOO_LONG',
  'INVALID_PROXY',
  'INVALID_VALIDATION',
  'INVALID_RATE_LIMIT',
  'INVALID_MCP',
  'INVALID_GRPC_ANSWER',
  'PROXY_HOST_NOT_ALLOWED',
  'TOO_MANY_ROUTES',
] as const;

/** The OpenAPI docs of the routes of a name's route list. */
function endpointRouteDocs(schemas: Schemas): RouteDoc[] {
  const params = {
    name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name },
  };
  const refused = [REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS];
  /** The doc of a write of the whole route list (PUT replaces it, POST appends to it). */
  const listWrite = (method: 'put' | 'post', summary: string, answered: RouteDoc['responses']): RouteDoc => ({
    method,
    path: '/api/endpoints/{name}/routes',
    summary,
    tag: 'routes',
    params,
    body: schemas.routesRequest,
    admin: true,
    responses: { ...answered, ...errorResponses(schemas, ...refused, BAD_ROUTE) },
  });
  return [
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/routes',
        summary: 'The routes of this name, in the order they are tried.',
        tag: 'routes',
        params,
      },
      { description: 'The routes.', schema: schemas.routesPage },
    ),
    listWrite(
      'put',
      'Replace the whole route list atomically. Requests to /endpoint/{name}/… are answered by a matching queued answer, else the first route whose match holds, else the record (bare URL only), else 404 NO_ROUTE_MATCHED with near misses.',
      { 200: { description: 'Saved; the list with every id.', schema: schemas.routesPage } },
    ),
    listWrite('post', 'Append routes after the existing ones (all or none).', {
      201: { description: 'Appended; the whole list now.', schema: schemas.routesPage },
    }),
    {
      method: 'delete',
      path: '/api/endpoints/{name}/routes',
      summary: 'Remove every route of this name (the record stays).',
      tag: 'routes',
      params,
      admin: true,
      responses: { 204: { description: 'Cleared.' }, ...errorResponses(schemas, ...refused) },
    },
    {
      method: 'delete',
      path: '/api/endpoints/{name}/routes/{id}',
      summary: 'Remove one route.',
      tag: 'routes',
      params: { ...params, id: 'The route id.' },
      admin: true,
      responses: {
        204: { description: 'Removed.' },
        ...errorResponses(schemas, 'NOT_FOUND', ...refused),
      },
    },
  ];
}
