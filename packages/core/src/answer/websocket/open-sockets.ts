/**
 * The WebSocket connections of one app, and the one script player: each
 * runtime accepts the upgrade its own way and hands over a {@link ScriptSocket}
 * (send text or bytes, close, terminate); everything else happens here, once
 * for every runtime: the script's frames, each after its delay and in order;
 * the replies to incoming messages (the first whose `match`, the one request
 * filter, holds); a journal entry for every message and close both ways, with
 * the exact bytes; the sockets API (list, send, close); and the limits (a
 * client that floods with messages or pings is closed with 1008, one that stops
 * reading is cut off, an idle connection is closed with 1001, an unfinished
 * message is timed out, and the connections together keep a share of the
 * connection cap free for the API).
 *
 * A socket lives in the process that accepted it: replicas sharing a Redis
 * backend each list and reach their own connections only.
 *
 * @module
 */

import { MAX_CLOSE_REASON_BYTES, type SocketInfo } from '../../api/answer-websocket.js';
import type { SocketDirection } from '../../api/journal-json.js';
import { toBase64 } from '../../codec/base64.js';
import { jsonValueOf } from '../../codec/json-value.js';
import { firstMismatch } from '../../journal/graphql-filter.js';
import type { Journal } from '../../journal/journal.js';
import type { AnswerMark, RecordedRequest } from '../../journal/journal-entry.js';
import type { FilterSubject } from '../../journal/request-filter.js';
import { MockpointError } from '../../registry/errors.js';
import { JOURNAL_BODY_LIMIT } from '../../registry/limits.js';
import type { SocketSession, UpgradeAnswer } from '../endpoint-answer.js';
import type { PreparedClose, PreparedFrame, SocketScript } from './socket-script.js';

/**
 * What a runtime gives the player for one accepted connection: the only code
 * written per runtime (`adapter/<runtime>/`). Every method is called only while
 * the connection is open and must not throw for a connection closed meanwhile.
 */
export interface ScriptSocket {
  /** Sends a text frame. */
  sendText(text: string): void;
  /** Sends a binary frame. */
  sendBytes(bytes: Uint8Array): void;
  /** Sends a close frame with this code and reason (the closing handshake follows). */
  close(code: number, reason: string): void;
  /** Cuts the TCP connection at once, without a close frame. */
  terminate(): void;
  /** Bytes queued to send and not yet taken by the network (a client that stops reading makes it grow). */
  readonly bufferedAmount: number;
  /** Reads nothing more from the client (its close is sent, whatever it still sends is left unread). Optional. */
  stopReading?(): void;
}

/** What the runtime calls as things happen on a connection the player holds. */
export interface SocketEvents {
  /** A whole message came: text (a string, or its UTF-8 bytes) or, with `binary`, bytes. */
  message(data: string | Uint8Array, binary: boolean): void;
  /** The connection closed, with the code and reason the close frame had (1005: none; 1006: it broke off without one). */
  closed(code: number, reason: string): void;
  /** A ping or pong came (the runtime answers a ping itself): counted with the messages, and against a client that stops reading. */
  control(): void;
  /**
   * Bytes of an unfinished incoming message the runtime holds now (its fragments
   * so far; 0 once it is whole): timed out, and bounded across connections.
   * Called by runtimes that can tell (Node); the others bound it themselves.
   */
  held(bytes: number): void;
}

/**
 * A connection as a protocol the server speaks itself sees it (graphql-ws,
 * `answer/websocket/graphql-ws.ts`): send a text message now, close with a code; both
 * journaled like a script's.
 */
export interface SocketPeer {
  readonly id: string;
  readonly session: SocketSession;
  /** False once either side closed (or began to): then nothing more is sent. */
  readonly open: boolean;
  sendText(text: string): void;
  close(code: number, reason: string): void;
}

