/**
 * The Node.js adapter: a `node:http` request listener for a mockpoint app, with a
 * fast path for the hot read. Node only: import it from `@mockpoint/core/node`.
 *
 * @module
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { MockpointApp } from '../create-app.js';
import { BODILESS_STATUS, readHeaders } from '../read-response.js';
import { NAME_PATTERN } from '../schemas.js';

const PREFIX = '/endpoint/';

/**
 * True when the raw headers announce a body (Content-Length other than 0, or a
 * Transfer-Encoding). Scans `rawHeaders` so Node never builds `req.headers`.
 */
function declaresBody(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      if (rawHeaders[i + 1] !== '0') return true;
    } else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') {
      return true;
    }
  }
  return false;
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
      const entry = !declaresBody(req.rawHeaders) && NAME_PATTERN.test(name) ? endpoints.cache.get(name) : undefined;
      if (entry !== undefined && entry.delay === 0) {
        // Raw parts only (no copies, no parsing): the journal formats them when read.
        journal.record(name, {
          method: 'GET',
          target: url,
          rawHeaders: req.rawHeaders,
          body: '',
          bodyTruncated: false,
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
