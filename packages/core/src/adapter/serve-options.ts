/**
 * What the Bun and Deno entries (`@mockpoint/core/bun`, `@mockpoint/core/deno`)
 * share: where to listen, and the served app they return. Like `serve()` of
 * `@mockpoint/core/node`, they serve an app made with `createApp()`.
 *
 * @module
 */

/** Where `serve()` listens on Bun and Deno. */
export interface RuntimeServeOptions {
  /** Port to listen on; `0` picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
}

/** An app listening on Bun or Deno. */
export interface RuntimeServedApp {
  readonly port: number;
  readonly host: string;
  /** Base URL with the address as given (`localhost` for a wildcard address), e.g. `http://127.0.0.1:16540`. */
  readonly url: string;
  /**
   * Answers pending long-polls with what they have and stops listening once the
   * requests in flight are answered. The store stays open: it is the caller's.
   * Idempotent.
   */
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';

/** The base URL for `host:port` (a wildcard address is shown as `localhost`). */
export function baseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}
