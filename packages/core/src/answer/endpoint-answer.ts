/**
 * The answer to a request at `/endpoint/{name}`: a plain value (status, headers,
 * body, delay) that the runtime adapters send. Answers for a stored endpoint are
 * built once per cache entry, so serving one allocates nothing.
 *
 * @module
 */

import type { Fault } from '../api/answer-json.js';
import type { StreamEnd } from '../api/answer-stream.js';
import { utf8Length } from '../codec/utf8-length.js';
import type { GrpcReply } from '../grpc/grpc-reply.js';
import type { AnswerMark } from '../journal/journal-entry.js';
import type { ErrorCode } from '../registry/error-status.js';
import { BODILESS_STATUS, CORS_HEADERS, JSON_HEADERS } from './read-response.js';
import type { SocketScript } from './websocket/socket-script.js';

/**
 * What an adapter does with a request: send a response (`respond`), write it
 * event by event (`stream`), or fail the request at the network level as a
 * queued answer asks (`fault`).
 */
export type EndpointAnswer = RespondAnswer | StreamAnswer | FaultAnswer | RelayAnswer | UpgradeAnswer | CallAnswer;

/** Response headers of an answer: lower-case names; an array is sent as one header line per value. */
export type AnswerHeaderMap = Readonly<Record<string, string | readonly string[]>>;

/** Send this status, these headers and this body, after `delay` ms. */
export interface RespondAnswer {
  readonly kind: 'respond';
  readonly status: number;
  /** Lower-case names; Content-Length is included whenever there is a body. */
  readonly headers: AnswerHeaderMap;
  /** The body: text (UTF-8 on the wire) or bytes, or `null` for none. */
  readonly body: string | Uint8Array | null;
  /** Milliseconds to wait before sending; 0 sends at once. */
  readonly delay: number;
}

/** One event of a streamed answer, encoded. */
export interface StreamFrame {
  /** The bytes written for it. */
  readonly bytes: Uint8Array;
  /** Milliseconds after the previous frame (after the headers, for the first). */
  readonly delay: number;
  /** The SSE id it carries, for `Last-Event-ID`. */
  readonly id?: string;
}

/**
 * Send this status and these headers after `delay` ms, then each frame after
 * its own delay, each written and flushed at once; then `end` (see
 * `StreamEnd`). A HEAD request's answer has no frames.
 */
export interface StreamAnswer {
  readonly kind: 'stream';
  readonly status: number;
  /** Lower-case names; no Content-Length (the body is chunked). */
  readonly headers: AnswerHeaderMap;
  readonly frames: readonly StreamFrame[];
  readonly end: StreamEnd;
  readonly delay: number;
  /** `hang` only: aborts when the endpoint changes; the stream then ends normally. */
  readonly release?: AbortSignal;
}

/**
 * Fail the request, after `delay` ms: `reset` the connection with nothing sent;
 * `close` it after the status line, the headers (with the whole body's
 * Content-Length) and half of `body`; or `hang`: send nothing until the client
 * goes away or `release` aborts, and then send `next()`.
 */
export interface FaultAnswer {
  readonly kind: 'fault';
  readonly fault: Fault;
  /** The status `close` sends; 0 for `reset` and `hang`. */
  readonly status: number;
  readonly headers: AnswerHeaderMap;
  /** The whole body `close` cuts short; `null` for none. */
  readonly body: string | Uint8Array | null;
  readonly delay: number;
  /** `hang` only: aborts when the hanging request is to be answered after all. */
  readonly release?: AbortSignal;
  /** `hang` only: the answer to send once `release` aborts. */
  readonly next?: () => EndpointAnswer | Promise<EndpointAnswer>;
}

/**
 * A proxy route's answer: the upstream's status and headers, then its body
 * passed on chunk by chunk as it arrives (`null`: none). An adapter that cannot
 * send it (the client left) cancels the body, which stops the upstream request.
 */
export interface RelayAnswer {
  readonly kind: 'relay';
  readonly status: number;
  /** Lower-case names, as the upstream sent them (hop-by-hop ones left out). */
  readonly headers: AnswerHeaderMap;
  readonly body: ReadableStream<Uint8Array> | null;
  /** Milliseconds before it is sent: 0 but for the chaos latency. */
  readonly delay: number;
}

/** The request a WebSocket connection was opened by: what its script's `match` and its journal entries read. */
export interface SocketSession {
  /** The endpoint name. */
  readonly name: string;
  /** The id of the route whose script is played. */
  readonly route: string;
  /** The upgrade request's target (path and query), as its journal entry has it. */
  readonly target: string;
  /** The path below `/endpoint/{name}`. */
  readonly subpath: string;
  readonly query: Record<string, string | string[]>;
  /** The upgrade request's headers, lower-case names. */
  readonly headers: Record<string, string>;
  /** The subprotocol chosen (`Sec-WebSocket-Protocol` of the 101), if any. */
  readonly protocol: string | undefined;
  /** How the journal marks its messages (absent: answered by {@link route}). */
  readonly mark?: AnswerMark;
}

/**
 * Accept a WebSocket upgrade (101, with these extra headers) after `delay` ms
 * and play `script` over the connection. The route step adds the `session`
 * for the request that upgrades; a sink that cannot upgrade answers 501.
 */
