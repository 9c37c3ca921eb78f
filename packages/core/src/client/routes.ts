/**
 * The route methods of the client: the routes of a name, in the order they are tried.
 *
 * @module
 */
import type { Route, RouteInput } from '../api/route.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function routeMethods({ call, json }: Transport) {
  const routesOf = async (name: string): Promise<Route[]> =>
    (await json<{ routes: Route[] }>('GET', `/api/endpoints/${seg(name)}/routes`)).routes;
  return {
    /**
     * The routes of `name`, in the order they are tried (`[]` when it has none).
     * Each answer's `data` is parsed: use a {@link JsonText} when sending numbers
     * a JavaScript number cannot hold.
     */
    getRoutes: routesOf,

    /** @deprecated Use {@link getRoutes}: the client reads every per-name setting with `get…`, puts it with `set…` and removes it with `clear…` (docs/api.md). */
    routes: routesOf,

    /**
     * Replaces every route of `name` at once (an empty list clears them) and
     * resolves with the routes as stored, ids generated where absent. A bad route
     * is refused (400, `error.details.index` names it) and nothing changes.
     * @example
     * await client.setRoutes('github', [
     *   { match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { id: 1, name: 'app' } } },
     * ])
     */
    async setRoutes(name: string, routes: RouteInput[]): Promise<Route[]> {
      return (await json<{ routes: Route[] }>('PUT', `/api/endpoints/${seg(name)}/routes`, { routes })).routes;
    },

    /** Appends routes after those `name` has (all or none) and resolves with every route now. */
    async addRoutes(name: string, routes: RouteInput[]): Promise<Route[]> {
      return (await json<{ routes: Route[] }>('POST', `/api/endpoints/${seg(name)}/routes`, { routes })).routes;
    },

    /** Removes every route of `name` (its record, if any, stays). */
    async clearRoutes(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/routes`);
    },

    /** Removes the route `id` of `name`; throws `NOT_FOUND` when there is none. */
    async removeRoute(name: string, id: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/routes/${seg(id)}`);
    },
  };
}
