/**
 * `serve()`: listen with a mockpoint app on a port and close it again, the one
 * way the daemon and `createMockServer()` both serve.
 *
 * @module
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse, Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { SecureContext } from 'node:tls';
import { socketShareOf } from '../../answer/websocket/open-sockets.js';
import { nodeBuiltin } from '../../cache/node-builtin.js';
import type { MockpointApp } from '../../http/create-app.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../registry/limits.js';
import { type CloseOptions, DEFAULT_HOST, type RuntimeServedApp, servedApp } from '../lifecycle.js';
import { answerClientErrors } from './client-error.js';
import { type ConnectionCap, capConnections } from './connection-cap.js';
import { sniffH2c } from './h2c-sniff.js';
import { limitHttp2Streams, limitSecureServer, MAX_CONCURRENT_STREAMS } from './http2-limits.js';
import { MockpointIncomingMessage } from './incoming-message.js';
import { createNodeListener, type NodeListenerOptions } from './listener.js';
import { createNodeUpgradeListener } from './upgrade.js';

export type { CloseOptions };

/** Options for {@link serve}. */
export interface ServeOptions extends NodeListenerOptions {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /**
   * Most connections held at once. Above it a new connection closes the oldest
   * idle one (one that never sent a byte first, then one kept alive between
   * requests); when every connection is busy, the new one is closed at once.
   * Open WebSockets may take nine tenths of it (the rest stays for the API):
   * one more handshake is refused with 503 `TOO_MANY_SOCKETS`.
   * @default 10000
   */
  maxConnections?: number;
  /** How long a client may take to send its request headers before its connection is closed (408). @default 10000 */
  headersTimeoutMs?: number;
  /**
   * How long a client may take to send its whole request, headers and body,
   * before its connection is closed (408); the time the answer takes (a delay,
   * a long-poll) does not count. At least `headersTimeoutMs`. @default 30000
   */
  requestTimeoutMs?: number;
  /**
   * Serve HTTPS with this certificate and key (PEM), HTTP/2 and HTTP/1.1 by ALPN
   * (`node:http2` with `allowHTTP1`). See `loadOrCreateCa()` for a local CA.
   * @default undefined (plain HTTP/1.1)
   */
  tls?: TlsOptions;
}

/** HTTPS for {@link serve}. */
export interface TlsOptions {
  /** The default certificate chain (PEM). */
  cert: string;
  /** Its key (PEM). */
  key: string;
  /**
   * A certificate for a name a client asks for by SNI (e.g. a mapped host, signed
   * by the local CA), or `undefined` for the default. Each name is asked once
   * (at most 1000 kept); names given the same object share one context. It runs
   * on the event loop at each new name: see `sniCertificates()` for a bounded one.
   */
  certificateFor?: (servername: string) => { cert: string; key: string } | undefined;
}

const MAX_SNI_CONTEXTS = 1000;

/** The SNI callback: each name's context made once, from `certificateFor`. */
function sniCallback(
  tls: TlsOptions,
): ((servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => void) | undefined {
  const { certificateFor } = tls;
  if (certificateFor === undefined) return undefined;
  // Only names given a certificate are kept: one mapped later is asked about again.
  const contexts = new Map<string, SecureContext>();
  // Many names share one certificate (a `*.` pattern's): one context for each.
  const byPair = new WeakMap<object, SecureContext>();
  return (servername, cb) => {
    // A name is at most 253 characters; anything longer gets the default certificate.
    const name = servername.length > 253 ? '' : servername.toLowerCase();
    let context = contexts.get(name);
    if (context === undefined && name !== '') {
      try {
        const pair = certificateFor(name);
        if (pair !== undefined) {
          context = byPair.get(pair) ?? nodeBuiltin('node:tls').createSecureContext(pair);
          byPair.set(pair, context);
        }
      } catch (error) {
        cb(error as Error);
        return;
      }
      if (context !== undefined) {
        if (contexts.size >= MAX_SNI_CONTEXTS) contexts.delete(contexts.keys().next().value as string);
        contexts.set(name, context);
      }
    }
    cb(null, context);
  };
}

/** Every HTTP/2 request's raw headers as HTTP/1.1 names them: `:authority` as `host`, the other pseudo-headers left out. */
function h1Headers(raw: readonly string[]): string[] {
  const out: string[] = [];
  let authority: string | undefined;
  let hasHost = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name === ':authority') authority = raw[i + 1];
    else if (name.charCodeAt(0) !== 58 /* : */) {
      if (name.length === 4 && name.toLowerCase() === 'host') hasHost = true;
      out.push(name, raw[i + 1] as string);
    }
  }
  return authority === undefined || hasHost ? out : ['host', authority, ...out];
}

/** The `http2` request listener: `listener` with each HTTP/2 request's raw headers named as HTTP/1.1 names them. */
function http2Listener(listener: RequestListener) {
  return (req: Http2ServerRequest, res: Http2ServerResponse): void => {
    // The listener, the journal and the Host check read HTTP/1.1 header names: an HTTP/2
    // request's Host is its :authority (without it, /api would see no Host at all).
    if (req.httpVersionMajor === 2) Object.defineProperty(req, 'rawHeaders', { value: h1Headers(req.rawHeaders) });
    listener(req as never, res as never);
  };
}

/** Keeps in `sessions` the HTTP/2 sessions `server` holds, to end them when it stops. */
function trackSessions(
  server: { on(event: 'session', listener: (session: Http2Session) => void): unknown },
  sessions: Set<Http2Session>,
): void {
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
}