export interface UpgradeAnswer {
  readonly kind: 'upgrade';
  readonly status: 101;
  /** Extra headers of the 101 (lower-case names). */
  readonly headers: AnswerHeaderMap;
  readonly script: SocketScript;
  readonly delay: number;
  readonly session?: SocketSession;
}

/**
 * A gRPC-family call's answer: the `reply` of the `grpc` route or queued answer
 * that answered it, or none (the name's definitions answer it: schema mode); the
 * headers the steps gathered (a rate limit's) sent as metadata; nothing sent
 * before `delay` ms (the reply's own and the chaos latency: the shared sink waits
 * it, engine/sink.ts), each message held for `pace(bytes)` ms besides its own
 * delay (chaos bandwidth, engine/pipeline/chaos-bandwidth.ts). The call's edge
 * sink hands it to its protocol's writer (engine/call-sink.ts). Only a call's
 * exchange is answered with one.
 */
export interface CallAnswer {
  readonly kind: 'call';
  readonly status: 200;
  readonly headers: AnswerHeaderMap;
  readonly reply: GrpcReply | undefined;
  readonly delay: number;
  readonly pace?: (bytes: number) => number;
}

/** A stored endpoint's answers, for HEAD (no body) and for every other method. */
export interface PreparedAnswers {
  readonly full: RespondAnswer;
  readonly head: RespondAnswer;
}

/**
 * Headers for the Fetch API: the map itself when every value is one string,
 * otherwise name/value pairs with a pair per value of an array.
 */
function fetchHeaders(headers: AnswerHeaderMap): Record<string, string> | [string, string][] {
  const names = Object.keys(headers);
  if (names.every((name) => typeof headers[name] === 'string')) return headers as Record<string, string>;
  const pairs: [string, string][] = [];
  for (const name of names) {
    const value = headers[name] as string | readonly string[];
    if (typeof value === 'string') pairs.push([name, value]);
    else for (const one of value) pairs.push([name, one]);
  }
  return pairs;
}

/**
 * Header maps that many requests are answered with (a cached record's, a route's
 * that is not templated), each with its Fetch `Headers` once one was built (`null`
 * until then).
 */
const reusedHeaders = new WeakMap<AnswerHeaderMap, Headers | null>();

/**
 * Marks `headers` (a frozen map) as sent with many answers: the Fetch sink then
 * builds its `Headers` once, on the first answer, and hands that to each
 * `Response` (which copies it) instead of a map the runtime reads and checks
 * again for every response. Returns `headers`.
 */
export function reuseHeaders(headers: AnswerHeaderMap): AnswerHeaderMap {
  if (!reusedHeaders.has(headers)) reusedHeaders.set(headers, null);
  return headers;
}

/**
 * Headers for a `Response`: the `Headers` built once for a map marked with
 * {@link reuseHeaders} (built on its first use: a value the runtime refuses
 * throws here, as the `Response` would), else {@link fetchHeaders}.
 */
export function responseHeaders(headers: AnswerHeaderMap): Headers | Record<string, string> | [string, string][] {
  const built = reusedHeaders.get(headers);
  if (built === undefined) return fetchHeaders(headers);
  if (built !== null) return built;
  const made = new Headers(fetchHeaders(headers));
  reusedHeaders.set(headers, made);
  return made;
}

function answer(status: number, headers: Record<string, string>, body: string | null, delay = 0): RespondAnswer {
  return Object.freeze({ kind: 'respond', status, headers: Object.freeze(headers), body, delay });
}

/** The answers for a stored endpoint; HEAD keeps the Content-Length of the body it omits. */
export function prepareAnswers(body: string, status: number, delay: number): PreparedAnswers {
  if (BODILESS_STATUS.has(status)) {
    const bodiless = answer(status, { ...CORS_HEADERS }, null, delay);
    return { full: bodiless, head: bodiless };
  }
  const headers = { ...JSON_HEADERS, 'content-length': String(utf8Length(body)) };
  return { full: answer(status, headers, body, delay), head: answer(status, headers, null, delay) };
}

/**
 * Makes a signal that aborts once the client of a request has left (disconnected
 * before its answer was sent); called only when some work can be stopped then
 * (a proxy route's upstream request), so other requests pay nothing for it.
 */
export type ClientGone = () => AbortSignal;

/** A JSON error answer in the standard `{ success: false, error }` shape. */
export function errorAnswer(
  status: number,
  code: ErrorCode,
  message: string,
  options: { head?: boolean; cors?: boolean; extra?: Record<string, string>; details?: Record<string, unknown> } = {},
): RespondAnswer {
  const error = options.details === undefined ? { code, message } : { code, message, details: options.details };
  const body = JSON.stringify({ success: false, error });
  const base = options.cors ? JSON_HEADERS : { 'content-type': JSON_HEADERS['content-type'] };
  const headers = { ...base, ...options.extra, 'content-length': String(utf8Length(body)) };
  return answer(status, headers, options.head ? null : body);
}

/** An answer without a body. */
export function emptyAnswer(status: number, headers: Record<string, string>): RespondAnswer {
  return answer(status, headers, null);
}
