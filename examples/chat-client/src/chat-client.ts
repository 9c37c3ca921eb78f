/**
 * A small chat client library over WebSocket (subprotocol `chat.v1`, JSON messages):
 * join a room and wait to be accepted, say something and wait for the server's ack,
 * collect what others say, and reconnect (and join again) when the connection drops
 * without a close frame; a close with a code is final, its reason kept.
 */
import WebSocket from 'ws';

/** A line someone said in the room. */
export interface ChatLine {
  from: string;
  text: string;
}

/** Options for {@link connectChat}. */
export interface ChatOptions {
  user: string;
  /** Waits this long before reconnecting after a dropped connection. @default 50 */
  retryMs?: number;
  /** Gives up after this many reconnections in a row. @default 3 */
  maxRetries?: number;
}

/** Thrown when the server does not answer a join or a line in time, or the chat is closed. */
export class ChatError extends Error {}

type Incoming =
  | { type: 'joined'; room: string }
  | { type: 'ack'; id: number }
  | { type: 'message'; from: string; text: string }
  | { type: string };

export interface ChatClient {
  /** What others said, in order. */
  readonly lines: readonly ChatLine[];
  /** How many times the client connected (1, then one more per reconnection). */
  readonly connections: number;
  /** Says `text`; resolves once the server acknowledges it. */
  say(text: string): Promise<void>;
  /** Resolves with the code and reason once the server closes the chat for good. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Connects to `url`, joins as `user`, and resolves once the server says `joined`. */
export function connectChat(url: string, options: ChatOptions): Promise<ChatClient> {
  const lines: ChatLine[] = [];
  const acks = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let socket: WebSocket;
  let connections = 0;
  let retries = 0;
  let nextId = 1;
  let ending = false;
  let finish: (value: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    finish = resolve;
  });

  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      connections++;
      socket = new WebSocket(url, ['chat.v1']);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'join', user: options.user })));
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Incoming;
        if (message.type === 'joined') {
          retries = 0;
          resolve();
        } else if (message.type === 'ack') acks.get((message as { id: number }).id)?.resolve();
        else if (message.type === 'message') {
          const { from, text } = message as ChatLine;
          lines.push({ from, text });
        }
      });
      socket.on('error', (error) => reject(new ChatError(`cannot join: ${error.message}`)));
      socket.on('close', (code, reason) => {
        if (ending) return;
        // 1006: the connection broke without a close frame: join again.
        if (code === 1006 && retries < (options.maxRetries ?? 3)) {
          retries++;
          setTimeout(() => open().catch(() => finish({ code, reason: 'gave up reconnecting' })), options.retryMs ?? 50);
          return;
        }
        ending = true;
        // Lines still waiting for their ack never get one.
        for (const ack of acks.values()) ack.reject(new ChatError(`the chat closed (${code} ${reason.toString()})`));
        finish({ code, reason: reason.toString() });
      });
    });

  return open().then(() => ({
    lines,
    get connections() {
      return connections;
    },
    closed,
    say(text: string) {
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChatError(`no ack for line ${id}`)), 2000);
        const settle = () => {
          clearTimeout(timer);
          acks.delete(id);
        };
        acks.set(id, {
          resolve: () => {
            settle();
            resolve();
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        });
        socket.send(JSON.stringify({ type: 'say', id, text }));
      });
    },
    close() {
      ending = true;
      socket.close(1000, 'bye');
    },
  }));
}
