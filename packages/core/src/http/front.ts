/**
 * The front door (docs/design.md#one-path): where a request goes, decided here once for
 * every entry — the Node listener (adapter/node/listener.ts) and its upgrade
 * listener (upgrade.ts), the Fetch app's first middleware (namespace-dispatch.ts)
 * and Bun's fast path (adapter/bun) — from its head alone, before any body is
 * read: the namespace it names (`/ns/{ns}/…`, else its session headers:
 * namespace-choice.ts, whose one caller this is), then the endpoint its
 * listener's one endpoint (`--serve name=port`), its host (a mapping; an
 * absolute-form target of a proxy client) or its path (`/endpoint/{name}…`)
 * gives it, or a refusal, or the app's own routes. A namespace's request is
 * decided again by the namespace's app, with the namespace's own routing.
 *
 * What it does not decide: which name's definitions declare a gRPC method
 * (`/{package.Service}/{Method}` at the root: engine/grpc-calls.ts's
 * `findGrpcCall`, the one lookup both gRPC entries make). That reads the store,
 * and the front door answers synchronously, allocating nothing on the hot path
 * (a request to `/endpoint/{name}` by its own path: a string, the target as sent).
 *
 * @module
 */

import type { EndpointAnswer } from '../answer/endpoint-answer.js';
import { absoluteTarget, ENDPOINT_PREFIX, mappedTarget, urlTarget } from '../api/endpoint-target.js';
import { NAMESPACE_PREFIX, sessionOfHeaders } from '../api/session.js';
import { PASS_THROUGH, routeByHost } from '../hosts/host-routing.js';
import type { HostTable } from '../hosts/host-table.js';
import { chooseNamespace, type NamespaceChoice } from './namespace-choice.js';

/**
 * How an entry reads a request's head, whatever shape its runtime gives it
 * (Node's `IncomingMessage` and its raw headers, a Fetch `Request` and its
 * `Headers`): one object per shape, made once, so that reading a request makes
 * no object of its own. Its functions are called unbound.
 */
export interface HeadReader<R> {
  /** The method as sent. */
  readonly method: (request: R) => string;
  /**
   * The request-target as sent: a path still percent-encoded, a query after it
   * (origin-form); from a client using the daemon as its HTTP proxy, the whole
   * URL (absolute-form, `http://host/path`). Never a fragment.
   */
  readonly target: (request: R) => string;
  /** The host it was sent to by its headers: `Host`, else HTTP/2's `:authority` (a Fetch request: its URL's). */
  readonly host: (request: R) => string | undefined;
  /** The namespace its headers name, valid or not: `mockpoint-session`, else its `baggage` entry (api/session.ts). */
  readonly session: (request: R) => string | undefined;
  /** The local port it came in on, when known (pass-through tells the daemon's own port from another by it). */
  readonly localPort: (request: R) => number | undefined;
}

/** What a listener routes by: the app's host table and allowed hosts, its one endpoint, and whether a request may name a namespace. */
export interface Routing {
  readonly hosts: HostTable;
  readonly allowedHosts: readonly string[];
  /** The listener's one endpoint (`--serve name=port`): every request is its, whatever its path or host. */
  readonly endpoint?: string | undefined;
  /** Pass an unmapped host through the proxy to the network (`MOCKPOINT_PROXY_PASS_THROUGH`) instead of `HOST_NOT_MOCKED`. */
  readonly passThrough?: boolean;
  /** A request may name a namespace: the app is the default namespace's of a daemon with namespaces. */
  readonly namespaces?: boolean;
}

/**
 * An endpoint's request that came by way of a host or a listener's one
 * endpoint: its target under `/endpoint/`, and the host it was sent to, for the
 * journal (a mapping of its Host, an absolute-form target's authority;
 * `undefined` on a `--serve` port, whose requests name no host of their own).
 */
export interface HostTarget {
  readonly kind: 'endpoint';
  /** Under `/endpoint/{name}`: the endpoint's name, then the request's whole path and query as the subpath. */
  readonly target: string;
  readonly host: string | undefined;
}

/** A request refused at the door: a proxied request to a host that is not mocked (`HOST_NOT_MOCKED`). */
export interface Refusal {
  readonly kind: 'refused';
  readonly answer: EndpointAnswer;
}

