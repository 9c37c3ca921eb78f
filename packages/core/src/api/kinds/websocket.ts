/**
 * The websocket kind: accept a WebSocket upgrade and play a script (routes
 * only; see docs/websocket.md).
 *
 * @module
 */

import { z } from 'zod';
import { SETTINGS } from '../../registry/settings.js';
import type { RouteSchemaParts } from '../answer-kind.js';
import { answerKind } from '../answer-kind.js';
import { checkWebSocket, MAX_CLOSE_REASON_BYTES, websocketFromJson } from '../answer-websocket.js';

/** A WebSocket answer's script, its frames and its close. */
function createWebSocketSchemas(parts: RouteSchemaParts) {
  const socketFrame = z
    .strictObject({
      delay: parts.delay
        .optional()
        .describe(
          'Milliseconds after the previous frame (after the handshake, or the message answered, for the first); default 0.',
        ),
      text: z.string().optional().describe('A text frame.'),
      json: parts.data.optional().describe("A text frame holding this JSON value's exact text."),
      bytes: z.string().optional().describe('A binary frame: bytes in base64.'),
    })
    .meta({ title: 'SocketFrame', description: 'One message: exactly one of text, json and bytes.' });
  const socketClose = z
    .strictObject({
      delay: parts.delay.optional().describe('Milliseconds after the frames before it; default 0.'),
      code: z.number().int().optional().describe('1000–1003, 1007–1014 or 3000–4999 (RFC 6455 §7.4); default 1000.'),
      reason: z.string().optional().describe(`At most ${MAX_CLOSE_REASON_BYTES} bytes of UTF-8.`),
      drop: z.boolean().optional().describe('Cut the TCP connection without a close frame (no code or reason then).'),
    })
    .meta({ title: 'SocketClose', description: 'Close the connection: a close frame, or a dropped connection.' });
  const websocket = z
    .strictObject({
      protocols: z
        .array(z.string())
        .optional()
        .describe(
          'Subprotocols spoken: the first one the client offers (Sec-WebSocket-Protocol) that is listed is chosen.',
        ),
      onOpen: z.array(socketFrame).optional().describe('Sent once the connection is open, each after its delay.'),
      on: z
        .array(
          z.strictObject({
            match: parts.requestFilter
              .optional()
              .describe(
                "The one filter over an incoming message: body is a JSON subset of it (a string matches its exact text); path, query and headers are the upgrade request's. Absent: every message.",
              ),
            send: z.array(socketFrame).optional().describe('Frames sent in reply, each after its delay.'),
            close: socketClose.optional(),
          }),
        )
        .optional()
        .describe('For each incoming message, the first entry whose match holds is played.'),
      close: socketClose.optional().describe('Close once onOpen is sent; absent: stay open.'),
    })
    .meta({
      title: 'WebSocketAnswer',
      description: 'Accept the WebSocket upgrade and play this script (routes only; see docs/websocket.md).',
    });
  return { socketFrame, socketClose, websocket };
}

const socketSchemas = new WeakMap<RouteSchemaParts, ReturnType<typeof createWebSocketSchemas>>();

/** The WebSocket schemas built from these parts, built once (the frames' are reused by the sockets' API). */
export function webSocketSchemas(parts: RouteSchemaParts): ReturnType<typeof createWebSocketSchemas> {
  let schemas = socketSchemas.get(parts);
  if (schemas === undefined) {
    schemas = createWebSocketSchemas(parts);
    socketSchemas.set(parts, schemas);
  }
  return schemas;
}

export const websocketKind = answerKind({
  key: 'websocket',
  noun: 'a websocket answer',
  code: 'INVALID_WEBSOCKET',
  schema: (parts) => webSocketSchemas(parts).websocket,
  describe:
    "Accept a WebSocket upgrade (a GET with Upgrade: websocket) and play a script; beside it only delay (the handshake's), headers (of the 101) and setState. A request without the upgrade gets 426 WEBSOCKET_REQUIRED.",
  fromJson: websocketFromJson,
  beside: {
    fields: ['delay', 'latency', 'headers', 'setState'],
    says: 'its script (with delay, headers and setState beside it)',
  },
  routesOnly: true,
  checkOrder: 3,
  check(answer, { at, limits }) {
    checkWebSocket(answer.websocket as NonNullable<typeof answer.websocket>, {
      maxSocketFrameBytes: limits.maxSocketFrameBytes ?? SETTINGS.maxSocketFrameBytes.default,
      maxDelayMs: limits.maxDelayMs ?? SETTINGS.maxDelayMs.default,
      maxStreamEvents: limits.maxStreamEvents ?? SETTINGS.maxStreamEvents.default,
      where: `routes[${at}].answer`,
      details: { index: at },
    });
  },
  forms: { wiremock: false, mockoon: false },
});
