/**
 * The Deno entry: the mockpoint app on `Deno.serve`. Permissions: `--allow-net`
 * with the memory store; the LevelDB store (`@mockpoint/core/level`, a Node-API
 * addon) also needs `--allow-read --allow-write --allow-env --allow-ffi`.
 *
 * @example
 * // server.ts — run with `deno run --allow-net server.ts`
 * import { serve } from '@mockpoint/core/deno'
 * const server = serve({ port: 16540 })
 * console.log(`mockpoint listening on ${server.url}`)
 *
 * @module
 */
import { createApp } from '../create-app.js';
import { DEFAULT_HOSTNAME, DEFAULT_PORT, localUrl, type RuntimeServer, type ServeOptions } from '../serve-options.js';

export type { RuntimeServer, ServeOptions } from '../serve-options.js';

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
 * Serves a new mockpoint app with `Deno.serve`.
 * @example const server = serve({ port: 0 }); console.log(server.url)
 */
export function serve(options: ServeOptions = {}): RuntimeServer {
  const { port = DEFAULT_PORT, hostname = DEFAULT_HOSTNAME, ...appOptions } = options;
  const app = createApp(appOptions);
  // onListen replaces Deno's own "Listening on" line: the caller says what it wants.
  const server = Deno.serve({ port, hostname, onListen: () => undefined }, app.fetch);
  let closing: Promise<void> | undefined;
  return {
    app,
    url: localUrl(hostname, server.addr.port),
    port: server.addr.port,
    close() {
      closing ??= (async () => {
        app.mockpoint.journal.releaseWaiters();
        await server.shutdown();
        await app.mockpoint.endpoints.store.close();
      })();
      return closing;
    },
  };
}