/** What the player hands a spoken protocol: each incoming message (after the journal and the limits), the close, and pushes from the API. */
export interface SocketConversation {
  /** A text message (`undefined` for a binary one: its bytes only). */
  message(text: string | undefined, bytes: Uint8Array): void;
  /** The connection closed: free what it holds (timers). */
  closed(): void;
  /** A push from the sockets API; how many receivers it reached on this connection. */
  push?(push: unknown): number;
}

/** A protocol the server speaks on a connection instead of playing a script's replies (the script's `speaks`). */
export type SocketProtocol = (peer: SocketPeer) => SocketConversation;

/** Options for {@link OpenSockets}. */
export interface OpenSocketsOptions {
  journal: Journal;
  /** Connections one name may hold open (one more is refused: 503 `TOO_MANY_SOCKETS`). */
  maxPerName: number;
  /** Largest message either way, in bytes (a runtime closes a client that sends more with 1009). */
  maxFrameBytes: number;
  /**
   * Connections all names may hold open together (one more is refused: 503
   * `TOO_MANY_SOCKETS`), so that the connection cap keeps room for the API.
   * @default Infinity (see {@link socketShareOf})
   */
  maxTotal?: number;
  /** Milliseconds without a message, ping or pong either way before a connection is closed with 1001. @default 300000 */
  idleTimeoutMs?: number;
  /** Milliseconds a client may take to send one whole message before it is closed with 1008. @default 30000 */
  messageTimeoutMs?: number;
  /** Reports a failure no answer accounts for; never throws. */
  report: (error: unknown, request: { method: string; url: string }) => void;
  /** Events a graphql-ws subscription gets from the schema. @default 3 */
  graphqlEvents?: number;
  /** Milliseconds before each of them. @default 1000 */
  graphqlIntervalMs?: number;
}

/** Messages a client may send in one second; one more closes the connection with 1008. */
export const MAX_MESSAGES_PER_SECOND = 1000;

/** Bytes waiting to be sent past which a client that does not read is cut off (at least this, or 4 frames' worth). */
const STALL_BYTES = 16 * 1024 * 1024;

/** Bytes of unfinished incoming messages all connections may hold together (at least this, or 2 frames' worth). */
const HELD_BYTES = 16 * 1024 * 1024;

/** How long a connection closed for a limit has to finish the closing handshake before it is cut (its memory freed). */
const CUT_GRACE_MS = 1000;

/**
 * The WebSocket connections of an app may hold at most this share of the
 * connection cap (`MOCKPOINT_MAX_CONNECTIONS`): a tenth of it, at least one
 * connection, stays for the API, health and every other request.
 * @example socketShareOf(10_000) // 9000
 */
export function socketShareOf(maxConnections: number): number {
  return maxConnections - Math.max(1, Math.ceil(maxConnections / 10));
}

/** What {@link socketsRefusal} reads: the open connections per name and in all, and their limits. */
export interface SocketCounts {
  count(name: string): number;
  readonly maxPerName: number;
  /** Connections open in all (this app's and those sharing its total), and how many all names may hold together. */
  readonly sizeAll: number;
  readonly maxTotal: number;
}

/**
 * Why one more WebSocket connection for `name` is refused (503
 * `TOO_MANY_SOCKETS`), or `undefined` when it may open. Asked by the route step
 * and again by a runtime right before it completes the handshake, in the same
 * turn as {@link OpenSockets.open}: handshakes answered together (the first ones
 * wait for `ws` to load) all passed the route step's check, so every one was
 * answered 101 and the sockets filled the whole connection cap.
 */
export function socketsRefusal(sockets: SocketCounts, name: string): string | undefined {
  if (sockets.count(name) >= sockets.maxPerName) {
    return `${name} holds ${sockets.maxPerName} WebSocket connections open already (MOCKPOINT_MAX_SOCKETS_PER_NAME)`;
  }
  if (sockets.sizeAll < sockets.maxTotal) return undefined;
  return `the server holds ${sockets.maxTotal} WebSocket connections open already, all it lets them take: a tenth of MOCKPOINT_MAX_CONNECTIONS is kept for the API and other requests`;
}

