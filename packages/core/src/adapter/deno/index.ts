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
import { baseUrl, DEFAULT_HOST, type RuntimeServedApp, type RuntimeServeOptions } from '../serve-options.js';

export type { RuntimeServedApp, RuntimeServeOptions } from '../serve-options.js';

/** The part of Deno's server this entry uses (typed here: no Deno types needed). */
interface DenoServer {
  readonly addr: { port: number };
  shutdown(): Promise<void>;
}

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
};

/**
 * Serves `app` with `Deno.serve`.
 * @example const served = serve(createApp(), { port: 0 }); console.log(served.url)
 */
export function serve(app: MockpointApp, options: RuntimeServeOptions = {}): RuntimeServedApp {
  const host = options.host ?? DEFAULT_HOST;
  // onListen replaces Deno's own "Listening on" line: the caller says what it wants.
  const server = Deno.serve({ port: options.port ?? 0, hostname: host, onListen: () => undefined }, app.fetch);
  let closing: Promise<void> | undefined;
  return {
    port: server.addr.port,
    host,
    url: baseUrl(host, server.addr.port),
    close() {
      closing ??= (async () => {
        // Long-polls answer now with what they have, instead of holding the close.
        app.mockpoint.journal.releaseWaiters();
        await server.shutdown();
      })();
      return closing;
    },
  };
}
