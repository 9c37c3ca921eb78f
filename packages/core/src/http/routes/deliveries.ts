/**
 * `/api/deliveries`: send signed webhook deliveries to a receiver under test,
 * with retries, and read every attempt back. The behaviour is the delivery
 * worker's (`webhook/delivery-worker.ts`); these routes only translate.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonResponse } from '../../answer/read-response.js';
import { onFirstUse } from '../../cache/on-first-use.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import { MAX_WAIT_MS } from '../../registry/limits.js';
import type { AppContext } from '../context.js';
import { deliverySchemas } from '../delivery-schema.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, HOST_ERRORS, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

/** Deliveries `GET /api/deliveries` lists at most. */
const MAX_LIST = 1000;

const listQuery = onFirstUse(() =>
  z.object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_LIST)
      .optional()
      .describe(`How many, newest first (1-${MAX_LIST}). Default 100.`),
  }),
);
const waitQuery = onFirstUse(() =>
  z.object({
    wait: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .optional()
      .describe(
        `Wait up to this many milliseconds (at most ${MAX_WAIT_MS}) for the delivery to finish; answers as it is then.`,
      ),
  }),
);

function query<S extends z.ZodObject>(schema: S, values: Record<string, string>, rule: string): z.output<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new MockpointError('INVALID_QUERY', rule);
  return parsed.data;
}

export function registerDeliveryRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'deliveries' | 'describe' | 'options' | 'schemas'>,
): void {
  const { deliveries, options, schemas } = ctx;

  app.post('/api/deliveries', async (c) => {
    // Room for the body as base64 and the other fields; the body itself is held to maxBodyBytes.
    const members = await readJsonObjectBody(c.req.raw, Math.ceil((options.maxBodyBytes * 4) / 3) + 64 * 1024);
    return jsonResponse(await deliveries.create(members), 202);
  });

  app.get('/api/deliveries', async (c) => {
    const { limit } = query(listQuery(), c.req.query(), `limit must be a whole number from 1 to ${MAX_LIST}`);
    return jsonResponse(await deliveries.list(limit ?? 100));
  });

  app.get('/api/deliveries/:id', async (c) => {
    const { wait } = query(
      waitQuery(),
      c.req.query(),
      `wait must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`,
    );
    const id = c.req.param('id');
    if (wait === undefined || wait === 0) return jsonResponse(await deliveries.get(id));
    return jsonResponse(await deliveries.wait(id, wait, c.req.raw.signal));
  });

  app.delete('/api/deliveries/:id', async (c) => jsonResponse(await deliveries.cancel(c.req.param('id'))));

  const params = { id: 'The delivery id (dlv_…) returned by POST /api/deliveries.' };
  ctx.describe?.push(
    {
      method: 'post',
      path: '/api/deliveries',
      summary:
        'Send a webhook to a receiver: signed per attempt (fresh timestamp and signature, one webhook-id), retried on its schedule (2xx done, 410 stops, Retry-After honoured), never redirected. Answers at once; attempts follow.',
      tag: 'deliveries',
      body: deliverySchemas().deliveryRequestSchema,
      admin: true,
      responses: {
        202: { description: 'Accepted: stored, first attempt due now.', schema: deliverySchemas().deliverySchema },
        ...errorResponses(
          schemas,
          REQUEST_ERRORS,
          [
            'INVALID_DELIVERY_URL',
            'DELIVERY_HOST_NOT_ALLOWED',
            'INVALID_RETRY',
            'INVALID_TAMPER',
            'INVALID_DELIVERY_TIMEOUT',
            'INVALID_DELIVERY',
            'INVALID_HEADER',
            'INVALID_BODY',
            'UNKNOWN_FIELD',
            'UNKNOWN_SIGNATURE_SCHEME',
            'INVALID_SIGNATURE_SECRET',
            'INVALID_SIGNATURE_OPTIONS',
            'INVALID_JSON',
          ],
          BODY_ERRORS,
          ADMIN_ERRORS,
          'TOO_MANY_DELIVERIES',
          STORE_ERRORS,
        ),
      },
    },
    {
      method: 'get',
      path: '/api/deliveries',
      summary: 'Recent deliveries with their attempts, newest first (secrets are never listed).',
      tag: 'deliveries',
      query: listQuery(),
      responses: {
        200: { description: 'Newest first.', schema: deliverySchemas().deliveryPageSchema },
        ...errorResponses(schemas, 'INVALID_QUERY', HOST_ERRORS, STORE_ERRORS),
      },
    },
    {
      method: 'get',
      path: '/api/deliveries/{id}',
      summary: 'One delivery with every attempt; with wait, long-polls until it is no longer pending.',
      tag: 'deliveries',
      params,
      query: waitQuery(),
      responses: {
        200: { description: 'The delivery.', schema: deliverySchemas().deliverySchema },
        ...errorResponses(schemas, 'INVALID_QUERY', HOST_ERRORS, 'DELIVERY_NOT_FOUND', STORE_ERRORS),
      },
    },
    {
      method: 'delete',
      path: '/api/deliveries/{id}',
      summary: 'Cancel a pending delivery: no further attempt is made.',
      tag: 'deliveries',
      params,
      admin: true,
      responses: {
        200: { description: 'Cancelled.', schema: deliverySchemas().deliverySchema },
        ...errorResponses(schemas, ADMIN_ERRORS, 'DELIVERY_NOT_FOUND', 'DELIVERY_FINISHED', STORE_ERRORS),
      },
    },
  );
}
