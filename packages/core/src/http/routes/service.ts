/**
 * `GET /api/health` and `GET /api/openapi.json`.
 *
 * @module
 */
import type { Hono } from 'hono';
import { jsonResponse } from '../../answer/read-response.js';
import { LIMIT_NAMES } from '../../wire/settings.js';
import type { AppContext } from '../context.js';
import { buildOpenApiDocument } from '../openapi.js';
import { errorResponses, HOST_ERRORS } from './responses.js';

export function registerServiceRoutes(app: Hono, ctx: AppContext): void {
  const { schemas, endpoints, journal, options } = ctx;

  app.get('/api/health', () => {
    const health = endpoints.store.health?.() ?? { status: 'ok' as const };
    const limits = Object.fromEntries(LIMIT_NAMES.map((name) => [name, options[name]]));
    return jsonResponse({
      ...health,
      version: options.version,
      store: endpoints.store.kind,
      longPolls: journal.waiterCount,
      limits,
    });
  });

  let document: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', () => {
    // Built on first request: every route module has registered its docs by then.
    document ??= buildOpenApiDocument(ctx.docs, options.version, options.adminToken !== undefined);
    return jsonResponse(document);
  });

  ctx.docs.push(
    {
      method: 'get',
      path: '/api/health',
      summary: 'Liveness, version, store kind and the limits input is checked against.',
      tag: 'service',
      responses: {
        200: { description: 'The service answers (see `status` for the store).', schema: schemas.health },
        ...errorResponses(schemas, HOST_ERRORS),
      },
    },
    {
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This OpenAPI 3.1 document, generated from the validation schemas.',
      tag: 'service',
      responses: { 200: { description: 'The document.' }, ...errorResponses(schemas, HOST_ERRORS) },
    },
  );
}
