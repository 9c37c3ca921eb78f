/**
 * The `graphql-ws` protocol (subprotocol `graphql-transport-ws`) spoken on a
 * WebSocket of a name in schema mode: `connection_init` → `connection_ack`,
 * `ping` → `pong`, `subscribe` answered with `next` (then `complete`) or
 * `error`, `complete` from the client ending a subscription; a message out of
 * protocol closes the connection with the code a graphql-ws server uses (4400,
 * 4401, 4408, 4409, 4429). Runtime-neutral: it only sends text and closes
 * through the script player's {@link SocketPeer} (every frame journaled there).
 *
 * What answers an operation is handed in ({@link GraphqlWsOptions.answer}: a
 * route first, then the schema's mocks); a subscription gets `events`
 * deterministic events `intervalMs` apart, then `complete`, and whatever the
 * sockets API pushes ({@link GraphqlWsPush}) while it is active.
 *
 * @module
 */

import { jsonValueOf } from '../../codec/json-value.js';
import { type GraphqlOperation, graphqlOperationOf } from '../../graphql/graphql-request.js';
import type { SocketConversation, SocketPeer } from './open-sockets.js';

/** The subprotocol graphql-ws speaks (the older `graphql-ws` of subscriptions-transport-ws is another protocol). */
export const GRAPHQL_WS_PROTOCOL = 'graphql-transport-ws';

/** How long a client may take to send `connection_init` (graphql-ws's default), in ms; then 4408. */
const INIT_TIMEOUT_MS = 3000;

/** Subscriptions one connection may hold at once; one more closes it with 4400. */
export const MAX_SUBSCRIPTIONS = 1000;

/** Longest operation id, in UTF-16 code units. */
const MAX_ID_LENGTH = 256;

/** What answers one operation: a result's exact JSON text for `next`, or the errors for `error`. */
export type GraphqlWsResult = { readonly next: string } | { readonly errors: string };

/** Options of one graphql-ws connection. */
export interface GraphqlWsOptions {
  /**
   * The answer to `operation` (whose `subscribe` payload was `payload`, as
   * text): `event` is absent for a query or mutation, the event's index for a
   * subscription. `undefined`: no route answers and the name holds no schema
   * any more.
   */
  answer(
    operation: GraphqlOperation,
    payload: string,
    event: number | undefined,
  ): GraphqlWsResult | undefined | Promise<GraphqlWsResult | undefined>;
  /** Events a subscription gets from the schema before `complete` (0: none; it stays open). */
  events: number;
  /** Milliseconds before each of them. */
  intervalMs: number;
  /** Reports a failure no message accounts for; never throws. */
  report(error: unknown): void;
}

/**
 * A push from the sockets API to the active subscriptions of a connection
 * (those whose `operationName`, or `subscription` id, is the one given; all
 * when neither is): one `next` with this payload, or `complete`.
 */
export interface GraphqlWsPush {
  /** The `next` message's payload, as exact JSON text (an object: `{ data?, errors? }`). */
  next?: string;
  complete?: true;
  operationName?: string;
  subscription?: string;
}

/** One active operation of a connection. */
interface Active {
  readonly operation: GraphqlOperation;
  readonly payload: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  sent: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optional = (value: unknown, ok: (value: unknown) => boolean) =>
  value === undefined || value === null || ok(value);

/** Speaks graphql-ws on one connection. */
export function speakGraphqlWs(peer: SocketPeer, options: GraphqlWsOptions): SocketConversation {
  let initialised = false;
  let acknowledged = false;
  const { active, send, next, complete, finish, start } = createOperations(peer, options);
  let initTimer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    initTimer = undefined;
    if (!initialised) peer.close(4408, 'Connection initialisation timeout');
  }, INIT_TIMEOUT_MS);

  const subscribe = (message: Record<string, unknown>) => {
    if (!acknowledged) {
      peer.close(4401, 'Unauthorized');
      return;
    }
    const { id, payload } = message;
    if (
      typeof id !== 'string' ||
      id === '' ||
      id.length > MAX_ID_LENGTH ||
      !isObject(payload) ||
      typeof payload.query !== 'string' ||
      !optional(payload.operationName, (v) => typeof v === 'string') ||
      !optional(payload.variables, isObject) ||
      !optional(payload.extensions, isObject)
    ) {
      peer.close(4400, 'Invalid message received');
      return;
    }
    if (active.has(id)) {
      peer.close(4409, `Subscriber for ${id.slice(0, 64)} already exists`);
      return;
    }
    if (active.size >= MAX_SUBSCRIPTIONS) {
      peer.close(4400, `At most ${MAX_SUBSCRIPTIONS} operations at once on one connection`);
      return;
    }
    start(id, payload);
  };

  return {
    message(text) {
      const message = text === undefined ? undefined : jsonValueOf(text);
      if (!isObject(message) || typeof message.type !== 'string') {
        peer.close(4400, 'Invalid message received');
        return;
      }
      switch (message.type) {
        case 'connection_init':
          if (initialised) {
            peer.close(4429, 'Too many initialisation requests');
            return;
          }
          if (!optional(message.payload, isObject)) {
            peer.close(4400, 'Invalid message received');
            return;
          }
          initialised = true;
          acknowledged = true;
          clearTimeout(initTimer);
          send('{"type":"connection_ack"}');
          return;
        case 'ping':
          send(
            isObject(message.payload)
              ? `{"type":"pong","payload":${JSON.stringify(message.payload)}}`
              : '{"type":"pong"}',
          );
          return;
        case 'pong':
          return;
        case 'subscribe':
          subscribe(message);
          return;
        case 'complete': {
          if (typeof message.id !== 'string') {
            peer.close(4400, 'Invalid message received');
            return;
          }
          const one = active.get(message.id);
          if (one !== undefined) finish(message.id, one);
          return;
        }
        default:
          peer.close(4400, `Unexpected message of type ${message.type.slice(0, 64)} received`);
      }
    },
    closed() {
      clearTimeout(initTimer);
      for (const one of active.values()) clearTimeout(one.timer);
      active.clear();
    },
    push(push) {
      const { next: payload, complete: end, operationName, subscription } = push as GraphqlWsPush;
      let reached = 0;
      for (const [id, one] of [...active]) {
        if (one.operation.operationType !== 'subscription') continue;
        if (subscription !== undefined && id !== subscription) continue;
        if (operationName !== undefined && one.operation.operationName !== operationName) continue;
        reached++;
        if (payload !== undefined) next(id, payload);
        if (end === true) {
          finish(id, one);
          complete(id);
        }
      }
      return reached;
    },
  };
}

