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
import { isResetResponse } from '../../engine/fetch-sink.js';
import { resetConnection } from './sink.js';

/** What `@hono/node-server` takes for an answer its fetch callback wrote itself (its `RESPONSE_ALREADY_SENT`). */
const ALREADY_SENT_HEADERS = { 'x-hono-already-sent': 'true' };

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
  let listener: FetchFallback | undefined;
  // A reset (a gRPC call's chaos or route `reset`) is done here, on the socket: Node's Fetch layer
  // would answer the Fetch stand-in (a body that breaks before its first byte) with a 500.
  const resetting = (response: Response, outgoing: ServerResponse): Response => {
    if (!isResetResponse(response)) return response;
    resetConnection(outgoing);
    return new Response(null, { headers: ALREADY_SENT_HEADERS });
  };
  const answer = (request: Request, env: { outgoing: ServerResponse }) => {
    const response = fetch(request);
    return response instanceof Promise
      ? response.then((done) => resetting(done, env.outgoing))
      : resetting(response, env.outgoing);
  };
  return async (req, res) => {
    if (listener === undefined) {
      const { getRequestListener } = nodeServer ?? (await loadNodeServer());
      listener ??= getRequestListener(answer as Parameters<typeof getRequestListener>[0], { overrideGlobalObjects });
    }
    await listener(req, res);
  };
}

type NodeServer = typeof import('@hono/node-server');

/** `@hono/node-server`, once loaded: a namespace's listener (one per test session) makes its own without an import. */
let nodeServer: NodeServer | undefined;
let loadingNodeServer: Promise<NodeServer> | undefined;

function loadNodeServer(): Promise<NodeServer> {
  loadingNodeServer ??= import('@hono/node-server').then((loaded) => {
    nodeServer = loaded;
    return loaded;
  });
  return loadingNodeServer;
}