/** A timer that does not keep a process alive by itself (Node, Bun, Deno; a number on workerd). */
function timer(run: () => void, ms: number): ReturnType<typeof setTimeout> {
  const handle = setTimeout(run, ms);
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

const encoder = new TextEncoder();
const textDecoder = new TextDecoder();
const NO_HEADERS: readonly string[] = Object.freeze([]);

/**
 * A close reason a close frame can carry: well-formed UTF-16 (a lone surrogate
 * becomes U+FFFD), cut at a code point to at most 123 bytes of UTF-8.
 */
function clipReason(reason: string): string {
  const whole = textDecoder.decode(encoder.encode(reason));
  if (encoder.encode(whole).byteLength <= MAX_CLOSE_REASON_BYTES) return whole;
  let clipped = '';
  let bytes = 0;
  for (const char of whole) {
    const size = encoder.encode(char).byteLength;
    if (bytes + size > MAX_CLOSE_REASON_BYTES) break;
    clipped += char;
    bytes += size;
  }
  return clipped;
}

/** A step of a connection's timeline, `delay` ms after the step before: a frame to send, or a close. */
type Step = PreparedFrame | PreparedClose;

class Connection {
  readonly id = crypto.randomUUID().replace(/-/g, '').slice(0, 12);
  readonly openedAt = Date.now();
  received = 0;
  sent = 0;
  /** Once closed (by either side), nothing more is sent or played. */
  closed = false;
  /** Set when mockpoint sent the close (or cut the connection): the close is journaled then, not when it comes back. */
  closing = false;
  readonly #steps: Step[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  #windowStart = 0;
  #windowCount = 0;
  /** When a message, ping or pong last went either way (the idle timeout counts from it). */
  #lastActive = Date.now();
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bytes of an unfinished incoming message the runtime holds, and the timer that ends its time. */
  heldBytes = 0;
  #heldTimer: ReturnType<typeof setTimeout> | undefined;
  #cutTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #mark: AnswerMark;
  /** The protocol spoken on it, when its answer speaks one (graphql-ws) instead of replying by script. */
  conversation: SocketConversation | undefined;

  constructor(
    readonly sockets: OpenSockets,
    readonly session: SocketSession,
    readonly script: SocketScript,
    readonly socket: ScriptSocket,
  ) {
    this.#mark = session.mark ?? Object.freeze({ answeredBy: Object.freeze({ route: session.route }) });
    this.#idleTimer = timer(this.#idle, sockets.idleTimeoutMs);
  }

  /** The idle timer: re-armed for what is left when something went either way meanwhile. */
  readonly #idle = (): void => {
    this.#idleTimer = undefined;
    if (this.closed || this.closing) return;
    const { idleTimeoutMs } = this.sockets;
    const left = this.#lastActive + idleTimeoutMs - Date.now();
    if (left > 0) this.#idleTimer = timer(this.#idle, left);
    else this.limitClose(1001, `idle for ${idleTimeoutMs} ms`);
  };

  /**
   * Closes for a limit: a close frame with `code`, then the connection is cut
   * if the client has not finished the closing handshake within a second (so
   * what it still holds, e.g. an unfinished message, is freed).
   */
  limitClose(code: number, reason: string): void {
    if (this.closed || this.closing) return;
    this.closeWith(code, reason);
    // A flood goes on past the close: left unread (and unparsed) until the cut.
    this.socket.stopReading?.();
    this.#cutTimer = timer(() => this.drop(), CUT_GRACE_MS);
  }

  /** Counts one incoming message, ping or pong in the second's window; true (and closed with 1008) past the limit. */
  #flooding(): boolean {
    const now = Date.now();
    this.#lastActive = now;
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#windowCount = 0;
    }
    if (++this.#windowCount <= MAX_MESSAGES_PER_SECOND) return false;
    this.limitClose(1008, `more than ${MAX_MESSAGES_PER_SECOND} messages a second (pings and pongs count)`);
    return true;
  }

  /** A ping or pong came: counted like a message; the pong the runtime queued counts against a client that stops reading. */
  control(): void {
    if (this.closed || this.closing) return;
    if (this.#flooding()) return;
    if (this.socket.bufferedAmount > this.sockets.stallBytes) this.drop();
  }

  /** The runtime holds `bytes` of an unfinished incoming message: it has the message timeout to finish, and all connections together a bound. */
  held(bytes: number): void {
    if (this.closed || bytes === this.heldBytes) return;
    this.sockets.hold(bytes - this.heldBytes);
    this.heldBytes = bytes;
    if (bytes === 0) {
      clearTimeout(this.#heldTimer);
      this.#heldTimer = undefined;
      return;
    }
    if (this.closing) return;
    const { messageTimeoutMs } = this.sockets;
    this.#heldTimer ??= timer(
      () => this.limitClose(1008, `a message was not finished within ${messageTimeoutMs} ms`),
      messageTimeoutMs,
    );
    if (this.sockets.heldTotal > this.sockets.maxHeldBytes) {
      this.limitClose(1013, 'the server holds too many unfinished messages: send it again later');
    }
  }

  /** Frees what the connection holds once it is closed: its timers and its share of the unfinished bytes. */
  #release(): void {
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#heldTimer);
    clearTimeout(this.#cutTimer);
    this.#idleTimer = this.#heldTimer = this.#cutTimer = undefined;
    this.sockets.hold(-this.heldBytes);
    this.heldBytes = 0;
  }

  /** This connection as a spoken protocol sees it. */
  peer(): SocketPeer {
    const connection = this;
    return {
      id: this.id,
      session: this.session,
      get open() {
        return !connection.closed && !connection.closing;
      },
      sendText: (text) => this.send({ data: text, bytes: encoder.encode(text), delay: 0 }),
      close: (code, reason) => this.closeWith(code, clipReason(reason)),
    };
  }

  /** Journals a message or a close of this connection. */
  record(direction: SocketDirection, method: 'MESSAGE' | 'CLOSE', bytes: Uint8Array, binary: boolean, code?: number) {
    const { session } = this;
    const kept = bytes.byteLength > JOURNAL_BODY_LIMIT ? bytes.slice(0, JOURNAL_BODY_LIMIT) : bytes;
    const socket: NonNullable<RecordedRequest['socket']> = { direction, connection: this.id };
    if (binary) socket.binary = true;
    if (code !== undefined) socket.code = code;
    const request: RecordedRequest = {
      method,
      target: session.target,
      rawHeaders: NO_HEADERS,
      body: kept,
      bodyTruncated: kept.byteLength < bytes.byteLength,
      socket,
    };
    this.sockets.journal.record(session.name, request, 0, this.#mark);
  }

  /** Plays frames (then a close) after the steps already queued, each after its delay. */
  play(frames: readonly PreparedFrame[], close: PreparedClose | undefined): void {
    // The prepared frames and close themselves: playing a script allocates no step.
    for (const frame of frames) this.#steps.push(frame);
    if (close !== undefined) this.#steps.push(close);
    if (!this.#running) this.#next();
  }

  #next(): void {
    const step = this.#steps.shift();
    if (step === undefined || this.closed) {
      this.#running = false;
      return;
    }
    this.#running = true;
    if (step.delay <= 0) {
      this.#run(step);
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#run(step);
    }, step.delay);
  }

  #run(step: Step): void {
    try {
      if ('code' in step) this.end(step);
      else this.send(step);
    } catch (error) {
      this.sockets.report(error, this.session);
      this.drop();
    }
    this.#next();
  }

  /** Sends one message now and journals it; a client that stopped reading is cut off. */
  send(frame: PreparedFrame): void {
    if (this.closed || this.closing) return;
    const { data } = frame;
    const binary = typeof data !== 'string';
    if (binary) this.socket.sendBytes(data);
    else this.socket.sendText(data);
    this.sent++;
    this.#lastActive = Date.now();
    this.record('out', 'MESSAGE', frame.bytes, binary);
    if (this.socket.bufferedAmount > this.sockets.stallBytes) this.drop();
  }

  /** Ends the connection as `close` says: a close frame, or cut without one. */
  end(close: PreparedClose): void {
    if (close.drop) this.drop();
    else this.closeWith(close.code, close.reason);
  }

  closeWith(code: number, reason: string): void {
    if (this.closed || this.closing) return;
    this.closing = true;
    this.#cancel();
    this.record('out', 'CLOSE', encoder.encode(reason), false, code);
    this.socket.close(code, reason);
  }

  /** Cuts the connection without a close frame (journaled as an outgoing close with 1006). */
  drop(): void {
    if (this.closed) return;
    if (!this.closing) this.record('out', 'CLOSE', new Uint8Array(0), false, 1006);
    this.closing = true;
    this.#cancel();
    this.socket.terminate();
    this.closed = true;
    this.#release();
    this.sockets.forget(this);
  }

  #cancel(): void {
    if (this.conversation !== undefined) {
      const conversation = this.conversation;
      this.conversation = undefined;
      conversation.closed();
    }
    this.#steps.length = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  message(data: string | Uint8Array, binary: boolean): void {
    if (this.closed) return;
    this.received++;
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    this.record('in', 'MESSAGE', bytes, binary);
    if (this.closing) return;
    // Runtimes without a payload limit of their own (Deno, workerd) hand over any size.
    if (bytes.byteLength > this.sockets.maxFrameBytes) {
      this.closeWith(1009, `a message is at most ${this.sockets.maxFrameBytes} bytes`);
      return;
    }
    if (this.#flooding()) return;
    if (this.conversation !== undefined) {
      this.conversation.message(
        binary ? undefined : typeof data === 'string' ? data : textDecoder.decode(bytes),
        bytes,
      );
      return;
    }
    if (this.script.on.length === 0) return;
    const subject = messageSubject(
      this,
      binary ? undefined : typeof data === 'string' ? data : textDecoder.decode(bytes),
      bytes,
    );
    const reply = this.script.on.find(
      (one) => one.match === undefined || firstMismatch(subject, one.match) === undefined,
    );
    if (reply !== undefined) this.play(reply.send, reply.close);
  }

  closed_(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.#cancel();
    this.#release();
    if (!this.closing) this.record('in', 'CLOSE', encoder.encode(reason), false, code);
    this.sockets.forget(this);
  }

  // SocketEvents.closed, under the interface's name (the field `closed` is the flag).
  get events(): SocketEvents {
    return {
      message: (data, binary) => this.message(data, binary),
      closed: (code, reason) => this.closed_(code, reason),
      control: () => this.control(),
      held: (bytes) => this.held(bytes),
    };
  }

  info(): SocketInfo {
    return {
      id: this.id,
      route: this.session.route,
      subpath: this.session.subpath,
      protocol: this.session.protocol ?? null,
      openedAt: new Date(this.openedAt).toISOString(),
      received: this.received,
      sent: this.sent,
    };
  }
}

