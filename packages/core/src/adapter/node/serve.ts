/**
 * `serve()`: listen with a mockpoint app on a port and close it again, the one
 * way the daemon and `createMockServer()` both serve.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockpointApp } from '../../http/create-app.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../wire/limits.js';
import { type CloseOptions, DEFAULT_HOST, type RuntimeServedApp, servedApp } from '../lifecycle.js';
import { type ConnectionCap, capConnections } from './connection-cap.js';
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
  const requestTimeout = Math.max(
    headersTimeout,
    options.requestTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs,
  );
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // Node checks the two timeouts this often (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    createNodeListener(app, options),
  );
  // WebSocket upgrades to /endpoint/{name} go through the same pipeline (adapter/node/upgrade.ts).
  server.on('upgrade', createNodeUpgradeListener(app));
  const connections = capConnections(server, maxConnections);
  const address = await listen(server, options.port ?? 0, host);
  // closeIdleConnections() leaves a connection that never sent a byte open, so
  // close() destroys those itself.
  const closeIdle = (): void => {
    server.closeIdleConnections();
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
      server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
        response.setHeader('connection', 'close');
      });
      closeIdle();
      const sweep = setInterval(closeIdle, 20);
      await done;
      clearInterval(sweep);
    },
    drop: () => {
      app.mockpoint.sockets.dropAll();
      server.closeAllConnections();
    },
  });
  return { ...served, server, connections };
}
