/**
 * `serve()`: listen with a mockpoint app on a port and close it again, the one
 * way the daemon and `createMockServer()` both serve.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MockpointApp } from '../../http/create-app.js';
import { type CloseOptions, DEFAULT_HOST, type RuntimeServedApp, servedApp } from '../lifecycle.js';
import { createNodeListener, type NodeListenerOptions } from './listener.js';

export type { CloseOptions };

/** Options for {@link serve}. */
export interface ServeOptions extends NodeListenerOptions {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
}

/** A listening app, with its `node:http` server. */
export interface ServedApp extends RuntimeServedApp {
  readonly server: Server;
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
  const server = createServer(createNodeListener(app, options));
  const address = await listen(server, options.port ?? 0, host);
  // Per connection, not per request: closeIdleConnections() leaves a connection
  // that never sent a byte open, so stopping destroys those itself.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const closeIdle = (): void => {
    server.closeIdleConnections();
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  };
  const served = servedApp(app, host, {
    port: address.port,
    async stop() {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
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
    drop: () => server.closeAllConnections(),
  });
  return { ...served, server };
}
