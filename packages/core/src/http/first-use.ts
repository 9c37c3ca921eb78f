/**
 * An app's API registered on its first use rather than when it is made. A daemon serves stored
 * endpoints without the API (`/endpoint/…` is answered by `fetchEndpoint`, never by the router),
 * and every namespace has an app of its own: the API's middleware, routes and their documents
 * (about 1 MB of heap, the largest part of `createApp`) are made only once the app is asked
 * something or given a route. The first use is a request (`fetch`, and `request`, which calls
 * it), a route or middleware added (every adding method of Hono's), or its routes read
 * (`routes`): the API's routes are in place first, in their order, before any of these.
 *
 * @module
 */
import type { Hono } from 'hono';

/** Hono's methods that add a route or middleware, or make an app from this one's routes. */
const ADDING = ['get', 'post', 'put', 'delete', 'patch', 'options', 'all', 'on', 'use', 'route', 'mount', 'basePath'];

type Method = (...args: unknown[]) => unknown;

/** Answers a request without the API, or `undefined` when the API must (a namespace's: namespace-early.ts). */
export type EarlyAnswer = (
  request: Request,
  env: unknown,
  full: (request: Request) => Response | Promise<Response>,
) => Response | Promise<Response> | undefined;

/**
 * Calls `register` (once) on `app`'s first use, before that use goes on. A request that `early`
 * answers before then is not a use.
 * @example registerOnFirstUse(app, () => registerRoutes(app, ctx, namespaces, namespace))
 */
export function registerOnFirstUse(app: Hono, register: () => void, early?: EarlyAnswer): void {
  let registered = false;
  const ensure = (): void => {
    if (registered) return;
    registered = true;
    register();
  };
  const methods = app as unknown as Record<string, Method>;
  for (const name of ADDING) {
    const add = methods[name] as Method;
    methods[name] = (...args) => {
      ensure();
      return add.apply(app, args);
    };
  }
  const fetch = app.fetch;
  // The request named (the function's length 1): Deno.serve gives a handler of length 0 no request.
  app.fetch = (request, ...rest) => {
    if (!registered && early !== undefined) {
      const answer = early(request, rest[0], (again) => {
        ensure();
        return fetch(again, ...rest);
      });
      if (answer !== undefined) return answer;
    }
    ensure();
    return fetch(request, ...rest);
  };
  let routes = app.routes;
  Object.defineProperty(app, 'routes', {
    configurable: true,
    enumerable: true,
    get: () => {
      ensure();
      return routes;
    },
    set: (value: typeof routes) => {
      routes = value;
    },
  });
}
