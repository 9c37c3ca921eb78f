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
import type { SocketSession, UpgradeAnswer } from '../../answer/endpoint-answer.js';
import type { FetchUpgrade, OpenSockets, ScriptSocket, SocketEvents } from '../../answer/websocket/open-sockets.js';
import type { MockpointApp } from '../../http/create-app.js';
import { fetchFront } from '../../http/endpoint-fetch.js';
import { MAX_WAIT_MS } from '../../registry/limits.js';
import { isValidName } from '../../registry/rules.js';
import { DEFAULT_HOST, type RuntimeServedApp, type RuntimeServeOptions, servedApp } from '../lifecycle.js';

export type { CloseOptions, RuntimeServedApp, RuntimeServeOptions } from '../lifecycle.js';

/** What a Bun WebSocket carries from its upgrade to its handlers. */
interface SocketData {
  answer: UpgradeAnswer & { session: SocketSession };
  /** The player of the app that answered the upgrade (a namespace's own). */
  sockets: OpenSockets;
  events?: SocketEvents;
}

/** The part of Bun's `ServerWebSocket` the player uses. */
interface BunWebSocket {
  readonly data: SocketData;
  send(data: string | Uint8Array): number;
  close(code?: number, reason?: string): void;
  terminate?(): void;
  getBufferedAmount?(): number;
}

/** The part of Bun's server this entry uses (typed here: no Bun types needed). */
interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
  upgrade(request: Request, options: { data: SocketData; headers?: Record<string, string> }): boolean;
}

declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch: BunFetch;
    websocket: {
      maxPayloadLength: number;
      open(ws: BunWebSocket): void;
      message(ws: BunWebSocket, message: string | Uint8Array): void;
      close(ws: BunWebSocket, code: number, reason: string): void;
      ping(ws: BunWebSocket): void;
      pong(ws: BunWebSocket): void;
    };
  }): BunServer;
};

function scriptSocket(ws: BunWebSocket): ScriptSocket {
  return {
    sendText: (text) => void ws.send(text),
    sendBytes: (bytes) => void ws.send(bytes),
    close: (code, reason) => ws.close(code, reason),
    // Bun's terminate() cuts the connection without a close frame.
    terminate: () => (ws.terminate === undefined ? ws.close(1011, 'dropped') : ws.terminate()),
    get bufferedAmount() {
      return ws.getBufferedAmount?.() ?? 0;
    },
  };
}

/** WebSocket upgrades on Bun: `server.upgrade` (Hono's env is the server), played on the `websocket` handlers. */
const bunUpgrade: FetchUpgrade = (request, env, answer, sockets) => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers))
    headers[name] = typeof value === 'string' ? value : value.join(', ');
  if (answer.session.protocol !== undefined) headers['sec-websocket-protocol'] = answer.session.protocol;
  // After a successful upgrade Bun sends the 101 itself and ignores the Response.
  if ((env as BunServer).upgrade(request, { data: { answer, sockets }, headers })) return new Response(null);
  return new Response('WebSocket upgrade failed', { status: 400 });
};

function websocketHandlers(sockets: OpenSockets) {
  return {
    maxPayloadLength: sockets.maxFrameBytes,
    open(ws: BunWebSocket) {
      ws.data.events = ws.data.sockets.open(ws.data.answer.session, ws.data.answer.script, scriptSocket(ws));
    },
    message(ws: BunWebSocket, message: string | Uint8Array) {
      ws.data.events?.message(message, typeof message !== 'string');
    },
    close(ws: BunWebSocket, code: number, reason: string) {
      ws.data.events?.closed(code, reason);
    },
    // Bun answers a ping itself; the player counts it (and a pong) against the client.
    ping(ws: BunWebSocket) {
      ws.data.events?.control();
    },
    pong(ws: BunWebSocket) {
      ws.data.events?.control();
    },
  };
}

/** Bun's largest `idleTimeout`, in seconds; `0` means none. */
const MAX_IDLE_SECONDS = 255;

/** Options for the Bun {@link serve}. */
export interface BunServeOptions extends RuntimeServeOptions {
  /**
   * Seconds a connection may stay silent before Bun closes it (`0`: never).
   * @default a few seconds past the longest long-poll (60 s) and the largest delay (`maxDelayMs`); `0` past 255 s
   */
  idleTimeout?: number;
  /**
   * Serve this one endpoint at the root: every request, whatever its path or Host,
   * is answered by it with its whole path as the subpath (the daemon's `--serve
   * name=port`). Nothing else (no `/api`, no page) answers on this server.
   * @default undefined (the whole app)
   */
  endpoint?: string;
}

type BunFetch = (request: Request, server: BunServer) => Response | Promise<Response>;

/**
 * `request` at another URL, with a server whose upgrade takes the request Bun
 * handed over (Bun upgrades only that one).
 */
function moved(request: Request, server: BunServer, url: string): [Request, BunServer] {
  const env: BunServer = {
    port: server.port,
    stop: (closeActive) => server.stop(closeActive),
    upgrade: (_moved, upgrade) => server.upgrade(request, upgrade),
  };
  return [new Request(url, request), env];
}

/**
 * The app's fetch as `Bun.serve` calls it. Bun makes a request's URL from its Host
 * header; a Host no URL can hold gives a bare path, which the app would misread:
 * that request is given `localhost` instead, as on Node (the Host check still
 * reads the header). Then the front door says where it goes (`fetchFront`).
 */
function bunFetch(app: MockpointApp, endpoint: string | undefined): BunFetch {
  if (endpoint !== undefined && !isValidName(endpoint)) {
    throw new TypeError(`serve: endpoint "${endpoint}" is not a valid name`);
  }
  const served = fetchFront(app, endpoint);
  return (request, server) => {
    const url = request.url;
    if (url.charCodeAt(0) !== 47 /* / */) return served(request, server);
    const [rewritten, env] = moved(request, server, `http://localhost${url}`);
    return served(rewritten, env);
  };
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
  const { sockets } = app.mockpoint;
  sockets.fetchUpgrade = bunUpgrade;
  const server = Bun.serve({
    port: options.port ?? 0,
    hostname: host,
    idleTimeout: options.idleTimeout ?? idleTimeoutFor(app),
    fetch: bunFetch(app, options.endpoint),
    websocket: websocketHandlers(sockets),
  });
  return servedApp(app, host, {
    port: server.port,
    // Bun's graceful stop resolves once every connection is closed; stop(true) closes them now.
    stop: () => {
      sockets.closeAll();
      return server.stop();
    },
    drop: () => {
      sockets.dropAll();
      void server.stop(true);
    },
  });
}
