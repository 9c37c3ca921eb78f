/**
 * `/api/namespaces`: make, list and delete namespaces (docs/sessions.md). Only
 * the default namespace answers them: namespaces do not nest. With an admin
 * token set, every one of them needs it, reads too (a list of namespaces is no
 * one else's business).
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import type { NamespaceRequest } from '../../api/namespace-json.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import type { NamespaceTable } from '../namespace-table.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';
import { readUnhandled, unhandledSchema } from './unhandled.js';

/** The longest `ttlMs`: 30 days. */
export const MAX_NAMESPACE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The shortest `ttlMs`: one second (the sweep runs once a second). */
export const MIN_NAMESPACE_TTL_MS = 1000;
/** The most namespaces one `POST /api/namespaces` makes (`count`). */
export const MAX_NAMESPACE_BATCH = 100;

const info = onFirstUse(() =>
  z.object({
    name: z.string(),
    ttlMs: z.number().int().optional().meta({ description: 'Deleted after this many milliseconds without a request.' }),
    createdAt: z.string().meta({ description: 'When it was made (ISO 8601).' }),
    usedAt: z.string().meta({ description: 'When a request last reached it, to within a second (ISO 8601).' }),
    loaded: z.boolean().optional().meta({
      description:
        'GET of one namespace only: whether its app is made in the process that answered (an idle one is unloaded, its data kept, and made again on its next request).',
    }),
    held: z.number().int().optional().meta({
      description:
        'GET of one namespace only: requests (a delay, a long-poll, a gRPC call) and WebSockets it holds open in the process that answered.',
    }),
  }),
);
const created = onFirstUse(() =>
  info().extend({
    token: z.string().meta({
      description:
        'Bearer token that manages this namespace only (shown this once: only its hash is kept). Another namespace, or the default namespace, answers it 403 FORBIDDEN_NAMESPACE.',
    }),
  }),
);
const input = onFirstUse(() =>
  z.strictObject({
    name: z.string().optional().meta({ description: 'Its name (A-Z a-z 0-9 _ -, 1-64); a random one when absent.' }),
    ttlMs: z
      .number()
      .int()
      .min(MIN_NAMESPACE_TTL_MS)
      .max(MAX_NAMESPACE_TTL_MS)
      .optional()
      .meta({ description: 'Delete it after this many milliseconds without a request (a test session: minutes).' }),
    count: z.number().int().min(1).max(MAX_NAMESPACE_BATCH).optional().meta({
      description:
        'Make this many, each with a random name, in one request (a test run opening its sessions in batches); answered { namespaces }. Not with name. All or none are made.',
    }),
  }),
);

/** The body of a POST: `{ name?, ttlMs? }` and nothing else. */
async function readRequest(request: Request, maxBytes: number): Promise<NamespaceRequest> {
  const members = await readJsonObjectBody(request, maxBytes, { emptyIsObject: true });
  const out: NamespaceRequest = {};
  for (const [key, raw] of members) {
    const value: unknown = JSON.parse(raw);
    if (key === 'name') {
      if (typeof value !== 'string') throw new MockpointError('INVALID_NAME', '`name` must be a string');
      out.name = value;
    } else if (key === 'ttlMs') {
      if (
        typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < MIN_NAMESPACE_TTL_MS ||
        value > MAX_NAMESPACE_TTL_MS
      ) {
        throw new MockpointError(
          'INVALID_BODY',
          `\`ttlMs\` must be a whole number of milliseconds, ${MIN_NAMESPACE_TTL_MS}–${MAX_NAMESPACE_TTL_MS}`,
        );
      }
      out.ttlMs = value;
    } else if (key === 'count') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_NAMESPACE_BATCH) {
        throw new MockpointError('INVALID_BODY', `\`count\` must be a whole number, 1–${MAX_NAMESPACE_BATCH}`);
      }
      out.count = value;
    } else {
      throw new MockpointError('UNKNOWN_FIELD', `unknown field "${key.slice(0, 100)}"; give { name?, ttlMs?, count? }`);
    }
  }
  if (out.count !== undefined && out.name !== undefined) {
    throw new MockpointError('INVALID_BODY', 'give `name` or `count`, not both: a batch gets random names');
  }
  return out;
}

/** The delete's `unhandled` query: `true` to answer the namespace's unhandled requests. @throws MockpointError `INVALID_QUERY` */
function reportWanted(value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new MockpointError('INVALID_QUERY', '`unhandled` must be true or false');
}

