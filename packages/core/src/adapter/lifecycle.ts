/**
 * The serving lifecycle every listening runtime shares (Node, Bun, Deno): where
 * to listen, the served app handed back, and how it closes. An adapter only
 * translates its runtime's server into a {@link Listener}; what closing means
 * (held requests released, then a grace period, then every connection dropped)
 * is decided here, once. Workers do not listen: the platform owns the socket.
 *
 * @module
 */
import type { MockpointApp } from '../http/create-app.js';
import { releaseAppHeld } from '../http/release-held.js';

/** Where `serve()` listens. */
export interface RuntimeServeOptions {
  /** Port to listen on; `0` picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
}

/** Options for {@link RuntimeServedApp.close}. */
export interface CloseOptions {
  /**
   * How long in-flight requests (a delay, say) may take to finish before their
   * connections are dropped; 0 drops every connection at once. Held requests (a
   * long-poll, a queued `hang`) never wait for it: they are answered first.
   * @default 0
   */
  graceMs?: number;
}

/** A listening app. */
export interface RuntimeServedApp {
  readonly port: number;
  readonly host: string;
  /** Base URL with the address as given (`localhost` for a wildcard address), e.g. `http://127.0.0.1:16540`. */
  readonly url: string;
  /**
   * Stops accepting; answers pending long-polls with what they have and requests
   * held by a queued `hang` with the answer of that moment; lets the requests in
   * flight finish within `graceMs`, then drops every connection, and resolves.
   * The store stays open: it is the caller's. Idempotent.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** A runtime's server, as the lifecycle drives it: the only part an adapter writes. */
export interface Listener {
  /** The port it listens on. */
  readonly port: number;
  /**
   * Stops accepting connections and resolves once every connection is gone: the
   * requests in flight answered (kept-alive connections closed once idle), or
   * dropped by {@link drop}.
   */
  stop(): Promise<void>;
  /** Ends every connection now, answered or not. */
  drop(): void;
}

export const DEFAULT_HOST = '127.0.0.1';

/** The base URL for `host:port` (a wildcard address is shown as `localhost`). */
export function baseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/**
 * Answers every request the app holds, now: long-polls with what they have,
 * requests held by a queued `hang` with the answer of this moment, and streamed
 * answers (playing or hanging) are ended.
 */
export function releaseHeld(app: MockpointApp): void {
  releaseAppHeld(app);
  app.mockpoint.namespaces?.releaseHeld();
}

/** The served app over `listener`: the one close every runtime has. */
export function servedApp(app: MockpointApp, host: string, listener: Listener): RuntimeServedApp {
  // Serving starts the sender: deliveries left pending by an earlier run (a durable store) go on,
  // and so do the twins' webhooks it kept and never handed to the sender (#71 M4).
  app.mockpoint.deliveries.start();
  void app.mockpoint.twins.resume();
  app.mockpoint.namespaces?.serve();
  let closing: Promise<void> | undefined;
  const close = ({ graceMs = 0 }: CloseOptions = {}): Promise<void> => {
    closing ??= (async () => {
      // Held requests first: a held request would otherwise keep its connection,
      // and so the close, open until the grace ends (or forever, with no grace).
      releaseHeld(app);
      // The twins' deliveries waiting for the delivery engine are handed to it first (a durable
      // store keeps them); then sending stops promptly: attempts in flight are dropped unrecorded and stay due.
      const sending = app.mockpoint.twins.drain().then(() => app.mockpoint.deliveries.close());
      // Every namespace's app: its held requests answered, its sockets closed, its parts closed (not its data).
      const namespaces = app.mockpoint.namespaces?.close();
      const stopped = listener.stop();
      let grace: ReturnType<typeof setTimeout> | undefined;
      if (graceMs <= 0) listener.drop();
      else grace = setTimeout(() => listener.drop(), graceMs);
      try {
        await Promise.all([stopped, sending, namespaces]);
      } finally {
        clearTimeout(grace);
      }
    })();
    return closing;
  };
  return { port: listener.port, host, url: baseUrl(host, listener.port), close };
}
