/**
 * Proxy answers as they cross the wire: a route whose answer is
 * `{ proxy: { url, record? } }` forwards each request it matches to an upstream
 * and answers with what the upstream answers. The shape, its checks (beyond the
 * schema) and the host rules every runtime shares; no name is resolved here
 * (the Node transport checks the addresses a name resolves to).
 *
 * @module
 */

import { isHeaderName } from '../codec/http-header.js';
import { hostAllowed, normalHost, urlPort } from '../pattern/host-rules.js';
import { MockpointError } from '../registry/errors.js';
import { crossCuttingOf, notForKindMessage } from './setting-not-for-kind.js';

/**
 * Forward the request to an upstream; with `record`, keep each distinct request's
 * answer as a route in front of this one (see docs/files.md#record-and-replay).
 * @example { url: 'https://api.example.com/v1', record: true }
 */
export interface ProxyAnswer {
  /**
   * The upstream: an absolute http(s) URL without a query, user or fragment. The
   * request's subpath is appended to its path and the request's query kept:
   * `/endpoint/gh/users/7?x=1` with `https://api.github.com` goes to `https://api.github.com/users/7?x=1`.
   */
  url: string;
  /** Keep each distinct request (method, subpath, query, `matchHeaders`, body) and its answer as a route. @default false */
  record?: boolean;
  /**
   * Header names whose values are never written to a recording (besides
   * Authorization, Cookie, Set-Cookie and X-Api-Key, always): they are left out of
   * the recorded answer, so a replay sends no such header.
   * @default []
   */
  redact?: string[];
  /**
   * Request headers whose values tell recordings apart (they join each recorded
   * route's `match`; redacted ones never do).
   * @default []
   * @example ['accept']
   */
  matchHeaders?: string[];
  /** Milliseconds to wait for the upstream's status and headers before `504 UPSTREAM_TIMEOUT`. @default 30000 */
  timeoutMs?: number;
}

/**
 * Headers never written to a recording (a proxy's, `mockpoint record`'s, a HAR
 * import), whatever `redact` says (lower case): the one list.
 */
export const ALWAYS_REDACTED: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-access-token',
];

/**
 * Query parameters that carry credentials (an OAuth bearer token as RFC 6750's
 * `access_token`, API keys): a recording and a HAR import match them by
 * presence (`{ "matches": "(?s).*" }`), never by their value (lower case).
 */
export const REDACTED_QUERY: readonly string[] = [
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'api_key',
  'apikey',
  'api-key',
  'client_secret',
  'password',
];

/** {@link ALWAYS_REDACTED} as a person reads it: `Authorization, Proxy-Authorization, …`. */
export const ALWAYS_REDACTED_TEXT = ALWAYS_REDACTED.map((name) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash}${c.toUpperCase()}`),
).join(', ');

/** The default of {@link ProxyAnswer.timeoutMs}. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;
/** The largest {@link ProxyAnswer.timeoutMs}. */
export const MAX_PROXY_TIMEOUT_MS = 600_000;

function refuse(
  code: 'INVALID_PROXY' | 'PROXY_HOST_NOT_ALLOWED' | 'SETTING_NOT_FOR_KIND',
  where: string,
  message: string,
  index?: number,
) {
  return new MockpointError(code, `${where}: ${message}`, index === undefined ? {} : { details: { index } });
}

/** `host:port` as an allow list writes it (IPv6 in brackets). */
function hostAndPort(hostname: string, port: number): string {
  const host = normalHost(hostname);
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The message of a host that is not allowed (at `port`): what to set to allow it. */
export function hostNotAllowedMessage(hostname: string, port: number, allowHosts: readonly string[]): string {
  const at = hostAndPort(hostname, port);
  return allowHosts.length === 0
    ? `proxying is off on this server: list "${normalHost(hostname)}" (every port) or "${at}" in MOCKPOINT_PROXY_ALLOW_HOSTS (createMockServer: proxyAllowHosts) to allow it`
    : `"${at}" is not allowed by MOCKPOINT_PROXY_ALLOW_HOSTS (${allowHosts.join(', ')}); add "${normalHost(hostname)}" (every port) or "${at}"`;
}

/**
 * Checks a proxy answer beyond its schema: a proxy is the whole answer (no
 * status, headers, body, stream, fault, template or delay beside it), its URL is
 * absolute http(s) without a query, credentials or fragment, header names are
 * tokens; with `allowHosts`, the URL's host must be listed (`PROXY_HOST_NOT_ALLOWED`).
 * Throws `INVALID_PROXY` otherwise, its message starting with `where`.
 */
export function checkProxyAnswer(
  answer: Record<string, unknown>,
  where: string,
  allowHosts: readonly string[] | undefined,
  index?: number,
): void {
  const others = Object.keys(answer).filter((key) => key !== 'proxy');
  const settings = crossCuttingOf(others);
  if (others.length > settings.length) {
    throw refuse('INVALID_PROXY', where, `a proxy answer is the upstream's; ${others.join(', ')} do not apply`, index);
  }
  if (settings.length > 0) {
    const message = notForKindMessage(settings, 'a proxy answer', "the upstream's answer, relayed as it comes");
    throw refuse('SETTING_NOT_FOR_KIND', where, message, index);
  }
  const proxy = answer.proxy as ProxyAnswer;
  if (typeof proxy.url !== 'string' || !URL.canParse(proxy.url)) {
    throw refuse('INVALID_PROXY', where, 'proxy.url must be an absolute http:// or https:// URL', index);
  }
  const url = new URL(proxy.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse('INVALID_PROXY', where, `proxy.url must be http:// or https://, not ${url.protocol}//`, index);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw refuse(
      'INVALID_PROXY',
      where,
      'proxy.url takes no user, password, query or fragment (the request brings its own query; send credentials as headers)',
      index,
    );
  }
  for (const list of ['redact', 'matchHeaders'] as const) {
    const bad = (proxy[list] ?? []).find((name) => !isHeaderName(name));
    if (bad !== undefined) {
      throw refuse('INVALID_PROXY', where, `proxy.${list}: "${bad}" is not a header name`, index);
    }
  }
  if (allowHosts !== undefined && !hostAllowed(url.hostname, urlPort(url), allowHosts)) {
    throw refuse('PROXY_HOST_NOT_ALLOWED', where, hostNotAllowedMessage(url.hostname, urlPort(url), allowHosts), index);
  }
}

/**
 * The upstream URL of a request: the proxy's path with the request's subpath
 * appended (no doubled `/`), then the request's query string as it came.
 */
export function upstreamUrl(base: string, subpath: string, query: string): string {
  const url = new URL(base);
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return `${url.origin}${path}${subpath}${query}`;
}
