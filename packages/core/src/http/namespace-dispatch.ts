/**
 * The Fetch app's front door (front.ts), its first middleware: a request that
 * names a namespace (`/ns/{ns}/…`, then `mockpoint-session`, then its `baggage`
 * entry: api/session.ts) is handed to that namespace's app whole, below
 * `/ns/{ns}` when it came by the path; one whose host is mapped to an endpoint
 * is that endpoint's, answered after the gRPC calls (`mappedHost` gives it to
 * routes/read.ts's `registerMappedHosts`). The Node listener asks the same
 * front door before any Fetch object exists (adapter/node/listener.ts).
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { MockpointError } from '../registry/errors.js';
import type { AppContext } from './context.js';
import type { MockpointApp } from './create-app.js';
import { FETCH_HEAD, front, type HostTarget, type Routing } from './front.js';
import type { NamespaceTable } from './namespace-table.js';
import { movedRequest } from './sent-target.js';

/** The Fetch front door of one app: its middleware, and the mapped host's target it found for a request. */
export interface FetchFrontDoor {
  readonly door: MiddlewareHandler;
  /** The endpoint target of a request whose host is mapped (as the door found it), else `undefined`. */
  readonly mappedHost: (request: Request) => HostTarget | undefined;
}

/**
 * The front door of an app with `ctx`'s hosts and, for the default namespace's
 * app of a daemon with namespaces, `table`'s namespaces.
 */
export function fetchFrontDoor(
  ctx: Pick<AppContext, 'hosts' | 'storedHosts' | 'options'>,
  table: NamespaceTable | undefined,
): FetchFrontDoor {
  const routing: Routing = {
    hosts: ctx.hosts,
    allowedHosts: ctx.options.allowedHosts,
    namespaces: table !== undefined,
  };
  const mapped = new WeakMap<Request, HostTarget>();
  const door: MiddlewareHandler = async (c, next) => {
    // The first requests of a Fetch runtime may come before the stored mappings are read.
    if (!ctx.storedHosts.loaded) await ctx.storedHosts.ready.catch(() => undefined);
    const request = c.req.raw;
    const target = front(request, FETCH_HEAD, routing);
    // A Fetch request's target is a path (never absolute-form): nothing is refused or passed through here.
    if (typeof target !== 'object') return next();
    if (target.kind === 'endpoint') {
      mapped.set(request, target);
      return next();
    }
    if (target.kind !== 'namespace' || table === undefined) return next();
    if (target.refused !== undefined) return target.refused.toResponse();
    const app = await table.app(target.name);
    if (target.rest === undefined) return heldUntilAnswered(app, target.name, app.fetch(request, c.env));
    // The page's address keeps the query (front.ts reads the target with it).
    if (target.page !== undefined) return c.redirect(target.page, 308);
    const url = new URL(request.url);
    const query = target.rest.indexOf('?');
    url.pathname = query === -1 ? target.rest : target.rest.slice(0, query);
    return heldUntilAnswered(app, target.name, app.fetch(movedRequest(request, url), c.env));
  };
  return { door, mappedHost: (request) => mapped.get(request) };
}

/**
 * `answer`, held by the namespace's app until it is ready: the namespace's delete
 * answers it `404 NAMESPACE_NOT_FOUND` at once instead (a `delay`, a chaos
 * `timeout`). A body already streaming is ended by the app's own close (its streams).
 */
export async function heldUntilAnswered(
  app: MockpointApp,
  name: string,
  answer: Response | Promise<Response>,
): Promise<Response> {
  if (!(answer instanceof Promise)) return answer;
  let release = () => {};
  const ended = new Promise<Response>((resolve) => {
    release = app.mockpoint.held.add(() =>
      resolve(
        new MockpointError(
          'NAMESPACE_NOT_FOUND',
          `namespace "${name}" was deleted while this request was held; make it again with POST /api/namespaces`,
        ).toResponse(),
      ),
    );
  });
  try {
    return await Promise.race([answer, ended]);
  } finally {
    release();
  }
}