/** A listening app, with its `node:http` server. */
export interface ServedApp extends RuntimeServedApp {
  readonly server: Server;
  /** The connections held now, oldest first, and how many were evicted or refused at the cap. */
  readonly connections: ConnectionCap;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Serves `app` on `node:http` with {@link createNodeListener}. Rejects with the
 * listen error (e.g. `code: 'EADDRINUSE'`) when the port cannot be had.
 * @example const served = await serve(createApp(), { port: 0 }); await served.close()
 */
export async function serve(app: MockpointApp, options: ServeOptions = {}): Promise<ServedApp> {
  const host = options.host ?? DEFAULT_HOST;
  // Created unbound so that a listen error can be awaited and reported.
  const maxConnections = options.maxConnections ?? DEFAULT_CONNECTION_LIMITS.maxConnections;
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs;
  // An HTTP/2 session with no stream open this long is closed: the setting as given (issue #71).
  const sessionIdleMs = options.requestTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs;
  // Node's HTTP/1.1 code requires a request timeout at least the headers timeout.
  const requestTimeout = Math.max(headersTimeout, sessionIdleMs);
  const listener = createNodeListener(app, options);
  // Streams one HTTP/2 connection may open: at least 100, and at least the gRPC calls it may hold.
  const maxConcurrentStreams = Math.max(MAX_CONCURRENT_STREAMS, app.mockpoint.options.maxGrpcStreams);
  // Node checks the two timeouts this often (30 s by default, which would stretch them).
  const connectionsCheckingInterval = Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4)));
  const timeouts = { headersTimeout, requestTimeout, connectionsCheckingInterval };
  const server = (
    options.tls === undefined
      ? createServer({ ...timeouts, IncomingMessage: MockpointIncomingMessage }, listener)
      : nodeBuiltin('node:http2').createSecureServer(
          {
            cert: options.tls.cert,
            key: options.tls.key,
            allowHTTP1: true,
            SNICallback: sniCallback(options.tls),
            // A TLS handshake is part of the request (Node's default allows 120 s).
            handshakeTimeout: requestTimeout,
            settings: { maxConcurrentStreams },
          },
          http2Listener(listener),
        )
  ) as Server;
  // A request head past Node's limit: 414 or 431, read by the client (adapter/node/client-error.ts).
  answerClientErrors(server);
  const sessions = new Set<Http2Session>();
  // Over TLS the timeouts are set on the http2 server, for HTTP/1.1 and HTTP/2 (adapter/node/http2-limits.ts).
  if (options.tls !== undefined) {
    limitSecureServer(server as unknown as Http2SecureServer, timeouts, sessionIdleMs);
    trackSessions(server as unknown as Http2SecureServer, sessions);
  } else if (process.versions.bun === undefined) {
    // HTTP/2 with prior knowledge (native gRPC) on the same port: adapter/node/h2c-sniff.ts. Its
    // server (and node:http2) is made on the first connection that opens with the preface: a
    // start that serves HTTP/1.1 only never loads it (docs/performance.md, "Ready").
    // Not on Bun: its node:http parses connections natively, so the bytes read here never reach it
    // as Node's would (a CONNECT tunnel then broke). No h2c there (docs/grpc.md).
    sniffH2c(
      server,
      () => {
        const h2c = nodeBuiltin('node:http2').createServer(
          { settings: { maxConcurrentStreams } },
          http2Listener(listener),
        );
        limitHttp2Streams(h2c, requestTimeout, sessionIdleMs);
        trackSessions(h2c, sessions);
        return h2c;
      },
      headersTimeout,
    );
  }
  // WebSocket upgrades go through the same pipeline and routing (adapter/node/upgrade.ts); any
  // other request offering an upgrade (h2c) is answered by the same listener over HTTP/1.1.
  server.on(
    'upgrade',
    createNodeUpgradeListener(app, { ...options, request: listener, requestTimeoutMs: requestTimeout }),
  );
  const connections = capConnections(server, maxConnections);
  // WebSockets never take the whole cap: a share of it stays for the API and health.
  app.mockpoint.sockets.limitTotal(socketShareOf(maxConnections));
  const address = await listen(server, options.port ?? 0, host);
  // closeIdleConnections() leaves a connection that never sent a byte open, so
  // close() destroys those itself.
  const closeIdle = (): void => {
    // An HTTP/2 server has no idle-connection sweep of its own: its sessions end with server.close().
    if (options.tls === undefined) server.closeIdleConnections();
    for (const socket of connections.sockets) if (socket.bytesRead === 0) socket.destroy();
  };
  const served = servedApp(app, host, {
    port: address.port,
    async stop() {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open WebSockets are told the server is going away (1001); drop() cuts those that do not answer.
      app.mockpoint.sockets.closeAll();
      // Nothing is added to the request path for this: only once stopping, new requests
      // on kept-alive connections are told `connection: close`, and connections whose
      // in-flight response has finished are closed as soon as they are idle.
      server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
        // HTTP/2 has no Connection header (setting one throws): its session ends with the server.
        if (request.httpVersionMajor === 1) response.setHeader('connection', 'close');
      });
      // HTTP/2 sessions are told to go away (GOAWAY): their open streams finish, no new one starts.
      for (const session of sessions) session.close();
      closeIdle();
      const sweep = setInterval(closeIdle, 20);
      await done;
      clearInterval(sweep);
    },
    drop: () => {
      app.mockpoint.sockets.dropAll();
      if (options.tls === undefined) server.closeAllConnections();
      // Every connection, also one Node no longer tracks (answered by the upgrade listener).
      for (const socket of connections.sockets) socket.destroy();
    },
  });
  const url = options.tls === undefined ? served.url : served.url.replace(/^http:/, 'https:');
  return { ...served, url, server, connections };
}
