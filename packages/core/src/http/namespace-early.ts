/**
 * What a namespace's app answers before its API is registered (first-use.ts): `PUT
 * /api/endpoints/{name}`, the request by which a test session adds its endpoint, and the
 * endpoints' answers (`/endpoint/…` but `POST`, which may be a gRPC call's). Registering a
 * namespace's routes (every route module, its middleware, the server's `extend`) was a third of
 * what a session cost the daemon (docs/performance.md); a session that only adds endpoints and
 * reads `/endpoint/…` now never registers them. One small Hono app, made once for every
 * namespace, answers that request with the same middleware as the full API (host and origin
 * guards, the namespace's token, the answer's encoding) and the same handler (`putEndpoint`),
 * which reads the namespace's parts from the request (`partsOf`) instead of capturing them. Any
 * other request, and this one where the namespace maps hosts (its paths may be an endpoint's),
 * registers the API and is answered by it, as before.
 *
 * @module
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { ApiEncoders } from './api-encoding.js';
import { useApiGuards } from './api-guards.js';
import type { AppContext, ResolvedAppOptions } from './context.js';
import type { ErrorResponder } from './endpoint-fetch.js';
import { routeGrpcCalls } from './routes/grpc-calls.js';
import { putEndpoint } from './routes/manage.js';
import type { Responder } from './routes/read.js';

/** One namespace's side of an early answer. */
export interface EarlyParts {
  readonly ctx: AppContext;
  /** The namespace's token check (auth.ts's `apiAuth`). */
  readonly auth: MiddlewareHandler;
  readonly errorResponse: ErrorResponder;
  /** Answers `/endpoint/{name}…` (routes/read.ts). */
  readonly respond: Responder;
  /** Registers the namespace's API and answers the request with it (a request the early app does not route). */
  readonly full: (request: Request) => Response | Promise<Response>;
}

/** The API path answered early (`PUT`): one endpoint's record. */
const EARLY_PATH = /^\/api\/endpoints\/[^/]+$/;
/** The methods of `/endpoint/…` answered early: a `POST` may be a gRPC call (routes/grpc-calls.ts). */
const EARLY_READS = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Whether `method` and `path` are answered early. */
function early(method: string, path: string): boolean {
  if (path.startsWith('/endpoint/')) return EARLY_READS.includes(method);
  return method === 'PUT' && EARLY_PATH.test(path);
}

/** The path of `url` as sent (before `?`). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return url.slice(start, query === -1 ? undefined : query);
}

/** The early app of a daemon's namespaces, made on its first use. */
export class NamespaceEarly {
  readonly #options: Pick<ResolvedAppOptions, 'allowedHosts' | 'allowedOrigins'> & { apiEncoders?: ApiEncoders };
  /** The namespace's parts of each request under way here. */
  readonly #parts = new WeakMap<Request, EarlyParts>();
  #app: Hono | undefined;

  constructor(options: Pick<ResolvedAppOptions, 'allowedHosts' | 'allowedOrigins'> & { apiEncoders?: ApiEncoders }) {
    this.#options = options;
  }

  /**
   * The answer to `request` in the namespace whose parts `parts` gives, when it is answered
   * early; else `undefined` (the namespace's API answers it).
   */
  answer(request: Request, env: unknown, parts: () => EarlyParts): Response | Promise<Response> | undefined {
    if (!early(request.method, pathOf(request.url))) return undefined;
    const made = parts();
    // A mapped host's requests are its endpoint's, whatever their path (routes/read.ts).
    if (!made.ctx.storedHosts.loaded || made.ctx.hosts.size !== 0) return undefined;
    this.#parts.set(request, made);
    return this.#made().fetch(request, env);
  }

  #partsOf(c: Context): EarlyParts {
    return this.#parts.get(c.req.raw) as EarlyParts;
  }

  #made(): Hono {
    if (this.#app !== undefined) return this.#app;
    const app = new Hono();
    // The full API's guards (create-app.ts), in their order; the token check the namespace's.
    useApiGuards(app, this.#options, (c, next) => this.#partsOf(c).auth(c, next), this.#options.apiEncoders);
    app.put('/api/endpoints/:name', (c) => {
      const { ctx } = this.#partsOf(c);
      routeGrpcCalls(ctx);
      return putEndpoint(ctx, c.req.param('name'), c.req.raw);
    });
    app.on(EARLY_READS, ['/endpoint/:name', '/endpoint/:name/*'], (c) =>
      this.#partsOf(c).respond(c.req.raw, c.req.param('name'), c.env),
    );
    app.onError((error, c) => this.#partsOf(c).errorResponse(error, c.req.raw));
    app.notFound((c) => this.#partsOf(c).full(c.req.raw));
    this.#app = app;
    return app;
  }
}
