/**
 * What the Bun and Deno entries (`@mockpoint/core/bun`, `@mockpoint/core/deno`)
 * share: their options and the running server they return.
 *
 * @module
 */
import type { CreateAppOptions, MockpointApp } from './create-app.js';

/** The daemon's port, also the default of the Bun and Deno entries. */
export const DEFAULT_PORT = 16540;
/** Every address, like the daemon. */
export const DEFAULT_HOSTNAME = '0.0.0.0';

/** Options for `serve()` on Bun and Deno: the app's options plus where to listen. */
export interface ServeOptions extends CreateAppOptions {
  /** Port to listen on; `0` picks a free one. @default 16540 */
  port?: number;
  /** Address to listen on. @default '0.0.0.0' */
  hostname?: string;
}

/** A mockpoint app listening on Bun or Deno. */
export interface RuntimeServer {
  /** The app behind the server (its store, journal and options). */
  readonly app: MockpointApp;
  /** Base URL, e.g. `http://127.0.0.1:16540` (`127.0.0.1` when listening on every address). */
  readonly url: string;
  readonly port: number;
  /**
   * Answers pending long-polls with what they have, stops listening once the
   * requests in flight are answered, then closes the store.
   */
  close(): Promise<void>;
}

/** The URL a client on this machine uses for `hostname:port`. */
export function localUrl(hostname: string, port: number): string {
  const host = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
