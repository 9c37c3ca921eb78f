/**
 * `/api/endpoints/{name}/chaos`: the share of requests to `/endpoint/{name}`
 * answered with an injected fault, a latency and a seed (PUT sets it, GET
 * shows it, DELETE removes it). Kept beside the record, like the signature
 * check: the name's record need not exist. See docs/chaos.md.
 *
 * @module
 */
import type { Hono } from 'hono';
import { readJsonObjectBody } from '../../wire/body.js';
import { chaosSchemas, parseChaosInput } from '../../wire/chaos.js';
import { MockpointError } from '../../wire/errors.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

export function registerChaosRoutes(app: Hono, ctx: AppContext): void {
  const { schemas, endpoints, options } = ctx;
  const { settings: schema } = chaosSchemas(schemas.routeAnswer.shape.latency);

  app.get('/api/endpoints/:name/chaos', async (c) => {
    const name = pathName(c.req.param('name'));
    const settings = await endpoints.chaos(name);
    if (settings === undefined) {
      throw new MockpointError('NOT_FOUND', `"${name}" has no chaos; set it with PUT /api/endpoints/${name}/chaos`);
    }
    return c.json(settings);
  });

  app.put('/api/endpoints/:name/chaos', async (c) => {
    const name = pathName(c.req.param('name'));
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes);
    // fromEntries makes own properties, so a `__proto__` key is reported as unknown.
    const body = Object.fromEntries([...members].map(([key, text]) => [key, JSON.parse(text)]));
    const settings = parseChaosInput(body, schema, options.maxDelayMs);
    await endpoints.setChaos(name, settings);
    return c.json(settings);
  });

  app.delete('/api/endpoints/:name/chaos', async (c) => {
    await endpoints.setChaos(pathName(c.req.param('name')), undefined);
    return c.body(null, 204);
  });

  const params = {
    name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name },
  };
  const refused = [REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS];
  ctx.docs.push(
    readDoc(
      schemas,
      { path: '/api/endpoints/{name}/chaos', summary: "The endpoint's chaos.", tag: 'endpoints', params },
      { description: 'The chaos.', schema },
      'NOT_FOUND',
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}/chaos',
      summary:
        'Inject faults into a share of the requests to /endpoint/{name} (reset, timeout, 500, 503, 429), add a drawn latency to every answer, each decision from a seeded generator; each injected fault is journaled (answeredBy { chaos }).',
      tag: 'endpoints',
      params,
      body: schema,
      admin: true,
      responses: {
        200: { description: 'Saved; the chaos. Its sequence of decisions starts again.', schema },
        ...errorResponses(schemas, ...refused, 'INVALID_CHAOS', 'INVALID_LATENCY'),
      },
    },
    {
      method: 'delete',
      path: '/api/endpoints/{name}/chaos',
      summary:
        'Stop the chaos of this name (the record, routes and journal stay); a request held by a timeout is let go.',
      tag: 'endpoints',
      params,
      admin: true,
      responses: { 204: { description: 'Removed (or there was none).' }, ...errorResponses(schemas, ...refused) },
    },
  );
}
