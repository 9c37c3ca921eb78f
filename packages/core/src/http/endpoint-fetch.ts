/**
 * A runtime that hands over Fetch requests (Bun) answers them here: the front
 * door (front.ts) says where each goes, and a request to an endpoint is
 * answered by the app's `fetchEndpoint` (the endpoint handler, without the
 * app's routing and middleware) rather than by the app.
 *
 * @module
 */
import { splitEndpointTarget } from '../api/endpoint-target.js';
import { READ_METHODS } from '../engine/endpoint-handler.js';
import type { AppContext } from './context.js';
import type { MockpointApp } from './create-app.js';
import { FETCH_HEAD, front, type Routing } from './front.js';
import { heldUntilAnswered } from './namespace-dispatch.js';
import { endpointResponder, type Responder } from './routes/read.js';

/** A runtime's fetch: a request and the runtime's `env` (Bun's server: for an upgrade). */
export type RuntimeFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** The methods `/endpoint/{name}` answers (OPTIONS: the CORS preflight); others get the app's 404/405. */
const ENDPOINT_METHODS = new Set<string>([...READ_METHODS, 'OPTIONS']);

/** How the app answers an error thrown while answering `request`. */
export type ErrorResponder = (error: unknown, request: Request) => Response | Promise<Response>;

/** The responder of `ctx`'s endpoints, whose throws and rejections `errorResponse` answers. */
export function endpointFetch(ctx: AppContext, errorResponse: ErrorResponder): Responder {
  const respondEndpoint = endpointResponder(ctx);
  return (request, name, env, target, split, host) => {
    try {
      const response = respondEndpoint(request, name, env, target, split, host);
      return response instanceof Promise ? response.catch((error: unknown) => errorResponse(error, request)) : response;
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}

/**
 * `app`'s answers to the Fetch requests of a runtime (Bun), where the front door sends each
 * request. One to an endpoint by its own path (`/endpoint/…`) goes straight to
 * the endpoint's answer (`fetchEndpoint`: what the app's route does, without
 * its routing and middleware, none of which applies there), as does every
 * request with `endpoint` (the listener's one, its whole path the subpath). One
 * whose headers name a namespace is answered there the same way, by the
 * namespace's app and its own hosts. Everything else goes to the app: a mapped
 * host's (its gRPC calls first, as on every Fetch runtime), a namespace's by
 * path (the app takes `/ns/{ns}` off), the API, the page.
 */
export function fetchFront(app: MockpointApp, endpoint?: string): RuntimeFetch {
  const { hosts, fetchEndpoint, namespaces, options } = app.mockpoint;
  const routing: Routing = {
    hosts,
    allowedHosts: options.allowedHosts,
    endpoint,
    namespaces: namespaces !== undefined,
  };
  // Each namespace's own, made on its first request here.
  const inNamespace = new WeakMap<MockpointApp, RuntimeFetch>();
  const servedIn = (nsApp: MockpointApp): RuntimeFetch => {
    let made = inNamespace.get(nsApp);
    if (made === undefined) {
      made = fetchFront(nsApp, endpoint);
      inNamespace.set(nsApp, made);
    }
    return made;
  };
  return (request, env) => {
    const target = front(request, FETCH_HEAD, routing);
    if (typeof target === 'string') {
      if (!ENDPOINT_METHODS.has(request.method)) return app.fetch(request, env);
      // After `http://` and the host: the path and query.
      const url = request.url;
      const routed = url.slice(url.indexOf('/', 8));
      const split = splitEndpointTarget(routed);
      if (split === undefined) return app.fetch(request, env);
      // The target the journal records (what captureRequest would take from the URL), and the split
      // passed on so that the handler does not split it again: only when the two agree (Bun keeps a
      // fragment in the URL, which the journal's target leaves out).
      if (target !== routed) return fetchEndpoint(request, split.name, env, target);
      return fetchEndpoint(request, split.name, env, target, split);
    }
    if (target?.kind === 'endpoint' && endpoint !== undefined) {
      return fetchEndpoint(request, endpoint, env, target.target);
    }
    if (target?.kind !== 'namespace' || target.rest !== undefined || namespaces === undefined) {
      return app.fetch(request, env);
    }
    if (target.refused !== undefined) return target.refused.toResponse();
    const name = target.name;
    // A namespace that cannot be made (none of that name, a store error) is answered as the app answers it.
    return (async () => namespaces.app(name))().then(
      (nsApp) => heldUntilAnswered(nsApp, name, servedIn(nsApp)(request, env)),
      () => app.fetch(request, env),
    );
  };
}
