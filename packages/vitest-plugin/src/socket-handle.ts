/**
 * Socket handles: what `mock.socket('chat')` returns. The WebSocket side of one
 * name (docs/websocket.md): its `ws://` URLs, the connections open now, send
 * and close from the test, and the messages journaled both ways, waited for
 * with the one request filter.
 *
 * @module
 */
import type {
  GraphqlPush,
  JournalEntry,
  MockpointClient,
  RequestFilter,
  SocketFrame,
  SocketInfo,
} from '@mockpoint/core';
import { NameHandle } from './name-handle.js';

/** A message to send: text, or one of `{ text }`, `{ json }` (sent as its JSON text), `{ bytes }` (base64). */
export type SocketMessage = string | Omit<SocketFrame, 'delay'>;

/** Which journaled messages count for {@link SocketHandle.waitForMessages} and {@link SocketHandle.messages}. */
export interface MessageOptions {
  /** `in`: from the client (default); `out`: sent by mockpoint. */
  direction?: 'in' | 'out';
  /** One connection's id. */
  connection?: string;
  /** The one filter over the message: `body` is a JSON subset of it, or its exact text. */
  match?: RequestFilter;
}

/** Options for {@link SocketHandle.waitForMessages}. */
export interface WaitMessagesOptions extends MessageOptions {
  /** How many messages to wait for. @default 1 */
  count?: number;
  /** Give up after this many milliseconds (`WAIT_TIMEOUT`). @default 4000 */
  timeout?: number;
  /** Count only journal entries with a greater id. @default 0 */
  after?: number;
}

/**
 * The WebSocket side of a name.
 * @example
 * const chat = mock.socket('chat')
 * await mock.api('chat', [{ answer: { websocket: { onOpen: [{ json: { type: 'hello' } }] } } }])
 * const client = new WebSocket(chat.url)
 * const [message] = await chat.waitForMessages({ match: { body: { type: 'join' } } })
 * await chat.send({ json: { type: 'notice' } })
 * await expect(chat).toHaveReceivedMessage({ type: 'join' })
 */
export interface SocketHandle {
  /** The endpoint name. */
  readonly name: string;
  /** The bare `ws://` URL of the name. */
  readonly url: string;
  /** The `ws://` URL of a path below the name. */
  urlFor(subpath: string): string;
  /** The connections open now, oldest first. */
  connections(): Promise<SocketInfo[]>;
  /** Sends one message to every open connection, or one (`connection`); resolves with how many it went to. */
  send(message: SocketMessage, options?: { connection?: string }): Promise<number>;
  /**
   * Pushes an event to the active graphql-ws subscriptions of the name (those
   * of `operationName`, or the one `subscription` id, when given): a `next`
   * with this result, and/or `complete`. Resolves with how many subscriptions
   * it reached (docs/graphql.md).
   * @example await mock.socket('gh').push({ operationName: 'OnStar', next: { data: { starred: { id: '1' } } } })
   */
  push(push: GraphqlPush): Promise<number>;
  /**
   * Closes every open connection, or one: a close frame with `code` (default
   * 1000) and `reason`, or `drop: true` (cut without a close frame).
   */
  close(options?: { connection?: string; code?: number; reason?: string; drop?: boolean }): Promise<number>;
  /** The messages journaled so far (incoming unless `direction` says), oldest first. */
  messages(options?: MessageOptions): Promise<JournalEntry[]>;
  /**
   * Waits (server-side long-poll) until `count` messages matching have been
   * journaled, and returns them.
   * @throws MockpointError `WAIT_TIMEOUT` after `timeout` ms.
   */
  waitForMessages(options?: WaitMessagesOptions): Promise<JournalEntry[]>;
}

/** The journal filter of messages: method MESSAGE, the direction and connection, and the caller's match. */
function messageFilter(options: MessageOptions): RequestFilter {
  const websocket: NonNullable<RequestFilter['websocket']> = { direction: options.direction ?? 'in' };
  if (options.connection !== undefined) websocket.connection = options.connection;
  return { ...options.match, method: 'MESSAGE', websocket };
}

/** Marks a socket handle across copies of this module (the setup entry's matchers and the main entry). */
const SOCKET_HANDLE = Symbol.for('mockpoint.socketHandle');

/** The `ws://` URL of `subpath` under `name`. */
function socketUrl(client: MockpointClient, name: string, subpath: string): string {
  return client.endpointUrl(name, subpath).replace(/^http/, 'ws');
}

class Socket extends NameHandle implements SocketHandle {
  readonly [SOCKET_HANDLE] = true;

  constructor(client: MockpointClient, name: string) {
    super(client, name, socketUrl(client, name, ''));
  }

  urlFor(subpath: string): string {
    return socketUrl(this.client, this.name, subpath);
  }

  connections(): Promise<SocketInfo[]> {
    return this.client.sockets(this.name);
  }

  send(message: SocketMessage, options: { connection?: string } = {}): Promise<number> {
    return this.client.sendSocket(this.name, typeof message === 'string' ? { text: message } : message, options);
  }

  push(push: GraphqlPush): Promise<number> {
    return this.client.pushGraphql(this.name, push);
  }

  close(options: { connection?: string; code?: number; reason?: string; drop?: boolean } = {}): Promise<number> {
    return this.client.closeSockets(this.name, options);
  }

  messages(options: MessageOptions = {}): Promise<JournalEntry[]> {
    return this.client.requests(this.name, { match: messageFilter(options) });
  }

  waitForMessages(options: WaitMessagesOptions = {}): Promise<JournalEntry[]> {
    const { count, timeout, after } = options;
    return this.client.waitForRequests(this.name, { count, timeout, after, match: messageFilter(options) });
  }
}

/** Whether `value` is a {@link SocketHandle} (what the message matchers take). */
export function isSocketHandle(value: unknown): value is SocketHandle {
  return (
    typeof value === 'object' && value !== null && (value as { [SOCKET_HANDLE]?: boolean })[SOCKET_HANDLE] === true
  );
}

/** The {@link SocketHandle} of `name`. */
export function createSocketHandle(client: MockpointClient, name: string): SocketHandle {
  return new Socket(client, name);
}
