/**
 * What the Node listener and the upgrade listener both read from a request the
 * same way: its target under `/endpoint/`, and a request without a body as the
 * journal and the pipeline take it.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import { absoluteTarget, mappedTarget } from '../../api/endpoint-target.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { ENDPOINT_PREFIX } from '../../engine/endpoint-handler.js';
import { type PASS_THROUGH, routeByHost } from '../../hosts/host-routing.js';
import type { HostTable } from '../../hosts/host-table.js';
import { type RecordedRequest, recordedRequest } from '../../journal/journal-entry.js';

const EMPTY = new Uint8Array(0);

/**
 * The target to answer natively: `url` itself when it is under `/endpoint/`, the
 * path and query of an absolute-form target (`GET http://host/endpoint/a`) under
 * it, otherwise `undefined`.
 */
export function endpointTarget(url: string): string | undefined {
  if (url.startsWith(ENDPOINT_PREFIX)) return url;
  if (url.charCodeAt(0) === 47 /* / */) return undefined;
  const start = absoluteTarget(url).path;
  return start !== -1 && url.startsWith(ENDPOINT_PREFIX, start) ? url.slice(start) : undefined;
}

/** A request that brought no body, at `target`. */
export function bodilessRequest(req: IncomingMessage, target: string): RecordedRequest {
  return recordedRequest(req.method ?? 'GET', target, req.rawHeaders, EMPTY, false);
}

/** The Host header's value (HTTP/2: `:authority`), from the raw headers (so Node never builds `req.headers`). */
function hostHeader(rawHeaders: readonly string[]): string | undefined {
  return rawHeader(rawHeaders, 'host') ?? rawHeader(rawHeaders, ':authority');
}

/**
 * The host a request to `target` was sent to when it came by way of a host
 * (a mapping of its Host, an absolute-form target of a proxy client, a request
 * in a `CONNECT` tunnel): the absolute-form's authority, else the Host header.
 * `undefined` for a request to `/endpoint/…` itself (the hot path: one comparison)
 * and to a listener's one endpoint.
 */
export function sentToHost(req: IncomingMessage, target: string, routing: Routing): string | undefined {
  const url = req.url ?? '/';
  if (url === target) return undefined;
  if (url.charCodeAt(0) !== 47 /* / */) return absoluteTarget(url).authority;
  return routing.endpoint === undefined ? hostHeader(req.rawHeaders) : undefined;
}

/** What a listener routes by: the app's host table and allowed hosts, and its one endpoint (`--serve name=port`). */
export interface Routing {
  readonly hosts: HostTable;
  readonly allowedHosts: readonly string[];
  readonly endpoint?: string | undefined;
  /** Pass an unmapped host through the proxy to the network (`MOCKPOINT_PROXY_PASS_THROUGH`) instead of `HOST_NOT_MOCKED`. */
  readonly passThrough?: boolean;
}

/**
 * Where a request goes, the one reading for the request listener and the
 * upgrade listener: its target under `/endpoint/` (the listener's one endpoint,
 * a mapped host's endpoint, or its own path), an answer refusing it (a proxied
 * request to a host not mocked), or `undefined` (not an endpoint's: the app answers it).
 */
export function requestTarget(
  req: IncomingMessage,
  routing: Routing,
): string | EndpointAnswer | typeof PASS_THROUGH | undefined {
  const url = req.url ?? '/';
  if (routing.endpoint !== undefined) return mappedTarget(routing.endpoint, url);
  // One check when no host is mapped and the target is a path (the hot path).
  if (routing.hosts.size === 0 && url.charCodeAt(0) === 47 /* / */) return endpointTarget(url);
  const routed = routeByHost(
    url,
    hostHeader(req.rawHeaders),
    routing.hosts,
    routing.allowedHosts,
    routing.passThrough ? { port: req.socket?.localPort } : undefined,
  );
  return routed ?? endpointTarget(url);
}