/**
 * What a script's `match` reads of an incoming message: the upgrade request's
 * path, query and headers, the message as the body (a binary message's bytes
 * in base64, never JSON).
 */
function messageSubject(connection: Connection, text: string | undefined, bytes: Uint8Array): FilterSubject {
  const { session } = connection;
  const subject: {
    -readonly [K in keyof FilterSubject]: FilterSubject[K];
  } = {
    method: 'MESSAGE',
    subpath: session.subpath,
    query: session.query,
    headers: session.headers,
    body: text ?? toBase64(bytes),
    bodyTruncated: false,
    websocket: { direction: 'in', connection: connection.id },
  };
  // Not JSON (or too deep to match): matched by its text only.
  const json = text === undefined ? undefined : jsonValueOf(text);
  if (json !== undefined) subject.json = json;
  return subject;
}

/** Whom an API send or close reaches: every connection of the name, or one. */
export interface SocketTarget {
  /** A connection's id; absent: every open connection of the name. */
  connection?: string;
}

/**
 * How a Fetch runtime accepts an upgrade (`Bun.serve`'s `server.upgrade`,
 * `Deno.upgradeWebSocket`, workerd's `WebSocketPair`): given the request, the
 * runtime's `env` (Hono's `c.env`: Bun's server), the answer with its session
 * and the app's player (`sockets`: a namespace's own, for a request of a
 * namespace), it opens the connection, hands it to `sockets.open` and
 * returns the Response the handler gives back.
 */