export function registerNamespaceRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'options' | 'schemas'>,
  table: NamespaceTable,
): void {
  const { schemas, options } = ctx;

  app.post('/api/namespaces', async (c) => {
    const request = await readRequest(c.req.raw, options.maxBodyBytes);
    if (request.count !== undefined) return c.json({ namespaces: await table.createMany(request, request.count) }, 201);
    const made = await table.create(request);
    c.header('location', `/api/namespaces/${made.name}`);
    return c.json(made, 201);
  });
  app.get('/api/namespaces', async (c) => c.json({ namespaces: await table.list() }));
  app.get('/api/namespaces/:ns', async (c) => c.json(await table.info(c.req.param('ns'))));
  app.delete('/api/namespaces/:ns', async (c) => {
    const name = c.req.param('ns');
    if (!reportWanted(c.req.query('unhandled'))) {
      await table.delete(name);
      return c.body(null, 204);
    }
    // A test session's end in one request: what nothing answered in it, read just before it goes.
    const requests = await readUnhandled((await table.app(name)).mockpoint.journal);
    await table.delete(name);
    return jsonResponse({ requests });
  });

  const params = { ns: { description: 'Namespace name.', schema: schemas.name } };
  const notFound = errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS, 'NAMESPACE_NOT_FOUND', STORE_ERRORS);
  ctx.describe?.push(
    {
      method: 'post',
      path: '/api/namespaces',
      summary:
        'Make a namespace: a whole mockpoint of its own at /ns/{ns}/… (or with the header mockpoint-session: {ns}), invisible to every other, with a token that manages it alone. ttlMs deletes it after that long without a request.',
      tag: 'namespaces',
      body: input(),
      admin: true,
      responses: {
        201: {
          description:
            'Made: its name and its token (shown this once); with `count`, `{ namespaces }`, each with its token.',
          schema: z.union([created(), z.object({ namespaces: z.array(created()) })]),
        },
        ...errorResponses(
          schemas,
          REQUEST_ERRORS,
          BODY_ERRORS,
          ADMIN_ERRORS,
          'NAMESPACE_EXISTS',
          'TOO_MANY_NAMESPACES',
          STORE_ERRORS,
        ),
      },
    },
    {
      method: 'get',
      path: '/api/namespaces',
      summary: 'Every namespace, by name (with an admin token set, it is needed here too).',
      tag: 'namespaces',
      admin: true,
      responses: {
        200: { description: 'The namespaces.', schema: z.object({ namespaces: z.array(info()) }) },
        ...errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS, STORE_ERRORS),
      },
    },
    {
      method: 'get',
      path: '/api/namespaces/{ns}',
      summary: 'One namespace.',
      tag: 'namespaces',
      params,
      admin: true,
      responses: { 200: { description: 'The namespace.', schema: info() }, ...notFound },
    },
    {
      method: 'delete',
      path: '/api/namespaces/{ns}',
      summary:
        'Delete a namespace and everything in it: its endpoints, routes, collections, state, queue, journal, hosts and deliveries; its held requests are answered and its WebSockets closed. With `?unhandled=true`, answers 200 with the requests in it that nothing answered, read just before (what `GET /ns/{ns}/api/requests/unhandled` lists): a test session ends in one request.',
      tag: 'namespaces',
      params,
      query: z.object({
        unhandled: z.enum(['true', 'false']).optional().meta({
          description:
            'true: answer 200 with the requests in the namespace that nothing answered (default false: 204).',
        }),
      }),
      admin: true,
      responses: {
        200: {
          description: 'Deleted (`?unhandled=true`); the requests nothing answered, oldest first.',
          schema: z.object({ requests: z.array(unhandledSchema()) }),
        },
        204: { description: 'Deleted.' },
        ...errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS, 'NAMESPACE_NOT_FOUND', 'INVALID_QUERY', STORE_ERRORS),
      },
    },
  );
}

/** In a namespace's app: `/api/namespaces` answers 403 FORBIDDEN_NAMESPACE (namespaces do not nest). */
export function refuseNestedNamespaces(app: Hono, namespace: string): void {
  const nested = () =>
    new MockpointError(
      'FORBIDDEN_NAMESPACE',
      `namespaces are managed in the default namespace (/api/namespaces, with the admin token), not in namespace "${namespace}"`,
    ).toResponse();
  app.all('/api/namespaces', nested);
  app.all('/api/namespaces/*', nested);
}
