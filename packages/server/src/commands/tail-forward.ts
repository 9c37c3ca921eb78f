/**
 * `--forward`: sends a recorded request again, to a URL on this machine (the
 * relay `stripe listen --forward-to` and smee.io do): the same method, the
 * subpath appended to the URL, the query, the headers except hop-by-hop ones and
 * Host, and exactly the body bytes that arrived.
 *
 * @module
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LiveRequest } from '@mockpoint/core';
import { MockpointError, NOT_FORWARDED } from '@mockpoint/core/internal';

/** A forward that could not be made (the message says why). */
export class ForwardError extends MockpointError {
  override readonly name = 'ForwardError';
  declare readonly code: 'FORWARD_FAILED';
  constructor(message: string) {
    super('FORWARD_FAILED', message);
  }
}

/** The part of the request path below `/endpoint/{name}` (`/` for the bare URL): the entry's `subpath` when it has one. */
export function subpathOf(request: LiveRequest): string {
  const given = (request as LiveRequest & { subpath?: string }).subpath;
  if (typeof given === 'string') return given;
  for (const prefix of [`/endpoint/${encodeURIComponent(request.name)}`, `/endpoint/${request.name}`]) {
    if (request.path === prefix) return '/';
    if (request.path.startsWith(`${prefix}/`)) return request.path.slice(prefix.length);
  }
  return '/';
}

/** The body bytes exactly as they arrived. */
export function bodyBytes(request: LiveRequest): Buffer {
  return request.bodyEncoding === 'base64' ? Buffer.from(request.body, 'base64') : Buffer.from(request.body, 'utf8');
}

/** Where the request goes: `base` with the subpath appended and the request's query added. */
export function forwardUrl(base: URL, request: LiveRequest): URL {
  const url = new URL(base.href);
  const subpath = subpathOf(request);
  if (subpath !== '/') url.pathname = `${url.pathname.replace(/\/+$/, '')}${subpath}`;
  for (const [key, value] of Object.entries(request.query)) {
    for (const each of Array.isArray(value) ? value : [value]) url.searchParams.append(key, each);
  }
  return url;
}

/** The headers to send: every recorded one but hop-by-hop ones, those named by Connection, and Host. */
export function forwardHeaders(request: LiveRequest, bodyLength: number): OutgoingHttpHeaders {
  const named = new Set(
    (request.headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!NOT_FORWARDED.has(name) && !named.has(name)) headers[name] = value;
  }
  if (bodyLength > 0 || request.headers['content-length'] !== undefined) headers['content-length'] = String(bodyLength);
  return headers;
}

/** What the local server answered. */
export interface ForwardResult {
  url: string;
  status: number;
  ms: number;
}

/**
 * Sends `request` to `base` (plus its subpath); resolves with the answer's status, rejects with a {@link ForwardError}.
 * Each forward opens a connection of its own (`agent: false`): a kept-alive one that the local app closed (it
 * restarted, say) would fail the next webhook with "socket hang up", and sending it again could deliver it twice.
 */
export function forward(base: URL, request: LiveRequest, timeoutMs = 30_000): Promise<ForwardResult> {
  if (request.bodyTruncated) {
    return Promise.reject(
      new ForwardError(
        'not forwarded: its body was longer than the journal keeps (64 KiB), so the exact bytes are not known',
      ),
    );
  }
  const url = forwardUrl(base, request);
  const body = bodyBytes(request);
  const started = performance.now();
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      { method: request.method, headers: forwardHeaders(request, body.length), timeout: timeoutMs, agent: false },
      (answer) => {
        answer.resume(); // the answer's body is not shown; read it so the socket is freed
        answer.on('end', () =>
          resolve({ url: url.href, status: answer.statusCode ?? 0, ms: Math.round(performance.now() - started) }),
        );
        answer.on('error', (error) => reject(new ForwardError(`${url.href}: ${error.message}`)));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', (error) => reject(new ForwardError(`${url.href}: ${error.message}`)));
    outgoing.end(body.length > 0 ? body : undefined);
  });
}