export type FetchUpgrade = (
  request: Request,
  env: unknown,
  answer: UpgradeAnswer & { session: SocketSession },
  sockets: OpenSockets,
) => Response;

/** The open WebSocket connections of one app, by name; plays every script. */
export class OpenSockets {
  /** The Fetch runtime's upgrade, set by its `serve()` (absent: a Fetch request cannot upgrade: 501). */
  fetchUpgrade: FetchUpgrade | undefined;
  readonly journal: Journal;
  readonly maxPerName: number;
  #maxTotal: number;
  readonly maxFrameBytes: number;
  readonly stallBytes: number;
  readonly maxHeldBytes: number;
  readonly idleTimeoutMs: number;
  readonly messageTimeoutMs: number;
  #total = 0;
  /** Connections open in all the apps counted together (one server's: the default namespace's and its namespaces'). */
  #all = { open: 0 };
  /** The app whose total this one's connections count into ({@link shareTotal}). */
  #root: OpenSockets | undefined;
  #heldTotal = 0;
  readonly graphqlEvents: number;
  readonly graphqlIntervalMs: number;
  readonly #report: OpenSocketsOptions['report'];
  readonly #byName = new Map<string, Map<string, Connection>>();

  constructor(options: OpenSocketsOptions) {
    this.journal = options.journal;
    this.maxPerName = options.maxPerName;
    this.#maxTotal = options.maxTotal ?? Number.POSITIVE_INFINITY;
    this.maxFrameBytes = options.maxFrameBytes;
    this.stallBytes = Math.max(STALL_BYTES, 4 * options.maxFrameBytes);
    this.maxHeldBytes = Math.max(HELD_BYTES, 2 * options.maxFrameBytes);
    this.idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
    this.messageTimeoutMs = options.messageTimeoutMs ?? 30_000;
    this.graphqlEvents = options.graphqlEvents ?? 3;
    this.graphqlIntervalMs = options.graphqlIntervalMs ?? 1000;
    this.#report = options.report;
  }

