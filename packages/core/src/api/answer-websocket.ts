/**
 * WebSocket answers as they cross the wire: `websocket: { protocols?, onOpen?,
 * on?, close? }` in a route's answer, its JSON (each `json` frame kept as its
 * exact text), the frames the sockets API sends, and the checks the schema
 * cannot state (one form per frame, base64, frame sizes, delays, close codes
 * per RFC 6455, the `match` of a reply), each with a stable code.
 *
 * @module
 */
import { isBase64 } from '../codec/base64.js';
import { isToken } from '../codec/http-header.js';
import { JsonText, jsonTextOf, scanJson } from '../codec/json-text.js';
import { PathPatternError, parsePathPattern } from '../pattern/path-pattern.js';
import { MockpointError } from '../registry/errors.js';
import type { RequestFilter } from './journal-json.js';

/**
 * One message the server sends: `text` (a text frame), `json` (a text frame
 * holding the value's exact JSON text) or `bytes` (a binary frame, in base64).
 * @example { json: { type: 'hello' }, delay: 100 }
 */
export interface SocketFrame {
  /** Milliseconds after the previous frame of the same script (after the handshake, for the first). @default 0 */
  delay?: number;
  text?: string;
  json?: unknown;
  /** Bytes in base64, sent as a binary frame. */
  bytes?: string;
}

/**
 * How the server ends a connection: a close frame with `code` and `reason`, or,
 * with `drop`, the TCP connection cut without a close frame (a server that died).
 * @example { code: 1001, reason: 'going away', delay: 500 }
 */
export interface SocketClose {
  /** Milliseconds after the frames before it. @default 0 */
  delay?: number;
  /** 1000–1003, 1007–1014 or 3000–4999 (RFC 6455 §7.4). @default 1000 */
  code?: number;
  /** At most 123 bytes of UTF-8. @default '' */
  reason?: string;
  /** Cut the connection without a close frame (then no code or reason). @default false */
  drop?: boolean;
}

/** What the script does with an incoming message that `match` holds for: send frames, then perhaps close. */
export interface SocketReply {
  /**
   * The one request filter, read over the message: `body` is a JSON subset of
   * the message (a string also matches its exact text); `path`, `query` and
   * `headers` are the upgrade request's. Absent: every message.
   */
  match?: RequestFilter;
  send?: SocketFrame[];
  close?: SocketClose;
}

/**
 * A route's WebSocket answer: the upgrade is accepted and this script played.
 * @example { protocols: ['chat.v1'], onOpen: [{ json: { type: 'welcome' } }], on: [{ match: { body: { type: 'ping' } }, send: [{ json: { type: 'pong' } }] }] }
 */
export interface WebSocketAnswer {
  /** Subprotocols the server speaks: the first the client offers (`Sec-WebSocket-Protocol`) that is here is chosen. */
  protocols?: string[];
  /** Sent once the connection is open, each after its delay. */
  onOpen?: SocketFrame[];
  /** For each incoming message, the first reply whose `match` holds is played; a message no reply matches is journaled only. */
  on?: SocketReply[];
  /** Close after `onOpen` has been sent (absent: the connection stays open until the client or the API closes it). */
  close?: SocketClose;
}

/** One open connection, as the sockets API lists it. */
export interface SocketInfo {
  /** The connection's id, as its journal entries name it. */
  id: string;
  /** The id of the route whose script plays on it. */
  route: string;
  /** The path below `/endpoint/{name}` it was opened at. */
  subpath: string;
  /** The subprotocol chosen, or `null`. */
  protocol: string | null;
  /** ISO 8601 time it opened. */
  openedAt: string;
  /** Messages received from the client. */
  received: number;
  /** Messages sent to it. */
  sent: number;
}

/** The limits a script is checked against. */
export interface SocketLimits {
  /** Largest message, in bytes. */
  maxSocketFrameBytes: number;
  /** Largest delay of one frame. */
  maxDelayMs: number;
  /** Most frames in one list. */
  maxStreamEvents: number;
}

/** Replies one script may have at most. */
export const MAX_SOCKET_REPLIES = 100;

