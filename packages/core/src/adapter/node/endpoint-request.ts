/**
 * What the Node listener and the upgrade listener both read from a request the
 * same way: its head, as the front door reads it (http/front.ts), and a request
 * without a body as the journal and the pipeline take it.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { sessionOfRawHeaders } from '../../api/session.js';
import { rawHeader } from '../../codec/raw-headers.js';
import type { HeadReader } from '../../http/front.js';
import { type RecordedRequest, recordedRequest } from '../../journal/journal-entry.js';

const EMPTY = new Uint8Array(0);

/** A request that brought no body, at `target`. */
export function bodilessRequest(req: IncomingMessage, target: string): RecordedRequest {
  return clientSide(req, recordedRequest(req.method ?? 'GET', target, req.rawHeaders, EMPTY, false));
}

/** The target each request's client sent, where a namespace's listener took `/ns/{ns}` off `req.url`. */
const SENT = new WeakMap<IncomingMessage, string>();

/** Moves `req` to `target` (`req.url`), knowing the target its client sent. */
export function moveTarget(req: IncomingMessage, target: string): void {
  if (!SENT.has(req)) SENT.set(req, req.url ?? '/');
  req.url = target;
}

/** `recorded` with what the client sent it as: its target where the adapter moved it, whether over TLS. */
export function clientSide(req: IncomingMessage, recorded: RecordedRequest): RecordedRequest {
  const url = SENT.get(req) ?? req.url ?? '/';
  if (url !== recorded.target) recorded.sent = url;
  if ((req.socket as { encrypted?: boolean } | null)?.encrypted === true) recorded.secure = true;
  return recorded;
}

/**
 * A Node request's head, from its raw headers (so Node never builds `req.headers`):
 * its target as sent (`req.url`, which a namespace's path prefix is taken off),
 * the Host header's first value (HTTP/2: `:authority`).
 */
export const NODE_HEAD: HeadReader<IncomingMessage> = {
  method: (req) => req.method ?? 'GET',
  target: (req) => req.url ?? '/',
  host: (req) => rawHeader(req.rawHeaders, 'host') ?? rawHeader(req.rawHeaders, ':authority'),
  session: (req) => sessionOfRawHeaders(req.rawHeaders),
  localPort: (req) => req.socket?.localPort,
};
