/**
 * `PUT /api/endpoint/add`: the seed contract's create operation.
 *
 * @module
 */
import type { Hono } from 'hono';
import { jsonTextResponse } from '../../answer/read-response.js';
import { type EndpointRecord, parseMembers } from '../../api/schemas.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import { recordJson } from '../../store/record-codec.js';
import type { AppContext } from '../context.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

export function registerAddRoute(app: Hono, ctx: AppContext): void {
  const { schemas, endpoints, options } = ctx;

  app.put('/api/endpoint/add', async (c) => {
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes);
    const record = parseMembers(schemas.addRequest, members, options.maxDelayMs) as EndpointRecord;
    if (!(await endpoints.create(record))) {
      throw new MockpointError(
        'NAME_TAKEN',
        `an endpoint named "${record.name}" already exists; replace it with PUT /api/endpoints/${record.name}`,
      );
    }
    return jsonTextResponse(`{"success":true,${recordJson(record).slice(1)}`, 201);
  });

  ctx.describe?.push({
    method: 'put',
    path: '/api/endpoint/add',
    summary:
      'Create an endpoint (fails with 409 when the name is taken). The body is parsed as JSON whatever its Content-Type, may be gzip or deflate encoded, and `data` is stored as its exact JSON text.',
    tag: 'endpoints',
    body: schemas.addRequest,
    admin: true,
    responses: {
      201: { description: 'Created and durable; echoes the stored record.', schema: schemas.addResponse },
      ...errorResponses(
        schemas,
        REQUEST_ERRORS,
        'NAME_TAKEN',
        'TOO_MANY_ENDPOINTS',
        BODY_ERRORS,
        ADMIN_ERRORS,
        STORE_ERRORS,
      ),
    },
  });
}
