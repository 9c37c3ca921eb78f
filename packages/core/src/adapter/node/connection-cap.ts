/**
 * A cap on the connections a `node:http` server holds, that keeps the server
 * reachable under a flood of idle sockets. Node's own `server.maxConnections`
 * refuses every new connection once the cap is reached, so a few thousand
 * sockets that never send a byte lock everybody out. Here a new connection above
 * the cap first makes room by closing the oldest idle one — one that never sent
 * a byte, then one kept alive between requests — and only when every
 * connection is busy with a request is the new one refused: closed at once,
 * before a byte of it is read (an answer would mean reading its request, which
 * might be a write). Nothing runs per request: idleness is read off the socket
 * only when room is needed.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Node sets this on a socket while a response is in flight on it. */
/** Set on a socket that became a WebSocket: busy for as long as it is open, never evicted as idle. */
export const UPGRADED = Symbol('mockpoint.upgraded');

type HttpSocket = Socket & { _httpMessage?: unknown; [UPGRADED]?: true };

/** What {@link capConnections} returns: the open connections, oldest first. */
export interface ConnectionCap {
  /** Every connection the server holds, oldest first. */
  readonly sockets: ReadonlySet<Socket>;
  /** Connections closed to make room for newer ones. */
  readonly evicted: () => number;
  /** Connections refused because every held one was busy. */
  readonly refused: () => number;
}

/** The oldest connection that has no request in flight: one that never sent a byte first. */
function oldestIdle(sockets: Set<Socket>, except: Socket): Socket | undefined {
  let kept: Socket | undefined;
  for (const socket of sockets) {
    if (socket === except || socket.destroyed || (socket as HttpSocket)[UPGRADED]) continue;
    if (socket.bytesRead === 0) return socket;
    kept ??= (socket as HttpSocket)._httpMessage == null ? socket : undefined;
  }
  return kept;
}

/**
 * Holds at most `max` connections on `server` (see the module comment).
 * @example capConnections(server, 10_000)
 */
export function capConnections(server: Server, max: number): ConnectionCap {
  const sockets = new Set<Socket>();
  let evicted = 0;
  let refused = 0;
  server.on('connection', (socket: Socket) => {
    // Connections destroyed but not yet reported closed hold no room: counted, they made the
    // cap refuse the API while open WebSockets held their share of it.
    if (sockets.size >= max) for (const held of sockets) if (held.destroyed) sockets.delete(held);
    if (sockets.size >= max) {
      const idle = oldestIdle(sockets, socket);
      if (idle === undefined) {
        refused++;
        socket.destroy();
        return;
      }
      evicted++;
      sockets.delete(idle);
      idle.destroy();
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return { sockets, evicted: () => evicted, refused: () => refused };
}
