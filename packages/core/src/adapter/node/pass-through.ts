/**
 * Unmapped hosts through the forward proxy, passed through to the network when
 * `MOCKPOINT_PROXY_PASS_THROUGH` is on (docs/https.md): an absolute-form request
 * (`HTTP_PROXY`) is sent on to its target and the answer streamed back; a
 * `CONNECT` (`HTTPS_PROXY`) becomes a byte tunnel to the target (no TLS is
 * terminated: the client talks to the real host). Only hosts the proxy allow
 * list (`MOCKPOINT_PROXY_ALLOW_HOSTS`) names are reached, with the proxy
 * routes' SSRF rules: a loopback, private or link-local address only when that
 * address itself is listed, checked on every address a name resolves to right
 * before connecting. Neither kind is journaled: no endpoint answers them.
 *
 * @module
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorAnswer, type RespondAnswer } from '../../answer/endpoint-answer.js';
import { endToEndHeaders } from '../../answer/proxy/proxy-relay.js';
import { checkUpstreamHost } from '../../answer/proxy/upstream.js';
import { CONNECTION_HEADERS } from '../../codec/hop-by-hop.js';
import { urlPort } from '../../pattern/host-rules.js';
import { isMockpointError } from '../../registry/errors.js';
import { checkedLookup } from './node-upstream.js';
import { refuseRaw } from './raw-answer.js';

/** How long the target may take to accept a connection or send its headers, in ms (then 504). */
const UPSTREAM_TIMEOUT_MS = 30_000;

/** The refusal for a failure to reach the target: its code's status and message. */
function failure(error: unknown, target: string): RespondAnswer {
  if (isMockpointError(error)) return errorAnswer(error.status, error.code, error.message);
  const cause = error as NodeJS.ErrnoException;
  if (cause.code === 'ETIMEDOUT' || cause.name === 'TimeoutError') {
    return errorAnswer(504, 'UPSTREAM_TIMEOUT', `${target} did not answer within ${UPSTREAM_TIMEOUT_MS} ms`);
  }
  return errorAnswer(
    502,
    'UPSTREAM_FAILED',
    `passing through to ${target} failed: ${cause.code ?? cause.message ?? 'unknown error'}`,
  );
}

/** Flat raw header lines (name, value, …) for `writeHead`. */
function flat(lines: readonly (readonly [string, string])[]): string[] {
  const out: string[] = [];
  for (const [name, value] of lines) out.push(name, value);
  return out;
}

/**
 * Sends an absolute-form request for an unmapped host on to the network and
 * streams the answer back; `send` answers a refusal (not allowed, unreachable).
 */
export function passThroughRequest(
  req: IncomingMessage,
  res: ServerResponse,
  allowHosts: readonly string[],
  send: (answer: RespondAnswer) => void,
): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    send(errorAnswer(400, 'REQUEST_INVALID', 'the request target is not a URL'));
    return;
  }
  const target = `${url.protocol}//${url.host}`;
  if (url.protocol !== 'http:') {
    send(
      errorAnswer(
        400,
        'REQUEST_INVALID',
        `only http:// targets pass through as absolute-form requests; ${url.protocol}// goes through CONNECT`,
      ),
    );
    return;
  }
  try {
    checkUpstreamHost(url, allowHosts);
  } catch (error) {
    send(failure(error, target));
    return;
  }
  const outgoing = httpRequest(url, {
    method: req.method,
    headers: flat(endToEndHeaders(req.rawHeaders, CONNECTION_HEADERS)) as unknown as Record<string, string>,
    setHost: false,
    lookup: checkedLookup(urlPort(url), allowHosts),
    timeout: UPSTREAM_TIMEOUT_MS,
  });
  let answered = false;
  outgoing.once('timeout', () => outgoing.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
  outgoing.once('error', (error) => {
    if (!answered && !res.headersSent) send(failure(error, target));
    else res.destroy();
  });
  // An upstream that answers 101 to a request that asked for no upgrade: Node hands the socket
  // here and emits neither 'response' nor 'error', so without this the client would wait forever.
  outgoing.once('upgrade', (_upstream, socket) => {
    answered = true;
    socket.destroy();
    send(
      errorAnswer(
        502,
        'UPSTREAM_FAILED',
        `${target} answered 101 Switching Protocols to a request that asked for no upgrade`,
      ),
    );
  });
  outgoing.once('response', (upstream) => {
    answered = true;
    outgoing.setTimeout(0);
    res.writeHead(upstream.statusCode ?? 502, flat(endToEndHeaders(upstream.rawHeaders, CONNECTION_HEADERS)));
    upstream.pipe(res);
    upstream.once('error', () => res.destroy());
  });
  res.once('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
  req.pipe(outgoing);
}

/** Writes a refusal (an error's JSON) on a socket that HTTP no longer owns, and closes it. */
function refuse(socket: Duplex, answer: RespondAnswer): void {
  refuseRaw(socket, answer.status, typeof answer.body === 'string' ? answer.body : '');
}

/**
 * Tunnels a `CONNECT host:port` for an unmapped host to the network: `200
 * Connection Established` once the target accepted the connection, then the
 * bytes both ways as they are (the client's TLS goes to the real host).
 */
export function passThroughConnect(target: string, socket: Duplex, head: Buffer, allowHosts: readonly string[]): void {
  let url: URL;
  try {
    url = new URL(`https://${target}/`);
    if (url.host !== target.toLowerCase() && `${url.host}:443` !== target.toLowerCase())
      throw new Error('not host:port');
  } catch {
    refuse(socket, errorAnswer(400, 'REQUEST_INVALID', 'a CONNECT target is host:port'));
    return;
  }
  try {
    checkUpstreamHost(url, allowHosts);
  } catch (error) {
    refuse(socket, failure(error, target));
    return;
  }
  const port = urlPort(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const upstream: Socket = connect({
    host,
    port,
    lookup: checkedLookup(port, allowHosts),
    timeout: UPSTREAM_TIMEOUT_MS,
  });
  let open = false;
  upstream.once('timeout', () => {
    if (!open) upstream.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
  });
  upstream.once('connect', () => {
    open = true;
    upstream.setTimeout(0);
    if (socket.destroyed) {
      upstream.destroy();
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.byteLength > 0) upstream.write(head);
    socket.pipe(upstream);
    upstream.pipe(socket);
  });
  upstream.on('error', (error) => {
    if (!open) refuse(socket, failure(error, target));
    else socket.destroy();
  });
  upstream.once('close', () => socket.destroy());
  socket.once('close', () => upstream.destroy());
}
