/**
 * A recorded request, in two forms: the raw {@link RecordedRequest} that the
 * read path hands over (no parsing, no copying, no date formatting) and the
 * {@link JournalEntry} it becomes, once, when someone reads the journal.
 *
 * @module
 */

import type { Fault } from '../api/answer-json.js';
import { splitEndpointTarget, urlTarget } from '../api/endpoint-target.js';
import type { GrpcMark } from '../api/grpc-json.js';
import type { AnswerEntry, AnsweredBy, JournalEntry, SocketMark, UpstreamOutcome } from '../api/journal-json.js';
import type { ValidationMark } from '../api/route-validation.js';
import type { StateMark } from '../api/state-json.js';
import { toBase64 } from '../codec/base64.js';
import { type KeepAll, readBodyPrefix, readDeclaredBody } from '../codec/body.js';
import { jsonValueOf } from '../codec/json-value.js';
import { headerRecord, rawHeader } from '../codec/raw-headers.js';
import { utf8Text } from '../codec/utf8.js';
import { graphqlMarkOf } from '../graphql/graphql-mark.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import type { SignatureMark } from '../signing/signature-settings.js';
import { type KeptAnswer, timingsOf } from './answer-record.js';

/** How a request was answered, as the journal keeps it beside the request. */
export interface AnswerMark {
  answeredBy: AnsweredBy;
  /** The matched route's parameters. */
  params?: Record<string, string>;
  /** The network fault given instead of an answer, if any. */
  fault?: Fault;
  /** A proxy route's upstream and its answer. */
  upstream?: UpstreamOutcome;
  /** The answering route's request validation: the errors (none when the request fits). */
  validation?: ValidationMark;
  /** The scenarios the answering route looked at or moved, before and after. */
  state?: StateMark;
  /** The route's rate-limit bucket was empty: the request got its 429. */
  rateLimited?: true;
  /** A gRPC, gRPC-Web or Connect call: its method, request message and status. */
  grpc?: GrpcMark;
}

/** Answered by the record (shared: the read path allocates nothing for it). */
export const BY_RECORD: AnswerMark = Object.freeze({ answeredBy: 'record' });
/** Answered by the endpoint's GraphQL schema (schema mode). */
export const BY_GRAPHQL: AnswerMark = Object.freeze({ answeredBy: 'graphql' });
/** Answered by the endpoint's twin (docs/twins.md). */
export const BY_TWIN: AnswerMark = Object.freeze({ answeredBy: 'twin' });
/** Answered by nobody: a 404 or another error. */
export const BY_NONE: AnswerMark = Object.freeze({ answeredBy: 'none' });
const QUEUE: AnsweredBy = Object.freeze({ queue: true as const });

/** The mark of a request answered by a queued answer (with the fault it gave, if any). */
export function byQueue(fault?: Fault): AnswerMark {
  return fault === undefined ? { answeredBy: QUEUE } : { answeredBy: QUEUE, fault };
}

/**
 * A request to `/endpoint/{name}` as an adapter hands it to the core: raw parts
 * only, turned into a {@link JournalEntry} when the journal is read.
 */
