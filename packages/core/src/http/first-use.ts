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
 * answers before then is not a use. Its routes are read through a proxy of the array from then on
 * (`Array.isArray` holds; `app.routes === app.routes`).
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
  // Read through a proxy over the array (every read of it, Hono's `route()` of another app too, and
  // a push) rather than an accessor in its place: redefining the property as an accessor turns the
  // app into a dictionary of V8's (1.6 KB an app, one per namespace, and slower reads of `fetch`).
  app.routes = new Proxy(app.routes, {
    get(routes, key) {
      ensure();
      return Reflect.get(routes, key, routes);
    },
    has(routes, key) {
      ensure();
      return Reflect.has(routes, key);
    },
    ownKeys(routes) {
      ensure();
      return Reflect.ownKeys(routes);
    },
    getOwnPropertyDescriptor(routes, key) {
      ensure();
      return Reflect.getOwnPropertyDescriptor(routes, key);
    },
  });
}
