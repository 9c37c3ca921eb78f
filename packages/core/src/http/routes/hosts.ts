/**
 * `/api/hosts` and `/api/endpoints/{name}/hosts`: which hosts pick which
 * endpoint (docs/https.md). The mappings of `MOCKPOINT_HOSTS` are shown and
 * cannot be changed here; those set here are kept in the store (durable, shared
 * by replicas) until removed, with the endpoint, or by `DELETE /api/endpoints`.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { onFirstUse } from '../../cache/on-first-use.js';
import { quoted } from '../../codec/quoted.js';
import { MockpointError } from '../../registry/errors.js';
import { NAME_SETTINGS } from '../../settings/name-settings.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, readDoc } from './responses.js';

const entry = onFirstUse(() =>
  z.object({
    host: z.string().meta({ description: 'A host name, or `*.` and a name for every name below it.' }),
    name: z.string(),
    source: z.enum(['settings', 'api']).meta({
      description: '`settings`: MOCKPOINT_HOSTS (fixed); `api`: this API or a mock file (kept in the store).',
    }),
  }),
);
const table = onFirstUse(() => z.object({ hosts: z.array(entry()) }));
const moves = onFirstUse(() =>
  table().extend({
    moved: z
      .array(z.object({ host: z.string(), from: z.string(), to: z.string() }))
      .optional()
      .meta({ description: 'With move=true: each host taken from the endpoint that held it (`from`).' }),
  }),
);
const putQuery = onFirstUse(() =>
  z.object({
    move: z.enum(['true', 'false']).optional().meta({
      description:
        'true: a host this API (or a mock file) gave another endpoint moves to this one, and `moved` lists each (a mock file applied does this: it wins for its hosts); false (the default): such a host is refused 409 HOST_TAKEN. A host MOCKPOINT_HOSTS maps elsewhere is refused either way.',
    }),
  }),
);
/** The `move` query of a PUT: `true` takes hosts other endpoints hold through the API. */
function moveFlag(value: string | undefined): boolean {
  if (value !== undefined && value !== 'true' && value !== 'false') {
    throw new MockpointError(
      'INVALID_QUERY',
      // Bounded, and one line whatever arrives: anything but printable ASCII escaped (U+2028 too).
      `move must be true or false (got ${quoted(value, 100)})`,
    );
  }
  return value === 'true';
}

export function registerHostRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'hosts' | 'options' | 'schemas' | 'storedHosts'>,
): void {
  const { schemas, hosts, storedHosts, options } = ctx;

  app.get('/api/hosts', (c) => c.json({ hosts: hosts.list() }));

  app.get('/api/endpoints/:name/hosts', (c) => {
    const name = pathName(c.req.param('name'));
    return c.json({ hosts: hosts.hostsOf(name) });
  });

  app.put('/api/endpoints/:name/hosts', async (c) => {
    const name = pathName(c.req.param('name'));
    const move = moveFlag(c.req.query('move'));
    // Its input, read and checked by its declaration (settings/hosts-setting.ts).
    const given = await NAME_SETTINGS.hosts.input.read(c.req.raw, options, schemas);
    if (move) return c.json(await storedHosts.take(name, given));
    return c.json({ hosts: await storedHosts.set(name, given) });
  });

  app.delete('/api/endpoints/:name/hosts', async (c) => {
    await storedHosts.remove(pathName(c.req.param('name')));
    return c.body(null, 204);
  });

  const params = { name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name } };
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/hosts',
        summary:
          'Every host mapped to an endpoint: a request with that Host (or through the forward proxy, that target) is answered by the endpoint, its whole path the subpath.',
        tag: 'hosts',
      },
      { description: 'The mappings, in host order.', schema: table() },
    ),
    readDoc(
      schemas,
      { path: '/api/endpoints/{name}/hosts', summary: 'The hosts mapped to this endpoint.', tag: 'hosts', params },
      { description: 'Its mappings (none: an empty list).', schema: table() },
    ),
    {
      method: 'put',
      path: '/api/endpoints/{name}/hosts',
      summary:
        'Replace the hosts this API maps to the endpoint (those of MOCKPOINT_HOSTS stay). Kept in the store (acknowledged once written there) until removed, with the endpoint, or by DELETE /api/endpoints. A host another endpoint holds is refused 409 HOST_TAKEN, unless move=true.',
      tag: 'hosts',
      params,
      query: putQuery(),
      body: NAME_SETTINGS.hosts.input.schema(schemas),
      admin: true,
      responses: {
        200: { description: "The endpoint's mappings now (and, with move=true, what moved).", schema: moves() },
        ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, ADMIN_ERRORS, 'INVALID_HOSTS', 'HOST_TAKEN'),
      },
    },
    {
      method: 'delete',
      path: '/api/endpoints/{name}/hosts',
      summary: 'Remove the hosts this API mapped to the endpoint (those of MOCKPOINT_HOSTS stay).',
      tag: 'hosts',
      params,
      admin: true,
      responses: {
        204: { description: 'Removed (or there were none).' },
        ...errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS),
      },
    },
  );
}
