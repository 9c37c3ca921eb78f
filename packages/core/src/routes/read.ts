/**
 * `/endpoint/{name}` for Fetch-API runtimes: a thin adapter that hands the
 * request to the {@link EndpointHandler} and turns its answer into a `Response`.
 * (On Node, `@mockpoint/core/node` answers these requests natively.)
 *
 * @module
 */
import type { Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { EndpointAnswer } from '../endpoint-answer.js';
import { READ_METHODS } from '../endpoint-handler.js';
import { captureRequest, JOURNAL_BODY_LIMIT } from '../journal-entry.js';
import type { RouteDoc } from '../openapi.js';

export { READ_METHODS } from '../endpoint-handler.js';

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

function toResponse(answer: EndpointAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export function registerReadRoutes(app: Hono, ctx: AppContext): void {
  const { handler, options } = ctx;

  // Other methods and paths under /endpoint/ reach the app's 404/405 answers, which say the same.
  app.on([...READ_METHODS, 'OPTIONS'], '/endpoint/:name', async (c) => {
    const request = c.req.raw;
    // The rest of a long body is read and dropped up to the body limit, so the connection stays usable.
    const recorded = await captureRequest(request, JOURNAL_BODY_LIMIT, options.maxBodyBytes);
    const answer = await handler.handle(recorded);
    // A timer, never a busy wait; cancelled when the client goes away.
    if (answer.delay > 0 && !(await sleep(answer.delay, request.signal))) {
      return new Response(null, { status: 499 });
    }
    return toResponse(answer);
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
