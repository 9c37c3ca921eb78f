/**
 * `serve()`: listen with a mockpoint app on a port and close it again, the one
 * way the daemon and `createMockServer()` both serve.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MockpointApp } from '../../http/create-app.js';
import { createNodeListener, type NodeListenerOptions } from './listener.js';

/** Options for {@link serve}. */
export interface ServeOptions extends NodeListenerOptions {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
}

/** Options for {@link ServedApp.close}. */
export interface CloseOptions {
  /**
   * How long in-flight requests may take to finish before their connections are
   * dropped; 0 drops every connection at once. @default 0
   */
  graceMs?: number;
}

/** A listening app. */
export interface ServedApp {
  readonly server: Server;
  readonly port: number;
  readonly host: string;
  /** Base URL with the address as given (`localhost` for a wildcard address), e.g. `http://127.0.0.1:16540`. */
  readonly url: string;
  /**
   * Stops accepting, answers pending long-polls with what they have, lets in-flight
   * requests finish within `graceMs` (kept-alive connections are closed as soon as
   * they are idle), then resolves. Idempotent.
   */
  close(options?: CloseOptions): Promise<void>;
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

/** The host part of a URL for `host` (a wildcard address is shown as `localhost`). */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Serves `app` on `node:http` with {@link createNodeListener}. Rejects with the
 * listen error (e.g. `code: 'EADDRINUSE'`) when the port cannot be had.
 * @example const served = await serve(createApp(), { port: 0 }); await served.close()
 */
export async function serve(app: MockpointApp, options: ServeOptions = {}): Promise<ServedApp> {
  const host = options.host ?? '127.0.0.1';
  // Created unbound so that a listen error can be awaited and reported.
  const server = createServer(createNodeListener(app, options));
  const address = await listen(server, options.port ?? 0, host);
  // Per connection, not per request: closeIdleConnections() leaves a connection
  // that never sent a byte open, so close() destroys those itself.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const closeIdle = (): void => {
    server.closeIdleConnections();
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  };

  let closing: Promise<void> | undefined;
  const close = ({ graceMs = 0 }: CloseOptions = {}): Promise<void> => {
    closing ??= (async () => {
      // Long-polls answer now with what they have, and requests hanging on a queued
      // hang get the record's answer, instead of holding the close.
      app.mockpoint.journal.releaseWaiters();
      app.mockpoint.endpoints.queue.releaseHangs();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      if (graceMs <= 0) {
        server.closeAllConnections();
        await done;
        return;
      }
      // Nothing is added to the request path for this: only once closing, new requests
      // on kept-alive connections are told `connection: close`, and connections whose
      // in-flight response has finished are closed as soon as they are idle.
      server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
        response.setHeader('connection', 'close');
      });
      closeIdle();
      const sweep = setInterval(closeIdle, 20);
      const grace = setTimeout(() => server.closeAllConnections(), graceMs);
      await done;
      clearInterval(sweep);
      clearTimeout(grace);
    })();
    return closing;
  };
  return { server, port: address.port, host, url: `http://${urlHost(host)}:${address.port}`, close };
}
