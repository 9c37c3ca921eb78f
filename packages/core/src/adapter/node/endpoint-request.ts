/**
 * What the Node listener and the upgrade listener both read from a request the
 * same way: its target under `/endpoint/`, and a request without a body as the
 * journal and the pipeline take it.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { ENDPOINT_PREFIX } from '../../answer/endpoint-handler.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';

const EMPTY = new Uint8Array(0);

/**
 * The target to answer natively: `url` itself when it is under `/endpoint/`, the
 * path and query of an absolute-form target (`GET http://host/endpoint/a`) under
 * it, otherwise `undefined`.
 */
export function endpointTarget(url: string): string | undefined {
  if (url.startsWith(ENDPOINT_PREFIX)) return url;
  if (url.charCodeAt(0) === 47 /* / */) return undefined;
  const scheme = url.indexOf('://');
  const start = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  return start !== -1 && url.startsWith(ENDPOINT_PREFIX, start) ? url.slice(start) : undefined;
}

/** A request that brought no body, at `target`. */
export function bodilessRequest(req: IncomingMessage, target: string): RecordedRequest {
  return { method: req.method ?? 'GET', target, rawHeaders: req.rawHeaders, body: EMPTY, bodyTruncated: false };
}