/** The operations of one connection: their answers, events and ends, and the messages that carry them. */
function createOperations(peer: SocketPeer, options: GraphqlWsOptions) {
  const active = new Map<string, Active>();
  const send = (message: string) => {
    if (peer.open) peer.sendText(message);
  };
  const idText = (id: string) => JSON.stringify(id);
  const next = (id: string, payload: string) => send(`{"id":${idText(id)},"type":"next","payload":${payload}}`);
  const complete = (id: string) => send(`{"id":${idText(id)},"type":"complete"}`);

  const finish = (id: string, one: Active) => {
    if (active.get(id) !== one) return;
    clearTimeout(one.timer);
    active.delete(id);
  };

  /** Sends what answered (`event` of a subscription, or the one answer of a query); whether the operation goes on. */
  const deliver = (id: string, one: Active, result: GraphqlWsResult | undefined): boolean => {
    if (active.get(id) !== one || !peer.open) return false;
    if (result === undefined) {
      finish(id, one);
      send(
        `{"id":${idText(id)},"type":"error","payload":${JSON.stringify([{ message: 'This name holds no GraphQL schema any more, and no route answers this operation.' }])}}`,
      );
      return false;
    }
    if ('errors' in result) {
      finish(id, one);
      send(`{"id":${idText(id)},"type":"error","payload":${result.errors}}`);
      return false;
    }
    next(id, result.next);
    return true;
  };

  const fail = (id: string, one: Active, error: unknown) => {
    options.report(error);
    if (active.get(id) !== one) return;
    finish(id, one);
    send(`{"id":${idText(id)},"type":"error","payload":[{"message":"Internal error; see the server log."}]}`);
  };

  /** Computes one answer, then hands it to `use` (now, or once a stateful route has answered). */
  const compute = (
    id: string,
    one: Active,
    event: number | undefined,
    use: (result: GraphqlWsResult | undefined) => void,
  ) => {
    let result: ReturnType<GraphqlWsOptions['answer']>;
    try {
      result = options.answer(one.operation, one.payload, event);
    } catch (error) {
      fail(id, one, error);
      return;
    }
    if (result instanceof Promise) result.then(use, (error: unknown) => fail(id, one, error));
    else use(result);
  };

  /** After `intervalMs`, sends `result` (event `one.sent`), then computes the next event or completes. */
  const schedule = (id: string, one: Active, result: GraphqlWsResult | undefined) => {
    // Ended meanwhile (the client's complete, a push, the close): no timer is left behind.
    if (active.get(id) !== one) return;
    one.timer = setTimeout(() => {
      one.timer = undefined;
      if (!deliver(id, one, result)) return;
      one.sent++;
      if (one.sent >= options.events) {
        finish(id, one);
        complete(id);
        return;
      }
      compute(id, one, one.sent, (later) => schedule(id, one, later));
    }, options.intervalMs);
  };

  /** Starts the operation `id` of a valid `subscribe`: a query or mutation answers once, a subscription with events. */
  const start = (id: string, payload: Record<string, unknown>) => {
    const operation = graphqlOperationOf(payload) as GraphqlOperation;
    const one: Active = { operation, payload: JSON.stringify(payload), timer: undefined, sent: 0 };
    active.set(id, one);
    if (operation.operationType !== 'subscription') {
      compute(id, one, undefined, (result) => {
        if (!deliver(id, one, result)) return;
        finish(id, one);
        complete(id);
      });
      return;
    }
    // The first event is made at once, so a subscription the schema refuses gets its `error` without a wait.
    compute(id, one, 0, (result) => {
      if (result === undefined || 'errors' in result) {
        deliver(id, one, result);
        return;
      }
      if (options.events > 0) schedule(id, one, result);
    });
  };

  return { active, send, next, complete, finish, start };
}
