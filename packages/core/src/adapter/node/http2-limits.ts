/**
 * The request timeouts of `serve()` over TLS, where the server is `node:http2`'s
 * `createSecureServer` with `allowHTTP1`.
 *
 * HTTP/1.1 (by ALPN): Node's HTTP/1.1 connection code runs with the http2
 * server as its server and reads `headersTimeout`, `requestTimeout` and
 * `connectionsCheckingInterval` off it; Node 20's Http2SecureServer ignores
 * them as options and sets 60 s / 300 s / 30 s in its constructor, so they are
 * set as properties before it listens (the check interval is started on 'listening').
 *
 * HTTP/2 has no such timeouts: a stream whose request has not arrived whole
 * (END_STREAM) within `requestTimeout` is reset, and a session with no stream
 * open for that long is closed (GOAWAY), whatever other frames it sends. The
 * time an answer takes (a delay, a long-poll, a held request) never counts.
 *
 * @module
 */
import type { Http2SecureServer, Http2Server, Http2Session, ServerHttp2Stream } from 'node:http2';
import { nodeBuiltin } from '../../cache/node-builtin.js';
import { onFirstUse } from '../../cache/on-first-use.js';

/** Streams one HTTP/2 session may have open at once (RFC 9113 advises at least 100; Node's default is unlimited). */
export const MAX_CONCURRENT_STREAMS = 100;

/** The timeouts of {@link limitSecureServer}, in ms. */
export interface RequestTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
}

/** `node:http2`'s constants, read once an HTTP/2 server exists (it loaded the module). */
const http2Constants = onFirstUse(() => nodeBuiltin('node:http2').constants);
/** The stream states in which a request may still be arriving. */
const openStates = onFirstUse(
  () => new Set([http2Constants().NGHTTP2_STREAM_STATE_OPEN, http2Constants().NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL]),
);

/** Resets `stream` when the client has not sent its whole request within `ms`. */
function limitStream(stream: ServerHttp2Stream, ms: number): void {
  const timer = setTimeout(() => {
    if (stream.destroyed || !openStates().has(stream.state.state as number)) return;
    if (!stream.headersSent) stream.respond({ ':status': 408 }, { endStream: true });
    stream.close(http2Constants().NGHTTP2_CANCEL);
  }, ms);
  stream.once('close', () => clearTimeout(timer));
}

/**
 * Closes `session` when it has had no stream open for `ms`: from its start, or
 * from its last stream's end. Other frames (SETTINGS, PING, WINDOW_UPDATE) do
 * not count as activity: a client sending only those would otherwise hold the
 * connection for ever. Closed with GOAWAY; a peer that has not closed its side
 * `ms` later has its connection reset (a graceful close only ends the server's
 * side, and waits for the peer's).
 */
function limitSession(session: Http2Session, ms: number): void {
  // The socket's own reset, bound now (the session lets go of its socket once closed; its proxy forbids destroy()).
  const reset = (session.socket as { resetAndDestroy?: () => void } | undefined)?.resetAndDestroy;
  let open = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = () => {
    timer = setTimeout(() => {
      if (open > 0 || session.closed) return;
      session.close();
      timer = setTimeout(() => (reset ?? (() => session.destroy()))(), ms);
      timer.unref();
    }, ms);
    timer.unref();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    if (open++ === 0) clearTimeout(timer);
    stream.once('close', () => {
      if (--open === 0 && !session.closed) idle();
    });
  });
  session.once('close', () => clearTimeout(timer));
  idle();
}

/**
 * Applies the request timeouts to an HTTP/2 server with `allowHTTP1`, for both protocols (see the
 * module comment). `sessionIdleMs`: the request timeout as set (`timeouts.requestTimeout` is raised
 * to the headers timeout, which Node's HTTP/1.1 code requires; an idle HTTP/2 session is not).
 */
export function limitSecureServer(
  server: Http2SecureServer,
  timeouts: RequestTimeouts,
  sessionIdleMs = timeouts.requestTimeout,
): void {
  Object.assign(server, timeouts);
  limitHttp2Streams(server, timeouts.requestTimeout, sessionIdleMs);
}

/**
 * Applies the HTTP/2 request timeout to the streams and sessions of `server` (TLS or cleartext):
 * a session with no stream open for `sessionIdleMs` (the `--request-timeout-ms` as set) is closed.
 */
export function limitHttp2Streams(
  server: Http2SecureServer | Http2Server,
  requestTimeout: number,
  sessionIdleMs = requestTimeout,
): void {
  // The two servers' `on` overloads differ only in their types; the events are the same.
  const http2 = server as unknown as Http2Server;
  http2.on('session', (session: Http2Session) => limitSession(session, sessionIdleMs));
  http2.on('stream', (stream: ServerHttp2Stream) => limitStream(stream, requestTimeout));
}
