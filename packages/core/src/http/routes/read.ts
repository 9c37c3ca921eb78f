/**
 * `/endpoint/{name}` for Fetch-API runtimes: a thin adapter that hands the
 * request to the {@link EndpointHandler} and sends its answer through the Fetch
 * sink (`engine/fetch-sink.ts`), which makes it a `Response`.
 * (On Node, `@mockpoint/core/node` answers these requests natively.)
 *
 * @module
 */
import type { Hono } from 'hono';
import { sentWhole } from '../../answer/answer-journal.js';
import { type EndpointTarget, splitEndpointTarget } from '../../api/endpoint-target.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { READ_METHODS } from '../../engine/endpoint-handler.js';
import { createFetchSink } from '../../engine/fetch-sink.js';
import { sendAnswer } from '../../engine/sink.js';
import { captureRequest, type RecordedRequest } from '../../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT } from '../../registry/limits.js';
import type { AppContext } from '../context.js';
import type { HostTarget } from '../front.js';
import type { RouteDoc } from '../openapi.js';
import { sentTarget } from '../sent-target.js';
import { describeErrors, errorResponses } from './responses.js';

/**
 * Answers a request as endpoint `name`; `env` is Hono's (Bun's server: what an
 * upgrade needs); `target` (path and query under /endpoint/) replaces the URL's
 * when a host picked the name, or is the URL's own when the caller has it
 * already; `split`, when given, is `target` split (`splitEndpointTarget(target)`),
 * so that it is not split again. A request without a body to a cached endpoint
 * is answered synchronously (a `Response`, no Promise).
 */
export type Responder = (
  request: Request,
  name: string,
  env: unknown,
  target?: string,
  split?: EndpointTarget,
  /** The host it was sent to, when a host picked the name (the journal shows it). */
  host?: string,
) => Response | Promise<Response>;

/**
 * A Fetch runtime sends the status line as soon as it has the `Response`: the
 * answer's first byte; a whole answer's body goes with it (as far as this side
 * can tell: the runtime reports no end), a stream's or a relay's later.
 */
function handedOver(recorded: RecordedRequest, response: Response): Response {
  const now = performance.now();
  recorded.firstByteAt = now;
  if (sentWhole(recorded)) recorded.doneAt = now;
  return response;
}

export function endpointResponder(ctx: Pick<AppContext, 'handler' | 'options' | 'sockets' | 'streams'>): Responder {
  const { handler, options, sockets } = ctx;
  // Hono's env (Bun's server) of an upgrade request, by the request: what the sink's To is.
  const upgrading = new WeakMap<Request, unknown>();
  const sink = createFetchSink(ctx.streams, (to, answer) => {
    const upgrade = sockets.fetchUpgrade;
    const request = to as Request;
    if (upgrade === undefined || !upgrading.has(request) || answer.session === undefined) return undefined;
    return upgrade(request, upgrading.get(request), { ...answer, session: answer.session }, sockets);
  });
  const answer = (
    request: Request,
    env: unknown,
    recorded: RecordedRequest,
    split: EndpointTarget | undefined,
  ): Response | Promise<Response> => {
    // The raw list holds the Headers' own (lower-case) names: the same answer as `request.headers.has('upgrade')`.
    if (sockets.fetchUpgrade !== undefined && rawHeader(recorded.rawHeaders, 'upgrade') !== undefined) {
      upgrading.set(request, env);
    }
    let wholeBody: Uint8Array | undefined;
    if (recorded.body.byteLength > JOURNAL_BODY_LIMIT) {
      if (!recorded.bodyTruncated) wholeBody = recorded.body;
      recorded.body = recorded.body.slice(0, JOURNAL_BODY_LIMIT);
      recorded.bodyTruncated = true;
    }
    // The request is the sink's handle: its signal is made only by an answer that waits for it.
    const sent = sendAnswer(
      handler.handle(recorded, wholeBody, () => request.signal, split),
      sink,
      request,
    );
    return sent instanceof Promise
      ? sent.then((response) => handedOver(recorded, response))
      : handedOver(recorded, sent);
  };
  /** `recorded` with what the client sent: its host where a mapping took it, its target where the app moved it, TLS. */
  const clientSide = (recorded: RecordedRequest, request: Request, host: string | undefined): RecordedRequest => {
    if (host !== undefined) recorded.host = host;
    // The URL read once: a runtime may build it anew on each read (Bun).
    const url = request.url;
    const sent = sentTarget(request, url);
    if (sent !== recorded.target) recorded.sent = sent;
    if (url.startsWith('https:')) recorded.secure = true;
    return recorded;
  };
  return (request, name, env, target, split, host) => {
    // The rest of a long body is read and dropped up to the body limit, so the connection stays usable;
    // where the answer needs it (see readsWholeBody) it is kept (the journal keeps its first bytes).
    const recorded = captureRequest(
      request,
      JOURNAL_BODY_LIMIT,
      options.maxBodyBytes,
      () => handler.readsWholeBody(name),
      target,
    );
    if (recorded instanceof Promise) {
      return recorded.then((later) => answer(request, env, clientSide(later, request, host), split));
    }
    return answer(request, env, clientSide(recorded, request, host), split);
  };
}

