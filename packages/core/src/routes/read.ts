/**
 * `/endpoint/{name}`: the public read path. Every method answers with the stored
 * data, status and delay; every request is recorded in the journal.
 *
 * @module
 */
import type { Hono } from 'hono';
import type { CachedResponse } from '../cache.js';
import type { AppContext } from '../context.js';
import { captureRequest, JOURNAL_NAME_LIMIT } from '../journal-entry.js';
import type { RouteDoc } from '../openapi.js';
import { BODILESS_STATUS, CORS_HEADERS, JSON_HEADERS, readHeaders } from '../read-response.js';
import { isValidName } from '../schemas.js';

/** Methods answered at `/endpoint/{name}`. */
export const READ_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const NOT_FOUND_PREFIX = '{"success":false,"error":{"code":"NOT_FOUND","message":';

/** Resolves after `ms`, or early (with `false`) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function answer(request: Request, entry: CachedResponse): Response {
  const status = entry.statusCode;
  const body = request.method === 'HEAD' || BODILESS_STATUS.has(status) ? null : entry.body;
  return new Response(body, { status, headers: readHeaders(entry) });
}

export function registerReadRoutes(app: Hono, ctx: AppContext): void {
  const { endpoints, journal } = ctx;

  app.on([...READ_METHODS], '/endpoint/:name', async (c) => {
    const request = c.req.raw;
    const name = c.req.param('name');
    const entry = isValidName(name) ? await endpoints.response(name) : undefined;
    if (name.length <= JOURNAL_NAME_LIMIT) {
      journal.record(name, await captureRequest(request, entry?.statusCode ?? 404));
    }
    if (entry === undefined) {
      const message = JSON.stringify(
        `no endpoint named "${name}"; create it with PUT /api/endpoint/add or list them at GET /api/endpoints`,
      );
      const body = request.method === 'HEAD' ? null : `${NOT_FOUND_PREFIX}${message}}}`;
      return new Response(body, { status: 404, headers: JSON_HEADERS });
    }
    // A timer, never a busy wait; cancelled when the client goes away.
    if (entry.delay > 0 && !(await sleep(entry.delay, request.signal))) {
      return new Response(null, { status: 499 });
    }
    return answer(request, entry);
  });

  // CORS preflight: open to every origin, method and header. Not journaled.
  app.options('/endpoint/:name', (c) => {
    const requested = c.req.header('access-control-request-headers');
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        'access-control-allow-methods': READ_METHODS.join(', '),
        'access-control-allow-headers': requested ?? '*',
        'access-control-max-age': '86400',
      },
    });
  });

  const params = { name: 'Endpoint name.' };
  for (const method of READ_METHODS) {
    ctx.docs.push({
      method: method.toLowerCase() as Lowercase<typeof method>,
      path: '/endpoint/{name}',
      summary: `Answer with the stored data, status and delay (${method}; the request is recorded).`,
      tag: 'read',
      params,
      // The status is the stored statusCode, any of 200-599; HEAD answers without a body.
      responses: {
        ...(Object.fromEntries(
          (['2XX', '3XX', '4XX', '5XX'] as const).map((range) => [
            range,
            {
              description: `The stored data, when the stored statusCode is ${range}${method === 'HEAD' ? ' (headers only)' : ''}.`,
              schema: method === 'HEAD' ? undefined : ctx.schemas.record.shape.data,
            },
          ]),
        ) as RouteDoc['responses']),
        404: {
          description: `No endpoint with this name (a NOT_FOUND error body), or the stored data of one whose statusCode is 404${method === 'HEAD' ? ' (headers only)' : ''}.`,
          schema: method === 'HEAD' ? undefined : ctx.schemas.record.shape.data,
        },
      },
    });
  }
  ctx.docs.push({
    method: 'options',
    path: '/endpoint/{name}',
    summary: 'CORS preflight: every origin, method and header is allowed.',
    tag: 'read',
    params,
    responses: { 204: { description: 'Preflight answer.' } },
  });
}
