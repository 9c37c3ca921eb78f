/**
 * The Deno entry: a mockpoint app on `Deno.serve`. Permissions: `--allow-net`
 * with the memory store; the LevelDB store (`@mockpoint/core/level`, a Node-API
 * addon) also needs `--allow-read --allow-write=<data dir> --allow-env --allow-ffi`.
 *
 * @example
 * // server.ts — run with `deno run --allow-net server.ts`
 * import { createApp } from '@mockpoint/core'
 * import { serve } from '@mockpoint/core/deno'
 * const served = serve(createApp(), { port: 16540 })
 * console.log(`mockpoint listening on ${served.url}`)
 *
 * @module
 */
import type { MockpointApp } from '../../http/create-app.js';
import { DEFAULT_HOST, type RuntimeServedApp, type RuntimeServeOptions, servedApp } from '../lifecycle.js';

export type { CloseOptions, RuntimeServedApp, RuntimeServeOptions } from '../lifecycle.js';

/** The part of Deno's server this entry uses (typed here: no Deno types needed). */
interface DenoServer {
  readonly addr: { port: number };
  /** Resolves once the server is closed. */
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}

declare const Deno: {
  serve(
    options: { port: number; hostname: string; signal: AbortSignal; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
};

/**
 * Serves `app` with `Deno.serve`.
 * @example const served = serve(createApp(), { port: 0 }); console.log(served.url)
 */
export function serve(app: MockpointApp, options: RuntimeServeOptions = {}): RuntimeServedApp {
  const host = options.host ?? DEFAULT_HOST;
  // Aborting the signal closes the server and every connection at once: Deno's
  // only way to drop a connection whose handler has not answered.
  const dropped = new AbortController();
  // onListen replaces Deno's own "Listening on" line: the caller says what it wants.
  const server = Deno.serve(
    { port: options.port ?? 0, hostname: host, signal: dropped.signal, onListen: () => undefined },
    app.fetch,
  );
  return servedApp(app, host, {
    port: server.addr.port,
    // shutdown() resolves only once every handler has answered; `finished` also once dropped.
    stop: () => {
      server.shutdown().catch(() => undefined);
      return server.finished;
    },
    drop: () => dropped.abort(),
  });
}
