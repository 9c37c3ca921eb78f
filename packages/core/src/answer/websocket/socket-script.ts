/**
 * A WebSocket answer prepared once when the routes change: every frame encoded
 * (text, or bytes from base64), every close defaulted, so that playing a script
 * allocates nothing per frame. Runtime-neutral: the player
 * ({@link OpenSockets}) sends these over each runtime's {@link ScriptSocket}.
 *
 * @module
 */
import type { SocketClose, SocketFrame, SocketReply, WebSocketAnswer } from '../../api/answer-websocket.js';
import { frameText } from '../../api/answer-websocket.js';
import type { RequestFilter } from '../../api/journal-json.js';
import { base64Bytes } from '../../codec/base64.js';
import type { SocketProtocol } from './open-sockets.js';

/** One frame, ready to send. */
export interface PreparedFrame {
  /** Text for a text frame, bytes for a binary frame. */
  readonly data: string | Uint8Array;
  /** The bytes on the wire (a text frame's UTF-8), encoded once for the journal. */
  readonly bytes: Uint8Array;
  readonly delay: number;
}

const encoder = new TextEncoder();

/** A close, defaulted: code 1000 and no reason unless given. */
export interface PreparedClose {
  readonly delay: number;
  readonly code: number;
  readonly reason: string;
  readonly drop: boolean;
}

/** One reply of a script. */
export interface PreparedReply {
  readonly match: RequestFilter | undefined;
  readonly send: readonly PreparedFrame[];
  readonly close: PreparedClose | undefined;
}

/** A route's script, prepared. */
export interface SocketScript {
  readonly protocols: readonly string[];
  readonly onOpen: readonly PreparedFrame[];
  readonly on: readonly PreparedReply[];
  readonly close: PreparedClose | undefined;
  /** A protocol the server speaks itself on the connection (graphql-ws), instead of `on`'s replies. */
  readonly speaks?: SocketProtocol;
}

/** A frame as it goes out: its text or its bytes. */
export function prepareFrame(frame: SocketFrame): PreparedFrame {
  const text = frameText(frame);
  const data = text ?? base64Bytes(frame.bytes ?? '');
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return Object.freeze({ data, bytes, delay: frame.delay ?? 0 });
}

/** A close with its defaults. */
export function prepareClose(close: SocketClose): PreparedClose {
  return Object.freeze({
    delay: close.delay ?? 0,
    code: close.code ?? 1000,
    reason: close.reason ?? '',
    drop: close.drop === true,
  });
}

function prepareReply(reply: SocketReply): PreparedReply {
  return Object.freeze({
    match: reply.match,
    send: Object.freeze((reply.send ?? []).map(prepareFrame)),
    close: reply.close === undefined ? undefined : prepareClose(reply.close),
  });
}

/** Prepares a checked `websocket` answer. */
export function prepareScript(answer: WebSocketAnswer): SocketScript {
  return Object.freeze({
    protocols: Object.freeze([...(answer.protocols ?? [])]),
    onOpen: Object.freeze((answer.onOpen ?? []).map(prepareFrame)),
    on: Object.freeze((answer.on ?? []).map(prepareReply)),
    close: answer.close === undefined ? undefined : prepareClose(answer.close),
  });
}

/** Approximate memory a script holds, for the route cache's bound. */
export function scriptBytes(script: SocketScript): number {
  let bytes = 256;
  const frames = (list: readonly PreparedFrame[]) => {
    for (const frame of list)
      bytes += 32 + (typeof frame.data === 'string' ? frame.data.length * 2 : frame.data.byteLength);
  };
  frames(script.onOpen);
  for (const reply of script.on) {
    bytes += 64 + JSON.stringify(reply.match ?? null).length * 2;
    frames(reply.send);
  }
  return bytes;
}

/**
 * The subprotocol chosen for a handshake: the first one the client offers
 * (`Sec-WebSocket-Protocol`, comma-separated) that the script lists;
 * `undefined` when the script lists none or none matches (the handshake then
 * names none, and a client that insisted on one fails it).
 */
export function chooseProtocol(offered: string | undefined, spoken: readonly string[]): string | undefined {
  if (offered === undefined || spoken.length === 0) return undefined;
  for (const one of offered.split(',')) {
    const protocol = one.trim();
    if (spoken.includes(protocol)) return protocol;
  }
  return undefined;
}
