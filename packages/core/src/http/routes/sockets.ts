/**
 * `/api/endpoints/{name}/sockets`: the WebSocket connections open for a name
 * (docs/websocket.md): list them, send a message to one or all, close one or
 * all (a close frame with a code, or dropped without one). A socket lives in
 * the server that accepted it: behind several replicas, each lists and reaches
 * its own connections only.
 *
 * @module
 */
import type { Hono } from 'hono';
import type { GraphqlWsPush } from '../../answer/websocket/graphql-ws.js';
import { prepareClose, prepareFrame } from '../../answer/websocket/socket-script.js';
import { checkClose, checkFrame, type SocketClose, type SocketFrame } from '../../api/answer-websocket.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { JsonText } from '../../codec/json-text.js';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { readDoc, writeDoc } from './responses.js';

const SEND_FIELDS = new Set(['connection', 'text', 'json', 'bytes']);
/** A push to graphql-ws subscriptions instead of a frame. */
const PUSH_FIELDS = new Set(['connection', 'next', 'complete', 'operationName', 'subscription']);
const CLOSE_FIELDS = new Set(['connection', 'code', 'reason', 'drop']);

/** The body's members parsed (`json` kept as its exact text), unknown fields refused. */
function bodyOf(members: ReadonlyMap<string, string>, fields: ReadonlySet<string>): Record<string, unknown> {
  const unknown = [...members.keys()].filter((key) => !fields.has(key));
  if (unknown.length > 0) throw new MockpointError('UNKNOWN_FIELD', `unknown field(s): ${unknown.join(', ')}`);
  return Object.fromEntries(
    [...members].map(([key, text]) => [key, key === 'json' ? new JsonText(text) : JSON.parse(text)]),
  );
}

function connectionOf(body: Record<string, unknown>): { connection?: string } {
  const { connection } = body;
  if (connection === undefined) return {};
  if (typeof connection !== 'string') throw new MockpointError('INVALID_WEBSOCKET', 'connection is a string (an id)');
  return { connection };
}

const invalid = (message: string): never => {
  throw new MockpointError('INVALID_WEBSOCKET', message);
};

function json(value: unknown): Response {
  return new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export function registerSocketRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'describe' | 'options' | 'schemas' | 'sockets'>,
): void {
  const { sockets, schemas, options } = ctx;

  /** `{ next?, complete?, operationName?, subscription?, connection? }`: an event for graphql-ws subscriptions. */
  const pushed = (name: string, members: ReadonlyMap<string, string>): number => {
    const unknown = [...members.keys()].filter((key) => !PUSH_FIELDS.has(key));
    if (unknown.length > 0) {
      throw new MockpointError(
        'UNKNOWN_FIELD',
        `unknown field(s) beside next or complete: ${unknown.join(', ')} (a push to GraphQL subscriptions takes connection, next, complete, operationName, subscription)`,
      );
    }
    const body = Object.fromEntries([...members].map(([key, text]) => [key, JSON.parse(text)]));
    const target = connectionOf(body);
    const push: GraphqlWsPush = {};
    const next = members.get('next');
    if (next !== undefined) {
      if (typeof body.next !== 'object' || body.next === null || Array.isArray(body.next)) {
        invalid('next is a GraphQL result, an object { data?, errors? }');
      }
      if (new TextEncoder().encode(next).byteLength > sockets.maxFrameBytes - 1024) {
        invalid(`next is larger than a message may be (MOCKPOINT_MAX_SOCKET_FRAME_BYTES, less 1 KiB for the envelope)`);
      }
      push.next = next;
    }
    if (body.complete !== undefined) {
      if (body.complete !== true) invalid('complete is true (ends the subscriptions with a complete message)');
      push.complete = true;
    }
    for (const key of ['operationName', 'subscription'] as const) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || value === '') invalid(`${key} is a non-empty string`);
      push[key] = value as string;
    }
    return sockets.push(name, push, target);
  };
  const base = '/api/endpoints/:name/sockets';

  app.get(base, (c) => json({ sockets: sockets.list(pathName(c.req.param('name'))) }));

  app.post(`${base}/send`, async (c) => {
    const name = pathName(c.req.param('name'));
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes);
    if (members.has('next') || members.has('complete')) return json({ count: pushed(name, members) });
    const body = bodyOf(members, SEND_FIELDS);
    const target = connectionOf(body);
    const { connection: _connection, ...frame } = body;
    checkFrame(frame as SocketFrame, { maxSocketFrameBytes: sockets.maxFrameBytes, maxDelayMs: 0 }, invalid);
    return json({ count: sockets.send(name, prepareFrame(frame as SocketFrame), target) });
  });

  app.post(`${base}/close`, async (c) => {
    const name = pathName(c.req.param('name'));
    // Read once under the body limit: an empty body (close all with 1000) is `{}`.
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes, { emptyIsObject: true });
    const body = bodyOf(members, CLOSE_FIELDS);
    const target = connectionOf(body);
    const { connection: _connection, ...close } = body;
    if (close.code !== undefined && typeof close.code !== 'number') invalid('code is a number');
    if (close.reason !== undefined && typeof close.reason !== 'string') invalid('reason is a string');
    if (close.drop !== undefined && typeof close.drop !== 'boolean') invalid('drop is true or false');
    checkClose(close as SocketClose, 0, invalid);
    return json({ count: sockets.close(name, prepareClose(close as SocketClose), target) });
  });

  const params = { name: { description: 'Endpoint name.', schema: schemas.name } };
  const errors = ['INVALID_WEBSOCKET', 'SOCKET_NOT_FOUND'] as const;
  ctx.describe?.push(
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/sockets',
        summary:
          'The WebSocket connections open for this name on this server, oldest first (a socket lives in the server that accepted it; replicas each list their own).',
        tag: 'sockets',
        params,
      },
      { description: 'The open connections.', schema: schemas.socketsPage },
    ),
    writeDoc(
      schemas,
      {
        method: 'post',
        path: '/api/endpoints/{name}/sockets/send',
        summary:
          'Send one message now to one open connection (connection: its id) or to every one of this name; journaled as an outgoing message. With next (a GraphQL result) or complete: true instead of a frame, an event for the active graphql-ws subscriptions (those of operationName, or the one subscription id, when given); count is then the subscriptions reached.',
        tag: 'sockets',
        params,
        body: schemas.socketSend,
      },
      { 200: { description: 'How many connections it went to.', schema: schemas.socketCount } },
      errors,
    ),
    writeDoc(
      schemas,
      {
        method: 'post',
        path: '/api/endpoints/{name}/sockets/close',
        summary:
          'Close one open connection or every one of this name: a close frame with code (default 1000) and reason, or drop: true to cut the TCP connection without one. An empty body closes all with 1000.',
        tag: 'sockets',
        params,
        body: schemas.socketCloseRequest,
      },
      { 200: { description: 'How many connections it closed.', schema: schemas.socketCount } },
      errors,
    ),
  );
}
