/**
 * How a proxy route reaches its upstream: one function from a request to the
 * upstream's status, headers and streamed body. The default here uses `fetch`
 * (every runtime has it); `@mockpoint/core/node` serves with one that resolves
 * the name itself and checks every address before connecting to it.
 *
 * @module
 */

import { hostNotAllowedMessage } from '../../api/proxy-answer.js';
import { hostAllowed, normalHost, urlPort } from '../../pattern/host-rules.js';
import { MockpointError } from '../../registry/errors.js';
import { checkUpstreamAddress, nonPublicKind } from './upstream-address.js';

/** A request to forward. */
export interface UpstreamRequest {
  /** The absolute upstream URL (path and query included). */
  url: string;
  method: string;
  /** Header lines to send, in order (hop-by-hop ones, Host and Content-Length already left out). */
  headers: readonly (readonly [string, string])[];
  /** The exact body, or `null` for none. */
  body: Uint8Array | null;
  /** Hosts the proxy may reach (checked again at connect time against the addresses). */
  allowHosts: readonly string[];
  /** Aborts the request (the headers' timeout, or the client left). */
  signal: AbortSignal;
}

/** The upstream's answer: its status, header lines as received, and its body as it arrives. */
export interface UpstreamResponse {
  status: number;
  headers: [string, string][];
  /** `null` when there is none (HEAD, 204, 304). */
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Sends a request upstream; never follows a redirect. Rejects with
 * `PROXY_HOST_NOT_ALLOWED` for an address it may not reach, and with the
 * network error (its `code`, e.g. `ECONNREFUSED`) otherwise.
 */
export type Upstream = (request: UpstreamRequest) => Promise<UpstreamResponse>;

/** Refuses a host that is not listed, and an address literal that is non-public and not listed itself. */
export function checkUpstreamHost(url: URL, allowHosts: readonly string[]): void {
  const host = normalHost(url.hostname);
  const port = urlPort(url);
  if (!hostAllowed(host, port, allowHosts)) {
    throw new MockpointError('PROXY_HOST_NOT_ALLOWED', hostNotAllowedMessage(host, port, allowHosts));
  }
  if (nonPublicKind(host) !== 'reserved') checkUpstreamAddress(host, host, port, allowHosts);
}

/**
 * The `fetch` upstream, for runtimes without a resolver of their own: it checks
 * the host against the list (and an address literal as an address), but cannot
 * see what a name resolves to. `fetch` decodes compressed bodies, so
 * Content-Encoding and Content-Length are not passed on.
 */
export const fetchUpstream: Upstream = async (request) => {
  const url = new URL(request.url);
  checkUpstreamHost(url, request.allowHosts);
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  const response = await fetch(url, {
    method: request.method,
    headers,
    body: request.body as Uint8Array<ArrayBuffer> | null,
    redirect: 'manual',
    signal: request.signal,
  });
  const lines: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'content-encoding' && name !== 'content-length') lines.push([name, value]);
  });
  return { status: response.status, headers: lines, body: response.body };
};