  /** Connections open for `name`. */
  count(name: string): number {
    return this.#byName.get(name)?.size ?? 0;
  }

  /** Connections all names may hold open together. */
  get maxTotal(): number {
    return this.#root === undefined ? this.#maxTotal : this.#root.maxTotal;
  }

  /**
   * Counts this app's connections into `root`'s, under `root`'s {@link maxTotal}: a namespace's app
   * shares the server's connections with the default one, so together they never take more than
   * their share of the cap (each with a share of its own, they locked the API out).
   */
  shareTotal(root: OpenSockets): void {
    if (root === this) return;
    this.#root = root;
    this.#all = root.#all;
  }

  /** Connections open in all the apps sharing this one's total ({@link shareTotal}). */
  get sizeAll(): number {
    return this.#all.open;
  }

  /** Lowers {@link maxTotal} to `max` (a server that listens with a smaller connection cap than the app's). */
  limitTotal(max: number): void {
    this.#maxTotal = Math.min(this.#maxTotal, max);
  }

  /** Connections open in all. */
  get size(): number {
    return this.#total;
  }

  /** Bytes of unfinished incoming messages all connections hold now. */
  get heldTotal(): number {
    return this.#heldTotal;
  }

  /** @internal A connection holds `delta` more (or fewer) bytes of an unfinished message. */
  hold(delta: number): void {
    this.#heldTotal += delta;
  }