export interface RecordedRequest {
  method: string;
  /** The request target as received: path plus query string. */
  target: string;
  /** Header names and values, alternating, as received (e.g. Node's `rawHeaders`). */
  rawHeaders: readonly string[];
  /** The body's first bytes (at most {@link JOURNAL_BODY_LIMIT}), exactly as received; owned by the journal. */
  body: Uint8Array;
  /** True when the body was longer than `body`. */
  bodyTruncated: boolean;
  /**
   * True when the body was longer than the body limit (set by the adapter, which read no
   * further): the request is refused with 413 before any step reads it (pipeline/body-limit-step.ts).
   */
  bodyTooLarge?: boolean;
  /** The outcome of the name's signature check, set by the handler before anyone answers (absent: no check). */
  signature?: SignatureMark;
  /** A WebSocket message or close: its connection and direction (`binary`: the body is a binary frame's bytes). */
  socket?: SocketMark & { binary?: boolean };
  /**
   * The host the request was sent to when it reached the endpoint through a host
   * mapping, an absolute-form target or a `CONNECT` tunnel (set by the adapter).
   */
  host?: string;
  /**
   * The target as the client sent it, where it differs from `target` (a `--serve` port's, whose
   * `target` the adapter puts under `/endpoint/{name}`): what a twin's own root is read from.
   */
  sent?: string;
  /** The request came over TLS (set by the adapter): a twin's own root is `https:`. */
  secure?: boolean;
  /** What it was answered with (see `answer-record.ts`): set by the core as the answer is decided, kept as it is recorded. */
  answer?: KeptAnswer;
  /** A relayed answer's first body chunks as they were passed on (references), and every byte's count. */
  relayed?: Uint8Array[];
  relayedBytes?: number;
  /**
   * `performance.now()` when the handler took the request (its body read), when
   * the answer's first byte was handed to the connection, and its last.
   */
  startedAt?: number;
  firstByteAt?: number;
  doneAt?: number;
  /**
   * The in-memory journal's own figures of it, set as it records it
   * (store/memory/memory-journal.ts): its id, status, time, mark and size, kept
   * on the request itself so that recording makes no second object.
   */
  id?: number;
  statusCode?: number;
  receivedAt?: number;
  mark?: AnswerMark | undefined;
  bytes?: number;
}

/**
 * A new {@link RecordedRequest} with every field the request path may set later
 * there already (as `undefined`): setting the answer, a time or the host on the
 * hot path then adds no property (no new hidden class, no out-of-object
 * property array per request).
 */
export function recordedRequest(
  method: string,
  target: string,
  rawHeaders: readonly string[],
  body: Uint8Array,
  bodyTruncated: boolean,
): RecordedRequest {
  return {
    method,
    target,
    rawHeaders,
    body,
    bodyTruncated,
    bodyTooLarge: undefined,
    signature: undefined,
    socket: undefined,
    host: undefined,
    sent: undefined,
    secure: undefined,
    answer: undefined,
    relayed: undefined,
    relayedBytes: undefined,
    startedAt: undefined,
    firstByteAt: undefined,
    doneAt: undefined,
    id: undefined,
    statusCode: undefined,
    receivedAt: undefined,
    mark: undefined,
    bytes: undefined,
  };
}

/** Query parameters as a record; repeated keys become arrays. */
export function parseQuery(params: URLSearchParams): Record<string, string | string[]> {
  // A null-prototype object while collecting, so `__proto__` is an ordinary key.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of params) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return { ...query };
}

/**
 * Turns a recorded request into the entry the API lists; `response` is what it
 * was answered with, as `answer/answer-journal.ts` reads the kept answer.
 */
