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
import type { FetchUpgrade } from '../../answer/websocket/open-sockets.js';
import type { MockpointApp } from '../../http/create-app.js';
import { playOnWebSocket, type StandardWebSocket } from '../fetch/web-socket.js';
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
  upgradeWebSocket(
    request: Request,
    options?: { protocol?: string },
  ): { socket: StandardWebSocket; response: Response };
  serve(
    options: { port: number; hostname: string; signal: AbortSignal; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
};

/**
 * Serves `app` with `Deno.serve`.
 * @example const served = serve(createApp(), { port: 0 }); console.log(served.url)
 */
/** WebSocket upgrades on Deno: `Deno.upgradeWebSocket`, the script played by the app's one player. */
function denoUpgrade(upgraded: { value: boolean }): FetchUpgrade {
  return (request, _env, answer, sockets) => {
    upgraded.value = true;
    const { protocol } = answer.session;
    // Deno reads the offered list split by ", " only: from "a,b" (what the `ws` client sends) it
    // refuses to choose b (a 500). Then no subprotocol is named, as a server that speaks none.
    const offered = (request.headers.get('sec-websocket-protocol') ?? '').split(', ');
    const named = protocol !== undefined && offered.includes(protocol);
    const { socket, response } = Deno.upgradeWebSocket(request, named ? { protocol } : {});
    playOnWebSocket(socket, sockets, answer, false);
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of typeof value === 'string' ? [value] : value) response.headers.append(name, one);
    }
    return response;
  };
}

export function serve(app: MockpointApp, options: RuntimeServeOptions = {}): RuntimeServedApp {
  const host = options.host ?? DEFAULT_HOST;
  const upgraded = { value: false };
  app.mockpoint.sockets.fetchUpgrade = denoUpgrade(upgraded);
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
      app.mockpoint.sockets.closeAll();
      server.shutdown().catch(() => undefined);
      return server.finished;
    },
    drop: () => {
      app.mockpoint.sockets.dropAll();
      // Once a connection was upgraded, Deno 2.9's abort throws an uncaught BadResource (the upgraded
      // connection's resource is gone): shutdown() then, which waits for the requests in flight.
      if (upgraded.value) server.shutdown().catch(() => undefined);
      else dropped.abort();
    },
  });
}