  /**
   * Takes over a connection a runtime has accepted for `session`: plays the
   * script's `onOpen` (then its `close`), and returns what the runtime calls
   * on each message and on close. Over the name's limit (handshakes that raced
   * past the route step's check), the connection is closed at once with 1013.
   */
  open(session: SocketSession, script: SocketScript, socket: ScriptSocket): SocketEvents {
    const connection = new Connection(this, session, script, socket);
    let named = this.#byName.get(session.name);
    if (named === undefined) {
      named = new Map();
      this.#byName.set(session.name, named);
    }
    named.set(connection.id, connection);
    this.#total++;
    this.#all.open++;
    if (named.size > this.maxPerName) {
      connection.limitClose(1013, 'too many connections for this name');
      return connection.events;
    }
    if (this.#all.open > this.maxTotal) {
      connection.limitClose(1013, 'too many WebSocket connections on this server');
      return connection.events;
    }
    if (script.speaks !== undefined) connection.conversation = script.speaks(connection.peer());
    connection.play(script.onOpen, script.close);
    return connection.events;
  }

  /** @internal A closed connection leaves the list. */
  forget(connection: Connection): void {
    const named = this.#byName.get(connection.session.name);
    if (named?.get(connection.id) !== connection) return;
    named.delete(connection.id);
    this.#total--;
    this.#all.open--;
    if (named.size === 0) this.#byName.delete(connection.session.name);
  }

  /** @internal Reports a failure while playing a script. */
  report(error: unknown, session: SocketSession): void {
    this.#report(error, { method: 'GET', url: session.target });
  }

  /** The open connections of `name`, oldest first (those closing, their close frame sent, left out). */
  list(name: string): SocketInfo[] {
    const open = [...(this.#byName.get(name)?.values() ?? [])].filter((one) => !one.closed && !one.closing);
    return open.map((connection) => connection.info());
  }

  #targets(name: string, target: SocketTarget): Connection[] {
    const named = this.#byName.get(name);
    if (target.connection === undefined) return [...(named?.values() ?? [])];
    const one = named?.get(target.connection);
    if (one === undefined || one.closed || one.closing) {
      throw new MockpointError(
        'SOCKET_NOT_FOUND',
        `no open WebSocket connection ${JSON.stringify(target.connection)} for ${name} on this server (a socket lives in the server that accepted it)`,
      );
    }
    return [one];
  }

  /** Sends one message now to one connection or every one of `name`; how many it went to. */
  send(name: string, frame: PreparedFrame, target: SocketTarget = {}): number {
    let sent = 0;
    for (const connection of this.#targets(name, target)) {
      if (connection.closed || connection.closing) continue;
      connection.send(frame);
      sent++;
    }
    return sent;
  }

  /**
   * Hands a push to the spoken protocol of one connection or every one of
   * `name` (graphql-ws: an event for its subscriptions); how many receivers it
   * reached in all (connections playing a script take none).
   */
  push(name: string, push: unknown, target: SocketTarget = {}): number {
    let reached = 0;
    for (const connection of this.#targets(name, target)) {
      if (connection.closed || connection.closing) continue;
      reached += connection.conversation?.push?.(push) ?? 0;
    }
    return reached;
  }

  /** Closes one connection or every one of `name` (a close frame, or cut with `drop`); how many. */
  close(name: string, close: PreparedClose, target: SocketTarget = {}): number {
    let closed = 0;
    for (const connection of this.#targets(name, target)) {
      if (connection.closed || connection.closing) continue;
      connection.end(close);
      closed++;
    }
    return closed;
  }

  /** Closes every connection (1001, going away): the server is stopping. */
  closeAll(): void {
    for (const named of [...this.#byName.values()]) {
      for (const connection of [...named.values()]) connection.closeWith(1001, 'server shutting down');
    }
  }

  /** Cuts every connection at once (a forced stop). */
  dropAll(): void {
    for (const named of [...this.#byName.values()]) for (const connection of [...named.values()]) connection.drop();
  }
}