/** The forms of a frame, in the order the docs list them. */
export const FRAME_FORMS = ['text', 'json', 'bytes'] as const;

/** Whether `code` may be sent in a close frame (RFC 6455 §7.4: 1004–1006 and 1015 are reserved). */
export function isSendableCloseCode(code: number): boolean {
  return (
    Number.isInteger(code) &&
    ((code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
      (code >= 3000 && code <= 4999))
  );
}

/** Largest close reason, in UTF-8 bytes (a control frame holds 125 bytes, 2 of them the code). */
export const MAX_CLOSE_REASON_BYTES = 123;

const encoder = new TextEncoder();

/** The text of a `text` or `json` frame, or `undefined` for `bytes`. */
export function frameText(frame: SocketFrame): string | undefined {
  if (frame.text !== undefined) return frame.text;
  if (Object.hasOwn(frame, 'json')) return jsonTextOf(frame.json);
  return undefined;
}

/** The bytes a frame carries once encoded. */
export function frameBytes(frame: SocketFrame): number {
  const text = frameText(frame);
  if (text !== undefined) return encoder.encode(text).byteLength;
  const base64 = frame.bytes ?? '';
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

/**
 * Checks one frame (a script's, or one the sockets API sends): exactly one of
 * `text`, `json` and `bytes`, base64 bytes, its size within
 * `maxSocketFrameBytes` and its delay within `maxDelayMs`. `fail` throws.
 */
export function checkFrame(
  frame: SocketFrame,
  limits: Pick<SocketLimits, 'maxSocketFrameBytes' | 'maxDelayMs'>,
  fail: (message: string) => never,
): void {
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    fail('a frame is an object { text } | { json } | { bytes }, with an optional delay');
  }
  const forms = FRAME_FORMS.filter((form) => Object.hasOwn(frame, form));
  if (forms.length !== 1)
    fail(`a frame has exactly one of text, json and bytes (it has ${forms.join(', ') || 'none'})`);
  if (frame.text !== undefined && typeof frame.text !== 'string') fail('text is a string');
  if (frame.bytes !== undefined && (typeof frame.bytes !== 'string' || !isBase64(frame.bytes))) {
    fail('bytes is not base64 (A-Z a-z 0-9 + /, padded with =)');
  }
  const delay = frame.delay ?? 0;
  if (!Number.isInteger(delay) || delay < 0 || delay > limits.maxDelayMs) {
    fail(`delay is ${delay}; a whole number of milliseconds 0–${limits.maxDelayMs} (MOCKPOINT_MAX_DELAY_MS)`);
  }
  const bytes = frameBytes(frame);
  if (bytes > limits.maxSocketFrameBytes) {
    fail(
      `the frame is ${bytes} bytes, more than the limit ${limits.maxSocketFrameBytes} (MOCKPOINT_MAX_SOCKET_FRAME_BYTES)`,
    );
  }
}

/** Checks a close: a sendable code, a reason within 123 bytes, and `drop` alone (with its delay). */
export function checkClose(close: SocketClose, maxDelayMs: number, fail: (message: string) => never): void {
  const delay = close.delay ?? 0;
  if (!Number.isInteger(delay) || delay < 0 || delay > maxDelayMs) {
    fail(`delay is ${delay}; a whole number of milliseconds 0–${maxDelayMs} (MOCKPOINT_MAX_DELAY_MS)`);
  }
  if (close.drop === true) {
    if (close.code !== undefined || close.reason !== undefined) {
      fail('drop cuts the connection without a close frame, so code and reason do not apply');
    }
    return;
  }
  if (close.code !== undefined && !isSendableCloseCode(close.code)) {
    fail(
      `code ${close.code} cannot be sent (RFC 6455 §7.4): use 1000–1003, 1007–1014 or 3000–4999 (1004–1006 and 1015 are reserved)`,
    );
  }
  if (close.reason !== undefined && encoder.encode(close.reason).byteLength > MAX_CLOSE_REASON_BYTES) {
    fail(`reason is longer than ${MAX_CLOSE_REASON_BYTES} bytes of UTF-8`);
  }
}

/** The message-filter fields a reply's `match` may not use: nothing of a message has them. */
const MATCH_REFUSED = ['signature', 'state', 'websocket'] as const;

/**
 * Checks a script that passed the schema: its frames, replies and closes, each
 * bad one refused with `INVALID_WEBSOCKET` and where it is (`routes[2].answer.websocket.on[0].send[1]: …`).
 */
export function checkWebSocket(
  socket: WebSocketAnswer,
  options: SocketLimits & { where: string; details?: Record<string, unknown> },
): void {
  const at = `${options.where}.websocket`;
  const failAt =
    (path: string) =>
    (message: string): never => {
      throw new MockpointError('INVALID_WEBSOCKET', `${at}${path}: ${message}`, { details: options.details });
    };
  const frames = (list: SocketFrame[], path: string) => {
    if (list.length > options.maxStreamEvents) {
      failAt(path)(
        `${list.length} frames, more than the limit ${options.maxStreamEvents} (MOCKPOINT_MAX_STREAM_EVENTS)`,
      );
    }
    list.forEach((frame, i) => {
      checkFrame(frame, options, failAt(`${path}[${i}]`));
    });
  };
  const protocols = socket.protocols ?? [];
  protocols.forEach((protocol, i) => {
    if (!isToken(protocol)) failAt(`.protocols[${i}]`)('a subprotocol is a token (visible ASCII, no separators)');
    if (protocols.indexOf(protocol) !== i) failAt(`.protocols[${i}]`)(`${protocol} is listed twice`);
  });
  if (socket.onOpen !== undefined) frames(socket.onOpen, '.onOpen');
  if (socket.close !== undefined) checkClose(socket.close, options.maxDelayMs, failAt('.close'));
  const replies = socket.on ?? [];
  if (replies.length > MAX_SOCKET_REPLIES) {
    failAt('.on')(`${replies.length} replies, more than ${MAX_SOCKET_REPLIES}`);
  }
  replies.forEach((reply, i) => {
    const path = `.on[${i}]`;
    const match = reply.match;
    if (match !== undefined) {
      for (const field of MATCH_REFUSED) {
        if (match[field] !== undefined) failAt(`${path}.match`)(`${field} does not apply to a message`);
      }
      if (typeof match.path === 'string') {
        try {
          parsePathPattern(match.path);
        } catch (error) {
          if (error instanceof PathPatternError) failAt(`${path}.match.path`)(error.message);
          throw error;
        }
      }
    }
    if (reply.send !== undefined) frames(reply.send, `${path}.send`);
    if (reply.close !== undefined) checkClose(reply.close, options.maxDelayMs, failAt(`${path}.close`));
  });
}

/** Frames from a JSON array's text, each `json` kept as its exact text. */
function framesFromJson(text: string): unknown {
  const elements = text.startsWith('[') ? scanJson(text).elements : undefined;
  if (elements === undefined) return JSON.parse(text);
  return elements.map((element) => {
    const fields = element.startsWith('{') ? scanJson(element).members : undefined;
    if (fields === undefined) return JSON.parse(element);
    return Object.fromEntries(
      [...fields].map(([name, field]) => [name, name === 'json' ? new JsonText(field) : JSON.parse(field)]),
    );
  });
}

/** A `websocket` answer from its JSON text, every frame's `json` kept as its exact text. Not checked. */
export function websocketFromJson(text: string): unknown {
  const members = text.startsWith('{') ? scanJson(text).members : undefined;
  if (members === undefined) return JSON.parse(text);
  return Object.fromEntries(
    [...members].map(([key, value]) => {
      if (key === 'onOpen') return [key, framesFromJson(value)];
      if (key !== 'on' || !value.startsWith('[')) return [key, JSON.parse(value)];
      const replies = (scanJson(value).elements ?? []).map((element) => {
        const fields = element.startsWith('{') ? scanJson(element).members : undefined;
        if (fields === undefined) return JSON.parse(element);
        return Object.fromEntries(
          [...fields].map(([name, field]) => [name, name === 'send' ? framesFromJson(field) : JSON.parse(field)]),
        );
      });
      return [key, replies];
    }),
  );
}
