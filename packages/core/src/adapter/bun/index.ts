/**
 * The Bun entry: a mockpoint app on `Bun.serve`. Bun closes a connection that
 * stays silent for its `idleTimeout` (10 s by default), which would cut long-polls
 * and delays; this entry sets it past the longest of both.
 *
 * @example
 * // server.ts — run with `bun server.ts`
 * import { createApp } from '@mockpoint/core'
 * import { serve } from '@mockpoint/core/bun'
 * import { LevelStore } from '@mockpoint/core/level'
 * const served = serve(createApp({ store: await LevelStore.open({ dir: './data' }) }), { port: 16540 })
 * console.log(`mockpoint listening on ${served.url}`)
 *
 * @module
 */
import type { MockpointApp } from '../../http/create-app.js';
import { MAX_WAIT_MS } from '../../wire/limits.js';
import { DEFAULT_HOST, type RuntimeServedApp, type RuntimeServeOptions, servedApp } from '../lifecycle.js';

export type { CloseOptions, RuntimeServedApp, RuntimeServeOptions } from '../lifecycle.js';

/** The part of Bun's server this entry uses (typed here: no Bun types needed). */
interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch(request: Request): Response | Promise<Response>;
  }): BunServer;
};

/** Bun's largest `idleTimeout`, in seconds; `0` means none. */
const MAX_IDLE_SECONDS = 255;

/** Options for the Bun {@link serve}. */
export interface BunServeOptions extends RuntimeServeOptions {
  /**
   * Seconds a connection may stay silent before Bun closes it (`0`: never).
   * @default a few seconds past the longest long-poll (60 s) and the largest delay (`maxDelayMs`); `0` past 255 s
   */
  idleTimeout?: number;
}

/** The idle timeout that lets the longest long-poll and the largest delay finish. */
export function idleTimeoutFor(app: MockpointApp): number {
  const seconds = Math.ceil(Math.max(MAX_WAIT_MS, app.mockpoint.options.maxDelayMs) / 1000) + 5;
  return seconds > MAX_IDLE_SECONDS ? 0 : seconds;
}

/**
 * Serves `app` with `Bun.serve`.
 * @example const served = serve(createApp(), { port: 0 }); console.log(served.url)
 */
export function serve(app: MockpointApp, options: BunServeOptions = {}): RuntimeServedApp {
  const host = options.host ?? DEFAULT_HOST;
  const server = Bun.serve({
    port: options.port ?? 0,
    hostname: host,
    idleTimeout: options.idleTimeout ?? idleTimeoutFor(app),
    fetch: app.fetch,
  });
  return servedApp(app, host, {
    port: server.port,
    // Bun's graceful stop resolves once every connection is closed; stop(true) closes them now.
    stop: () => server.stop(),
    drop: () => void server.stop(true),
  });
}
