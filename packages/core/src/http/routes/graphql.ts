/**
 * `/api/endpoints/{name}/graphql`: the endpoint's GraphQL schema (SDL). PUT
 * sets it (checked with `buildSchema` and `validateSchema`: 400
 * `INVALID_GRAPHQL_SCHEMA` with line and column), GET answers it byte for byte,
 * DELETE removes it. Kept beside the record, like routes: the record need not
 * exist, and replacing it leaves the schema. See docs/graphql.md.
 *
 * @module
 */
import type { Hono } from 'hono';
import { createGraphqlSchemas } from '../../api/graphql-json.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { NAME_SETTINGS } from '../../settings/name-settings.js';
import type { AppContext } from '../context.js';
import { DEFINITION_REFUSALS, registerDefinitions } from './definitions.js';
import { pathName } from './manage.js';
import { errorResponses, readDoc } from './responses.js';

const graphqlSchemas = onFirstUse(createGraphqlSchemas);

export function registerGraphqlRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'endpoints' | 'options' | 'schemas'>,
): void {
  const { schemas, endpoints, options } = ctx;
  const { params, deleteDoc } = registerDefinitions(app, ctx, {
    segment: 'graphql',
    what: 'GraphQL schema',
    it: 'one',
    read: (name) => endpoints.setting('graphql', name),
    send: (c, sdl) => c.json({ schema: sdl }),
    clear: (name) => endpoints.setSetting('graphql', name, undefined),
  });

  app.put('/api/endpoints/:name/graphql', async (c) => {
    const name = pathName(c.req.param('name'));
    // Its input, read and checked by its declaration (settings/graphql-setting.ts).
    const sdl = await NAME_SETTINGS.graphql.input.read(c.req.raw, options, schemas);
    // Checked where schemas are built (the daemon's GraphQL worker thread), off the event loop.
    await endpoints.graphqlRunner.check(sdl, options[NAME_SETTINGS.graphql.limit.option]);
    const had = await endpoints.setSetting('graphql', name, sdl);
    return c.json({ schema: sdl }, had ? 200 : 201);
  });

  const refused = DEFINITION_REFUSALS;
  const saved = { description: 'The schema as kept, byte for byte.', schema: graphqlSchemas().body };
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/graphql',
        summary: "The endpoint's GraphQL schema (SDL), byte for byte as it was put.",
        tag: 'graphql',
        params,
      },
      saved,
      'NOT_FOUND',
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}/graphql',
      summary:
        'Put the GraphQL schema that answers GraphQL requests to /endpoint/{name} and its subpaths (schema mode: deterministic data shaped by the schema, GraphQL errors, introspection; routes matching match.graphql answer first). The body is { "schema": "…SDL…" }, or the SDL itself (any body that does not start with {). Checked with buildSchema and validateSchema.',
      tag: 'graphql',
      params,
      body: graphqlSchemas().body,
      admin: true,
      responses: {
        200: { ...saved, description: 'Replaced.' },
        201: { description: 'Created.', schema: graphqlSchemas().body },
        ...errorResponses(
          schemas,
          ...refused,
          'INVALID_JSON',
          'INVALID_UTF8',
          'INVALID_GRAPHQL_SCHEMA',
          'GRAPHQL_SCHEMA_TOO_COMPLEX',
          'GRAPHQL_SCHEMA_TOO_LARGE',
          'GRAPHQL_WORKER_FAILED',
          'TOO_MANY_GRAPHQL_REQUESTS',
        ),
      },
    },
    deleteDoc,
  );
}
