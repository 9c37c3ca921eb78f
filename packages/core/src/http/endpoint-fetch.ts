/**
 * The app's `fetchEndpoint`: a request to `/endpoint/{name}…` answered by
 * the endpoint handler, or, when its headers name a namespace
 * (namespace-choice.ts), by that namespace's app (Bun's fast path comes here).
 *
 * @module
 */
import { sessionOfHeaders } from '../api/session.js';
import type { AppContext } from './context.js';
import { chooseNamespace } from './namespace-choice.js';
import { heldUntilAnswered } from './namespace-dispatch.js';
import type { NamespaceTable } from './namespace-table.js';
import { endpointResponder, type Responder } from './routes/read.js';

/** How the app answers an error thrown while answering `request`. */
export type ErrorResponder = (error: unknown, request: Request) => Response | Promise<Response>;

/** The responder of `ctx`'s endpoints, handing a request whose headers name a namespace to its app. */
export function endpointFetch(
  ctx: AppContext,
  namespaces: NamespaceTable | undefined,
  errorResponse: ErrorResponder,
): Responder {
  const respondEndpoint = endpointResponder(ctx);
  return (request, name, env, target, split, host) => {
    // A request that names a namespace by its headers is that namespace's (Bun's fast path comes here).
    const chosen =
      namespaces === undefined
        ? undefined
        : chooseNamespace('/', false, request.method, request.headers, sessionOfHeaders);
    if (chosen !== undefined && namespaces !== undefined) {
      if (chosen.refused !== undefined) return chosen.refused.toResponse();
      const ns = chosen.name;
      const made = (async () => namespaces.app(ns))();
      return made.then(
        // Held work of the namespace's (Bun's fast path): its delete answers it, and it is use.
        (nsApp) => heldUntilAnswered(nsApp, ns, nsApp.mockpoint.fetchEndpoint(request, name, env, target, split, host)),
        (error: unknown) => errorResponse(error, request),
      );
    }
    try {
      const response = respondEndpoint(request, name, env, target, split, host);
      return response instanceof Promise ? response.catch((error: unknown) => errorResponse(error, request)) : response;
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}