/**
 * Where a request goes:
 * - a string: an endpoint's, by its own path (`/endpoint/{name}…`), the target as
 *   sent (the hot path: nothing is made);
 * - {@link NamespaceChoice}: a namespace's (`kind: 'namespace'`), to be decided
 *   again by its app below `rest` when the path named it;
 * - {@link HostTarget}: an endpoint's, by its host or the listener's one endpoint;
 * - {@link Refusal}; {@link PASS_THROUGH}: through the proxy to the network;
 * - `undefined`: the app's own (the API, the page, a gRPC call at the root, a 404).
 */
export type Front = string | NamespaceChoice | HostTarget | Refusal | typeof PASS_THROUGH | undefined;

/**
 * Where `request` goes (see {@link Front}), read by `head`, routed by `routing`.
 * @example front(req, NODE_HEAD, routing) // '/endpoint/a' for GET /endpoint/a in the default namespace
 */
export function front<R>(request: R, head: HeadReader<R>, routing: Routing): Front {
  const target = head.target(request);
  if (routing.namespaces === true) {
    // The path names a namespace except on a `--serve` port and on a mapped host (whose paths,
    // `/ns/…` too, are its endpoint's): there the headers alone do.
    const byPath =
      routing.endpoint === undefined &&
      target.startsWith(NAMESPACE_PREFIX) &&
      !(routing.hosts.size !== 0 && isMapped(head.host(request), routing.hosts));
    const chosen = chooseNamespace(target, byPath, head.method(request), request, head.session);
    if (chosen !== undefined) return chosen;
  }
  // The hot path, decided here: no listener's endpoint, no host mapped, a path.
  if (routing.endpoint === undefined && routing.hosts.size === 0 && target.charCodeAt(0) === 47 /* / */) {
    return target.startsWith(ENDPOINT_PREFIX) ? target : undefined;
  }
  return endpointOf(request, head, target, routing);
}

/** Whether `host` is mapped to an endpoint. */
function isMapped(host: string | undefined, hosts: HostTable): boolean {
  return host !== undefined && hosts.lookup(host) !== undefined;
}

/** The endpoint `target` reaches in the default namespace (or a namespace's own app) off the hot path, as {@link front} gives it. */
function endpointOf<R>(request: R, head: HeadReader<R>, target: string, routing: Routing): Front {
  const { endpoint, hosts } = routing;
  if (endpoint !== undefined) {
    // An absolute-form target names the host it was sent to; an origin-form one on this port none.
    const host = target.charCodeAt(0) === 47 /* / */ ? undefined : absoluteTarget(target).authority;
    return { kind: 'endpoint', target: mappedTarget(endpoint, target), host };
  }
  const routed = routeByHost(
    target,
    head.host(request),
    hosts,
    routing.allowedHosts,
    routing.passThrough === true ? { port: head.localPort(request) } : undefined,
  );
  if (routed === undefined) return ownTarget(target);
  if (typeof routed === 'string') {
    const host = target.charCodeAt(0) === 47 /* / */ ? head.host(request) : absoluteTarget(target).authority;
    return { kind: 'endpoint', target: routed, host };
  }
  return routed === PASS_THROUGH ? PASS_THROUGH : { kind: 'refused', answer: routed as EndpointAnswer };
}

/**
 * `target` itself when it is under `/endpoint/`; the path and query of an
 * absolute-form target (`GET http://host/endpoint/a`) under it, sent to that
 * host; otherwise `undefined` (the app's).
 */
function ownTarget(target: string): Front {
  if (target.startsWith(ENDPOINT_PREFIX)) return target;
  if (target.charCodeAt(0) === 47 /* / */) return undefined;
  const { path, authority } = absoluteTarget(target);
  if (path === -1 || !target.startsWith(ENDPOINT_PREFIX, path)) return undefined;
  return { kind: 'endpoint', target: target.slice(path), host: authority };
}

/**
 * A Fetch request's head: its URL's path and query (as the runtime's URL holds
 * it), its `Headers`. No request of a Fetch runtime is in absolute-form.
 */
export const FETCH_HEAD: HeadReader<Request> = {
  method: (request) => request.method,
  target: (request) => urlTarget(request.url),
  host: (request) => request.headers.get('host') ?? new URL(request.url).host,
  session: (request) => sessionOfHeaders(request.headers),
  localPort: () => undefined,
};
