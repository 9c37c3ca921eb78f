/**
 * The Fetch side of namespaces: a request that names one (`/ns/{ns}/…`, then
 * `mockpoint-session`, then its `baggage` entry: api/session.ts) is handed to
 * that namespace's app whole, below `/ns/{ns}` when it came by the path. The
 * Node listener does the same before any Fetch object exists
 * (adapter/node/listener.ts).
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { NAMESPACE_PREFIX, sessionOfHeaders } from '../api/session.js';
import { MockpointError } from '../registry/errors.js';
import type { MockpointApp } from './create-app.js';
import { chooseNamespace } from './namespace-choice.js';
import type { NamespaceTable } from './namespace-table.js';

/**
 * The path of `url` as sent (still percent-encoded: `c.req.path` is decoded, and
 * a namespace's app decodes what it is given once more), as the Node listener reads it.
 */
function sentPath(url: string): string {
  const start = url.indexOf('/', url.indexOf(':') + 3);
  if (start === -1) return '/';
  let end = start;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  return url.slice(start, end);
}

/**
 * Hands a request that names a namespace (namespace-choice.ts) to that
 * namespace's app; passes every other. `mappedHost` tells a request to a host
 * mapped to an endpoint, whose paths (`/ns/…` too) are that endpoint's: its
 * namespace comes by header only.
 */
export function namespaceDispatch(
  table: NamespaceTable,
  mappedHost: (request: Request) => boolean | Promise<boolean> = () => false,
): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    const byPath = c.req.path.startsWith(NAMESPACE_PREFIX) && !(await mappedHost(request));
    const target = byPath ? sentPath(request.url) : c.req.path;
    const chosen = chooseNamespace(target, byPath, c.req.method, request.headers, sessionOfHeaders);
    if (chosen === undefined) return next();
    if (chosen.refused !== undefined) return chosen.refused.toResponse();
    const app = await table.app(chosen.name);
    if (chosen.rest === undefined) return heldUntilAnswered(app, chosen.name, app.fetch(request, c.env));
    if (chosen.page !== undefined) return c.redirect(chosen.page + new URL(request.url).search, 308);
    const url = new URL(request.url);
    url.pathname = chosen.rest;
    return heldUntilAnswered(app, chosen.name, app.fetch(new Request(url, request), c.env));
  };
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
