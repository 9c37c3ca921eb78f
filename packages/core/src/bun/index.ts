/**
 * The Bun entry: the mockpoint app on `Bun.serve`. Bun closes a connection that
 * stays silent for its `idleTimeout` (10 s by default), which would cut long-polls
 * and delays; this entry sets it past the longest of both.
 *
 * @example
 * // server.ts — run with `bun server.ts`
 * import { serve } from '@mockpoint/core/bun'
 * import { LevelStore } from '@mockpoint/core/level'
 * const server = serve({ port: 16540, store: await LevelStore.open({ dir: './data' }) })
 * console.log(`mockpoint listening on ${server.url}`)
 *
 * @module
 */
import { createApp, type MockpointApp } from '../create-app.js';
import { MAX_WAIT_MS } from '../routes/journal.js';
import { DEFAULT_HOSTNAME, DEFAULT_PORT, localUrl, type RuntimeServer, type ServeOptions } from '../serve-options.js';

export type { RuntimeServer, ServeOptions } from '../serve-options.js';

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
export interface BunServeOptions extends ServeOptions {
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
 * Serves a new mockpoint app with `Bun.serve`.
 * @example const server = serve({ port: 0 }); console.log(server.url)
 */
export function serve(options: BunServeOptions = {}): RuntimeServer {
  const { port = DEFAULT_PORT, hostname = DEFAULT_HOSTNAME, idleTimeout, ...appOptions } = options;
  const app = createApp(appOptions);
  const server = Bun.serve({ port, hostname, idleTimeout: idleTimeout ?? idleTimeoutFor(app), fetch: app.fetch });
  let closing: Promise<void> | undefined;
  return {
    app,
    url: localUrl(hostname, server.port),
    port: server.port,
    close() {
      closing ??= (async () => {
        app.mockpoint.journal.releaseWaiters();
        await server.stop();
        await app.mockpoint.endpoints.store.close();
      })();
      return closing;
    },
  };
}