/**
 * A request whose Host a mapping names reaches that endpoint only, whatever its
 * path (never /api or the page): registered before the Host check and every route.
 * The front door found its target (`mappedHost`: namespace-dispatch.ts, front.ts).
 */
export function registerMappedHosts(
  app: Hono,
  ctx: AppContext,
  mappedHost: (request: Request) => HostTarget | undefined,
): void {
  const respond = endpointResponder(ctx);
  app.use('*', async (c, next) => {
    const mapped = mappedHost(c.req.raw);
    const name = mapped === undefined ? undefined : splitEndpointTarget(mapped.target)?.name;
    if (mapped !== undefined && name !== undefined) {
      return respond(c.req.raw, name, c.env, mapped.target, undefined, mapped.host);
    }
    await next();
  });
}

export function registerReadRoutes(app: Hono, ctx: AppContext): void {
  const respond = endpointResponder(ctx);
  // Other methods and paths under /endpoint/ reach the app's 404/405 answers, which say the same.
  // The bare URL and every path below it reach the endpoint (its subpath).
  app.on([...READ_METHODS, 'OPTIONS'], ['/endpoint/:name', '/endpoint/:name/*'], (c) =>
    respond(c.req.raw, c.req.param('name'), c.env),
  );

  const params = { name: 'Endpoint name.' };
  const below = { ...params, subpath: 'The rest of the path (may hold several segments): matched against the routes.' };
  for (const method of READ_METHODS) {
    const body = method === 'HEAD' ? undefined : ctx.schemas.record.shape.data;
    // A check with enforce refuses a badly signed request (HEAD: without the body).
    const refusedSignature =
      method === 'HEAD'
        ? { 401: { description: describeErrors(['SIGNATURE_INVALID']) } }
        : errorResponses(ctx.schemas, 'SIGNATURE_INVALID');
    ctx.describe?.push({
      method: method.toLowerCase() as Lowercase<typeof method>,
      path: '/endpoint/{name}',
      summary: `Answer with a matching queued answer (see /api/endpoints/{name}/queue), else the first matching route (see /api/endpoints/{name}/routes), else the stored data, status and delay (${method}; the request is recorded).`,
      tag: 'read',
      params,
      // The status is the stored statusCode, any of 200-599; HEAD answers without a body.
      responses: {
        ...(Object.fromEntries(
          (['2XX', '3XX', '4XX', '5XX'] as const).map((range) => [
            range,
            {
              description: `The stored data, when the stored statusCode is ${range}${method === 'HEAD' ? ' (headers only)' : ''}.`,
              schema: body,
            },
          ]),
        ) as RouteDoc['responses']),
        ...refusedSignature,
        404: {
          description: `${describeErrors(['NOT_FOUND'])} Or the stored data of one whose statusCode is 404${method === 'HEAD' ? ' (headers only)' : ''}.`,
          schema: body,
        },
      },
    });
    ctx.describe?.push({
      method: method.toLowerCase() as Lowercase<typeof method>,
      path: '/endpoint/{name}/{subpath}',
      summary: `Answer a path below the endpoint: a matching queued answer, else the first route whose match holds (its status, headers and body) (${method}; the request is recorded with its subpath, params and answeredBy).`,
      tag: 'read',
      params: below,
      responses: {
        ...(Object.fromEntries(
          (['2XX', '3XX', '4XX', '5XX'] as const).map((range) => [
            range,
            { description: `The route's answer, when its statusCode is ${range}.` },
          ]),
        ) as RouteDoc['responses']),
        ...refusedSignature,
        404: {
          description: `${describeErrors(['NOT_FOUND', 'NO_ROUTE_MATCHED', 'ITEM_NOT_FOUND'])} Or a route answering 404 with its own body.`,
          schema: ctx.schemas.errorBody,
          errors: ['NOT_FOUND', 'NO_ROUTE_MATCHED', 'ITEM_NOT_FOUND'],
        },
        // A proxy route: its upstream's answer, or one of these; a route that enforces its schemas: 400;
        // a route kept by an earlier version with a header HTTP cannot carry, or a template that
        // would render past the body limit: 500; a resource route's refusals (docs/state.md).
        ...errorResponses(
          ctx.schemas,
          'REQUEST_INVALID',
          'INVALID_QUERY',
          'INVALID_JSON',
          'INVALID_UTF8',
          'INVALID_ITEM',
          'METHOD_NOT_ALLOWED',
          'ID_TAKEN',
          'COLLECTION_TOO_LARGE',
          'ANSWER_TOO_LARGE',
          'PROXY_PATH_OUTSIDE_BASE',
          'PROXY_HOST_NOT_ALLOWED',
          'UPSTREAM_FAILED',
          'UPSTREAM_TIMEOUT',
          'ANSWER_NOT_SENDABLE',
          'TEMPLATE_TOO_LARGE',
          // A route whose rate limit is spent, in the ietf style (docs/rate-limits.md; the other styles answer with their API's body).
          'RATE_LIMITED',
          // A timed setState (docs/clock.md) while the most timed moves wait already.
          'TOO_MANY_TIMERS',
          // A WebSocket route (docs/websocket.md): a plain request; an upgrade past the limit; a listener that cannot upgrade.
          'WEBSOCKET_REQUIRED',
          'TOO_MANY_SOCKETS',
          'WEBSOCKET_UNSUPPORTED',
          // Schema mode (docs/graphql.md): a schema stored by an older version over today's bounds; its thread.
          'GRAPHQL_SCHEMA_TOO_COMPLEX',
          'GRAPHQL_WORKER_FAILED',
          'TOO_MANY_GRAPHQL_REQUESTS',
          // Through the forward proxy (an absolute-form target), a host that is mapped to no endpoint.
          'HOST_NOT_MOCKED',
          // The endpoint's chaos (docs/chaos.md): an injected error.
          'CHAOS_INTERNAL_ERROR',
          'CHAOS_UNAVAILABLE',
          'CHAOS_RATE_LIMITED',
          // A twin's change that waited past its bound for the twin's turn on Redis replicas (docs/twins.md).
          'TURN_BUSY',
        ),
      },
    });
  }
  for (const path of ['/endpoint/{name}', '/endpoint/{name}/{subpath}']) {
    ctx.describe?.push({
      method: 'options',
      path,
      summary: 'CORS preflight: every origin, method and header is allowed.',
      tag: 'read',
      params: path === '/endpoint/{name}' ? params : below,
      responses: { 204: { description: 'Preflight answer.' } },
    });
  }
}
