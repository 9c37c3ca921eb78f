/**
 * The script player over a standard `WebSocket` object (the WHATWG interface
 * Deno's `Deno.upgradeWebSocket` and workerd's `WebSocketPair` hand out): the
 * {@link ScriptSocket} the player needs, and its events passed on. Neither
 * runtime can cut a WebSocket's TCP connection, so a `drop` there is a close
 * frame with 1011 (said in docs/websocket.md).
 *
 * @module
 */
import type { SocketSession, UpgradeAnswer } from '../../answer/endpoint-answer.js';
import type { OpenSockets, ScriptSocket, SocketEvents } from '../../answer/websocket/open-sockets.js';

/** The part of a standard WebSocket the player uses. */
export interface StandardWebSocket {
  send(data: string | ArrayBuffer | Uint8Array): void;
  close(code?: number, reason?: string): void;
  readonly bufferedAmount?: number;
  binaryType?: string;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: never) => void): void;
}

function scriptSocket(socket: StandardWebSocket): ScriptSocket {
  return {
    sendText: (text) => socket.send(text),
    sendBytes: (bytes) => socket.send(bytes),
    close: (code, reason) => socket.close(code, reason),
    terminate: () => socket.close(1011, 'dropped'),
    get bufferedAmount() {
      return socket.bufferedAmount ?? 0;
    },
  };
}

/**
 * Plays `answer`'s script over `socket`: at once when it is open already
 * (workerd's accepted socket), otherwise on its `open` event (Deno's).
 */
export function playOnWebSocket(
  socket: StandardWebSocket,
  sockets: OpenSockets,
  answer: UpgradeAnswer & { session: SocketSession },
  open: boolean,
): void {
  socket.binaryType = 'arraybuffer';
  let events: SocketEvents | undefined;
  const start = () => {
    events = sockets.open(answer.session, answer.script, scriptSocket(socket));
  };
  if (open) start();
  else socket.addEventListener('open', start);
  socket.addEventListener('message', (event: { data: string | ArrayBuffer }) => {
    const { data } = event;
    if (typeof data === 'string') events?.message(data, false);
    else events?.message(new Uint8Array(data), true);
  });
  socket.addEventListener('close', (event: { code: number; reason: string }) => {
    events?.closed(event.code, event.reason);
  });
  socket.addEventListener('error', () => undefined);
}
