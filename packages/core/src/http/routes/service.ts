/**
 * `GET /api/health`, `GET /api/openapi.json` and `GET /api/config.schema.json`.
 *
 * @module
 */
import type { Hono } from 'hono';
import { jsonResponse } from '../../answer/read-response.js';
import { mockFileJsonSchema } from '../../files/mock-file-schema.js';
import { LIMIT_NAMES } from '../../registry/settings.js';
import type { AppContext } from '../context.js';
import { buildOpenApiDocument } from '../openapi.js';
import { errorResponses, HOST_ERRORS } from './responses.js';

export function registerServiceRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'backend' | 'describe' | 'docs' | 'journal' | 'options' | 'schemas'>,
): void {
  const { schemas, backend, journal, options } = ctx;

  app.get('/api/health', () => {
    const health = backend.health();
    const limits = Object.fromEntries(LIMIT_NAMES.map((name) => [name, options[name]]));
    return jsonResponse({
      ...health,
      version: options.version,
      store: backend.store.kind,
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

  // The mock file's JSON Schema, from this app's own schemas (its limits), for
  // editors pointed at a running daemon (`$schema: http://localhost:16540/api/config.schema.json`).
  let fileSchema: Record<string, unknown> | undefined;
  app.get('/api/config.schema.json', () => {
    fileSchema ??= mockFileJsonSchema(schemas);
    return jsonResponse(fileSchema);
  });

  ctx.describe?.push(
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
    {
      method: 'get',
      path: '/api/config.schema.json',
      summary:
        "The JSON Schema (draft 2020-12) of a mock file (mockpoint.yaml / .json), generated from the API's schemas with this server's limits.",
      tag: 'service',
      responses: { 200: { description: 'The JSON Schema.' }, ...errorResponses(schemas, HOST_ERRORS) },
    },
  );
}