export function toJournalEntry(
  id: number,
  request: RecordedRequest,
  statusCode: number,
  receivedAt: number,
  mark: AnswerMark = BY_NONE,
  response?: AnswerEntry,
): JournalEntry {
  const q = request.target.indexOf('?');
  // A binary frame's bytes are base64 even when they happen to be UTF-8: the entry says what was sent.
  const text = request.socket?.binary === true ? undefined : utf8Text(request.body, request.bodyTruncated);
  const path = q === -1 ? request.target : request.target.slice(0, q);
  const answeredBy = typeof mark.answeredBy === 'string' ? mark.answeredBy : { ...mark.answeredBy };
  const entry: JournalEntry = {
    id,
    method: request.method,
    path,
    // A gRPC call's subpath is its method's (`/{package.Service}/{Method}`), wherever it was sent.
    subpath:
      mark.grpc !== undefined
        ? `/${mark.grpc.service}/${mark.grpc.method}`
        : (splitEndpointTarget(request.target)?.subpath ?? '/'),
    params: mark.params === undefined ? {} : { ...mark.params },
    answeredBy,
    query: q === -1 ? {} : parseQuery(new URLSearchParams(request.target.slice(q + 1))),
    headers: headerRecord(request.rawHeaders),
    body: text ?? toBase64(request.body),
    bodyTruncated: request.bodyTruncated,
    receivedAt: new Date(receivedAt).toISOString(),
    statusCode,
  };
  if (typeof answeredBy === 'object' && 'queue' in answeredBy) entry.queued = true;
  if (mark.fault !== undefined) entry.fault = mark.fault;
  if (mark.upstream !== undefined) entry.upstream = structuredClone(mark.upstream);
  if (mark.validation !== undefined) entry.validation = structuredClone(mark.validation);
  if (mark.rateLimited === true) entry.rateLimited = true;
  if (mark.grpc !== undefined) entry.grpc = structuredClone(mark.grpc);
  if (mark.state !== undefined) entry.state = { before: { ...mark.state.before }, after: { ...mark.state.after } };
  if (request.signature !== undefined) entry.signature = { ...request.signature };
  if (request.host !== undefined) entry.host = request.host;
  if (response !== undefined) entry.response = response;
  const timings = timingsOf(request);
  if (timings !== undefined) entry.timings = timings;
  if (request.socket !== undefined) {
    const { binary: _binary, ...socket } = request.socket;
    entry.websocket = socket;
  }
  if (text === undefined) entry.bodyEncoding = 'base64';
  // Too-deep JSON is kept as text only: its parsed form could not be serialised back.
  else if (!request.bodyTruncated) {
    // Not JSON: the text is kept as it is.
    const json = jsonValueOf(text);
    if (json !== undefined) entry.json = json;
  }
  const graphql = graphqlMarkOf(entry);
  if (graphql !== undefined) entry.graphql = graphql;
  return entry;
}

/** Adds one header to the raw list that is `this` (a module-level function: a request allocates no closure for it). */
function pushHeader(this: string[], value: string, name: string): void {
  this.push(name, value);
}

/** A GET or HEAD that declares no body: no Content-Length (or 0) and no Transfer-Encoding. */
function bodiless(method: string, length: string | undefined, rawHeaders: readonly string[]): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    (length === undefined || length === '0') &&
    rawHeader(rawHeaders, 'transfer-encoding') === undefined
  );
}

/**
 * Captures a Fetch-API request: its target (`target` when given, else the URL's:
 * see {@link urlTarget}), headers and the first `bodyLimit` bytes of its body.
 * The rest of the body is read and dropped up to `drainLimit` bytes (so a
 * keep-alive connection stays usable), and cancelled past it (`bodyTooLarge`); kept up to
 * `drainLimit` instead when `keepAll` says so (asked once the body outgrows
 * `bodyLimit`). A request without a body is captured at once (no Promise: the
 * cached GET is answered synchronously).
 */
export function captureRequest(
  request: Request,
  bodyLimit: number = JOURNAL_BODY_LIMIT,
  drainLimit: number = bodyLimit,
  keepAll?: KeepAll,
  target: string = urlTarget(request.url),
): RecordedRequest | Promise<RecordedRequest> {
  const rawHeaders: string[] = [];
  request.headers.forEach(pushHeader, rawHeaders);
  const method = request.method;
  // A body of a declared length within the limit: one asynchronous step, `request.body` never made.
  const length = rawHeader(rawHeaders, 'content-length');
  const declared = length === undefined ? undefined : readDeclaredBody(request, length, bodyLimit, drainLimit, keepAll);
  // `request.body` rather than Content-Length: a Request built in-process carries a body without one.
  // A GET or HEAD with neither Content-Length nor Transfer-Encoding has none (Fetch allows none on
  // them): its body stream is not asked for.
  if (declared === undefined && (bodiless(method, length, rawHeaders) || request.body === null)) {
    return { method, target, rawHeaders, body: new Uint8Array(0), bodyTruncated: false };
  }
  return (declared ?? readBodyPrefix(request, bodyLimit, drainLimit, keepAll)).then(({ bytes, truncated, over }) => ({
    method,
    target,
    rawHeaders,
    body: bytes,
    bodyTruncated: truncated,
    // Past `drainLimit` (the body limit): read no further, and refused.
    bodyTooLarge: over === true ? true : undefined,
  }));
}
