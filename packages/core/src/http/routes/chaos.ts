/**
 * Chaos at run time: `/api/endpoints/{name}/chaos`, the share of requests to
 * `/endpoint/{name}` answered with an injected fault, a latency and a seed,
 * kept beside the record like the signature check (the name's record need not
 * exist); and `/api/chaos`, the namespace's own, for every endpoint of this app
 * (this namespace) without chaos of its own. PUT sets, GET shows, DELETE
 * removes. See docs/chaos.md.
 *
 * @module
 */
import type { Context, Hono } from 'hono';
import { type ChaosSettings, NAMESPACE_CHAOS_KEY } from '../../api/chaos.js';
import { MockpointError } from '../../registry/errors.js';
import { NAME_SETTINGS } from '../../settings/name-settings.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc, STORE_ERRORS } from './responses.js';

/** One of the two chaos resources: its path, whose chaos a request names, and what to say when there is none. */
interface ChaosResource {
  path: string;
  docPath: string;
  key: (c: Context) => string;
  none: (key: string) => string;
}

const RESOURCES: readonly ChaosResource[] = [
  {
    path: '/api/endpoints/:name/chaos',
    docPath: '/api/endpoints/{name}/chaos',
    key: (c) => pathName(c.req.param('name') ?? ''),
    none: (name) => `"${name}" has no chaos; set it with PUT /api/endpoints/${name}/chaos`,
  },
  {
    path: '/api/chaos',
    docPath: '/api/chaos',
    key: () => NAMESPACE_CHAOS_KEY,
    none: () => 'the namespace has no chaos; set it with PUT /api/chaos',
  },
];

export function registerChaosRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'endpoints' | 'options' | 'schemas'>,
): void {
  const { schemas, endpoints, options } = ctx;
  const input = NAME_SETTINGS.chaos.input;
  const schema = input.schema(schemas);

  for (const { path, key, none } of RESOURCES) {
    app.get(path, async (c) => {
      const name = key(c);
      const settings: ChaosSettings | undefined = await endpoints.setting('chaos', name);
      if (settings === undefined) throw new MockpointError('NOT_FOUND', none(name));
      return c.json(settings);
    });

    app.put(path, async (c) => {
      const name = key(c);
      // Its input, read and checked by its declaration (settings/chaos-setting.ts); the namespace's too.
      const settings = await input.read(c.req.raw, options, schemas);
      await endpoints.setSetting('chaos', name, settings);
      return c.json(settings);
    });

    app.delete(path, async (c) => {
      await endpoints.setSetting('chaos', key(c), undefined);
      return c.body(null, 204);
    });
  }

  const refused = [REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS];
  const endpointParams = {
    name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name },
  };
  const what = {
    '/api/endpoints/{name}/chaos': {
      params: endpointParams,
      read: "The endpoint's chaos.",
      put: 'Inject faults into a share of the requests to /endpoint/{name} (reset, timeout, 500, 503, 429), add a drawn latency to every answer, each decision from a seeded generator; each injected fault is journaled (answeredBy { chaos }).',
      remove:
        'Stop the chaos of this name (the record, routes and journal stay); a request held by a timeout is let go.',
    },
    '/api/chaos': {
      params: undefined,
      read: "The namespace's chaos: that of every endpoint of this namespace without chaos of its own.",
      put: "Inject faults into a share of the requests to every endpoint of this namespace that has no chaos of its own (an endpoint's own chaos wins), from one seeded sequence of decisions; each injected fault is journaled (answeredBy { chaos, namespace: true }).",
      remove: "Stop the namespace's chaos (endpoints' own chaos stays); a request held by its timeout is let go.",
    },
  } as const;
  for (const { docPath } of RESOURCES) {
    const { params, read, put, remove } = what[docPath as keyof typeof what];
    const head = params === undefined ? {} : { params };
    ctx.describe?.push(
      readDoc(
        schemas,
        { path: docPath, summary: read, tag: 'endpoints', ...head },
        { description: 'The chaos.', schema },
        'NOT_FOUND',
      ),
      {
        method: 'put',
        path: docPath,
        summary: put,
        tag: 'endpoints',
        ...head,
        body: schema,
        admin: true,
        responses: {
          200: { description: 'Saved; the chaos. Its sequence of decisions starts again.', schema },
          ...errorResponses(schemas, ...refused, 'INVALID_CHAOS', 'INVALID_LATENCY'),
        },
      },
      {
        method: 'delete',
        path: docPath,
        summary: remove,
        tag: 'endpoints',
        ...head,
        admin: true,
        responses: { 204: { description: 'Removed (or there was none).' }, ...errorResponses(schemas, ...refused) },
      },
    );
  }
}
