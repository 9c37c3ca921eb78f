/**
 * The listener for what the native path does not answer (the admin API, the
 * page): the Hono app through `@hono/node-server`, loaded on the first such
 * request. Importing `@hono/node-server` reads the global `Request`/`Response`,
 * which makes Node load its bundled undici and compile undici's HTTP parser
 * (WebAssembly): about 7 MB of a daemon's RSS that a start serving only
 * `/endpoint/` never needs.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers one request with a Fetch-API app; resolves once the answer is written. */
type FetchFallback = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * A listener that answers with `fetch` (a Hono app's), made by `@hono/node-server`'s
 * `getRequestListener` on the first request. With `overrideGlobalObjects`, the
 * global `Request`/`Response` are replaced with its faster ones at that moment.
 */
export function lazyFetchListener(
  fetch: (request: Request) => Response | Promise<Response>,
  overrideGlobalObjects: boolean,
): FetchFallback {
  let listener: Promise<FetchFallback> | undefined;
  return async (req, res) => {
    listener ??= import('@hono/node-server').then(({ getRequestListener }) =>
      getRequestListener(fetch, { overrideGlobalObjects }),
    );
    await (await listener)(req, res);
  };
}
