/**
 * The Node.js adapter: a `node:http` request listener for a mockpoint app, with a
 * fast path for the hot read. Node only: import it from `@mockpoint/core/node`.
 *
 * @module
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { MockpointApp } from '../create-app.js';
import { parseQuery } from '../journal.js';
import { BODILESS_STATUS, readHeaders } from '../read-response.js';
import { NAME_PATTERN } from '../schemas.js';

const PREFIX = '/endpoint/';

function flatHeaders(req: IncomingMessage): Record<string, string> {
  // Collected in a null-prototype object so a header named `__proto__` is kept
  // as an ordinary key, as the Hono route's journal entries do.
  const headers: Record<string, string> = Object.create(null);
  const raw = req.headers;
  for (const key in raw) {
    const value = raw[key];
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { ...headers };
}

/** Options for {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * Let `@hono/node-server` replace the global `Request`/`Response` with its faster
   * ones. Right for a daemon; a library running inside someone's tests passes `false`.
   * @default true
   */
  overrideGlobalObjects?: boolean;
}

/**
 * A `node:http` listener for `app`. A bodiless GET of `/endpoint/{name}` whose
 * answer is cached and has no delay is served straight from the cache: the same
 * status, headers, bytes and journal entry as the Hono route, without building
 * Fetch-API objects. Everything else goes through the Hono app.
 * @example http.createServer(createNodeListener(createApp())).listen(0)
 */
export function createNodeListener(app: MockpointApp, options: NodeListenerOptions = {}): RequestListener {
  const fallback = getRequestListener(app.fetch, { overrideGlobalObjects: options.overrideGlobalObjects ?? true });
  const { endpoints, journal } = app.mockpoint;

  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if (req.method === 'GET' && url.startsWith(PREFIX)) {
      const q = url.indexOf('?');
      const name = q === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, q);
      const headers = req.headers;
      const bodiless = headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0';
      const entry = bodiless && NAME_PATTERN.test(name) ? endpoints.cache.get(name) : undefined;
      if (entry !== undefined && entry.delay === 0) {
        journal.record(name, {
          method: 'GET',
          path: q === -1 ? url : url.slice(0, q),
          query: q === -1 ? {} : parseQuery(new URLSearchParams(url.slice(q + 1))),
          headers: flatHeaders(req),
          body: '',
          bodyTruncated: false,
          receivedAt: new Date().toISOString(),
          statusCode: entry.statusCode,
        });
        res.writeHead(entry.statusCode, readHeaders(entry));
        res.end(BODILESS_STATUS.has(entry.statusCode) ? undefined : entry.body);
        return;
      }
    }
    void fallback(req, res);
  };
}
