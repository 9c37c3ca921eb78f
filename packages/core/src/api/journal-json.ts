/**
 * The request journal as it crosses the wire: the entries and pages the journal
 * routes answer with and the filter a read or long-poll sends. The client, the
 * routes and every journal (memory, Redis) share these shapes.
 *
 * @module
 */

import type { AbsentMatcher, ValueMatcher } from '../pattern/value-pattern.js';
import type { SignatureCheckStatus, SignatureMark } from '../signing/signature-settings.js';
import type { Fault } from './answer-json.js';
import type { ChaosFault } from './chaos.js';
import type { GraphqlFilter, GraphqlMark } from './graphql-json.js';
import type { GrpcFilter, GrpcMark } from './grpc-json.js';
import type { McpFilter } from './mcp-json.js';
import type { ValidationMark } from './route-validation.js';
import type { StateInput, StateMark } from './state-json.js';

/** A request as the journal stream sends it (a `request` event): a journal entry and the name it was sent to. */
export interface LiveRequest extends JournalEntry {
  name: string;
}

/** A `journal` event of the journal stream: the journal the ids belong to, and whether it started anew. */
export interface JournalEvent {
  journalId: string;
  /** True when the stream's cursor belonged to another journal (a restarted daemon): ids start again. */
  reset: boolean;
  /** The id after which the stream sends. */
  after: number;
}
/**
 * Who answered a request: a queued one-shot answer, the route with this id, the
 * stored record, the endpoint's GraphQL schema (schema mode, docs/graphql.md),
 * or nobody (a 404 or another error).
 */
export type AnsweredBy =
  | { queue: true }
  | { route: string }
  /** A fault chaos injected: the endpoint's, or (`namespace: true`) the namespace's (docs/chaos.md). */
  | { chaos: ChaosFault; namespace?: true }
  | 'record'
  | 'graphql'
  /** The endpoint's protobuf definitions (gRPC schema mode, docs/grpc.md). */
  | 'grpc'
  /** The endpoint's twin (docs/twins.md). */
  | 'twin'
  | 'none';

/** What a proxy route's upstream answered (see docs/files.md#record-and-replay). */
export interface UpstreamOutcome {
  /** The URL the request was forwarded to. */
  url: string;
  /** The upstream's status (absent when it gave none). */
  statusCode?: number;
  /** The upstream's headers: lower-case names, repeated ones as a list. */
  headers?: Record<string, string | string[]>;
  /**
   * The code of the failure when there is no upstream answer: `UPSTREAM_FAILED`, `UPSTREAM_TIMEOUT`,
   * `PROXY_HOST_NOT_ALLOWED`, `PROXY_PATH_OUTSIDE_BASE` (not sent: the path would leave the base;
   * `url` is then the proxy's), `REQUEST_ABORTED` (the client left first; status 499).
   */
  error?: string;
}

/** One request received at `/endpoint/{name}`, as the API lists it. */
export interface JournalEntry {
  /** Increasing sequence number across the whole journal. */
  id: number;
  method: string;
  /** The request path, without the query string. */
  path: string;
  /** The path below `/endpoint/{name}`: `/` for the bare URL. */
  subpath: string;
  /** The parameters of the route pattern that matched (`{}` when none did). */
  params: Record<string, string>;
  /** Who answered: `{ queue: true }`, `{ route: id }`, `"record"`, `"graphql"` (the schema) or `"none"`. */
  answeredBy: AnsweredBy;
  /** Query parameters; repeated keys become arrays. */
  query: Record<string, string | string[]>;
  /** Request headers, lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /**
   * The body: its text when the bytes are valid UTF-8, otherwise the bytes in
   * base64 (then `bodyEncoding` is `'base64'`). Possibly truncated (see `bodyTruncated`).
   */
  body: string;
  /** Present, as `'base64'`, only when the body is not valid UTF-8 and `body` holds its bytes in base64. */
  bodyEncoding?: 'base64';
  /** True when the body was longer than the journal keeps. */
  bodyTruncated: boolean;
  /** The body parsed as JSON, when it parses; otherwise absent. */
  json?: unknown;
  /** ISO 8601 time of arrival. */
  receivedAt: string;
  /** The status mockpoint answered with (404 for an unknown name). */
  statusCode: number;
  /** Present (true) when a queued one-shot answer answered this request. */
  queued?: true;
  /** The network fault a queued answer gave this request, if any. */
  fault?: Fault;
  /**
   * Present when the name checks signatures (`PUT /api/endpoints/{name}/signature`):
   * the scheme, `valid`, `invalid`, `missing`, `stale` or `replayed`, and why.
   */
  signature?: SignatureMark;
  /** Present when a proxy route answered: where the request went and what the upstream answered. */
  upstream?: UpstreamOutcome;
  /**
   * Present when the route that answered validates requests (its `validate`):
   * what did not fit its schemas, `{ in, path, message }` each; none when the request fits.
   */
  validation?: ValidationMark;
  /** Present when the route's rate limit refused the request (`429`, docs/rate-limits.md). */
  rateLimited?: true;
  /**
   * Present when the state was read for the request (the name's routes or queued
   * answers use it): the scenarios the answering route looked at or moved, before
   * and after; every scenario, unmoved, when it looked at none (or none answered).
   */
  state?: StateMark;
  /** Present on a WebSocket message or close (method `MESSAGE` or `CLOSE`): its connection and direction. */
  websocket?: SocketMark;
  /** Present when the request was a GraphQL request (docs/graphql.md): its (first) operation's name, type and variables. */
  graphql?: GraphqlMark;
  /** Present when the request was a gRPC, gRPC-Web or Connect call (docs/grpc.md): its method, request message and status. */
  grpc?: GrpcMark;
  /**
   * Present when the request reached the endpoint through a host mapping, an
   * absolute-form target (a proxy client) or a `CONNECT` tunnel: the host (and
   * port, when one was given) it was sent to.
   */
  host?: string;
  /** What was sent back (absent when nothing was: a reset, a hang, a WebSocket message). */
  response?: AnswerEntry;
  /** The times measured for the answer, in milliseconds (absent until its first byte was sent). */
  timings?: AnswerTimings;
}

/** The answer a journal entry keeps (its status is the entry's `statusCode`). */
export interface AnswerEntry {
  /** The headers sent: lower-case names, a repeated one as a list. */
  headers: Record<string, string | string[]>;
  /** The body: its text when UTF-8, otherwise its bytes in base64 (`bodyEncoding`); at most the journal's body limit. */
  body: string;
  bodyEncoding?: 'base64';
  /** The whole body's size in bytes (also when `body` holds only its first bytes). */
  bodySize: number;
  /** True when the body was longer than the journal keeps (64 KiB). */
  bodyTruncated: boolean;
}

/** Measured times of an answer, in milliseconds from when the request had arrived (its body read). */
export interface AnswerTimings {
  /** Until the answer's first byte (its status line) was handed to the connection: a delay is in it. */
  wait: number;
  /** Until its last byte was (absent while it is still being sent, e.g. a stream). */
  total?: number;
}

/** Which way a WebSocket message went: `in` from the client, `out` from mockpoint. */
export type SocketDirection = 'in' | 'out';

/**
 * A WebSocket journal entry's connection and direction: a message (method
 * `MESSAGE`, `body` its exact text, or its bytes in base64 with `bodyEncoding`
 * for a binary frame) or a close (method `CLOSE`, `body` the reason).
 */
export interface SocketMark {
  direction: SocketDirection;
  /** The connection's id (the sockets API names connections by it). */
  connection: string;
  /** `CLOSE` only: the close code (1005 when the close frame had none, 1006 when the connection broke without one). */
  code?: number;
}

/** Kept for journals written before answer marks: `{ fault? }` meant a queued answer. */
export interface QueuedMark {
  fault?: Fault;
}

/** The answer of a (possibly long-polling) journal read. */
export interface JournalPage {
  requests: JournalEntry[];
  /** Whether at least the requested count (default 1) had arrived. */
  complete: boolean;
}

/**
 * THE request filter: which requests a route answers and which a journal read,
 * long-poll or matcher counts; every field is optional and all given fields must match.
 * @example { method: 'POST', headers: { 'x-event': 'order.paid' }, body: { order: { id: 7 } } }
 */
export interface RequestFilter {
  /** The HTTP method, case-insensitive. */
  method?: string;
  /**
   * A pattern over the subpath (the path below `/endpoint/{name}`): literal
   * segments, `:param` segments and a trailing `*`, e.g. `/repos/:owner/:repo/issues`;
   * or a regular expression over the whole subpath, its named groups the params.
   */
  path?: string | ValueMatcher;
  /** A regular expression over the whole subpath and its query string as sent (`/users?page=2`). */
  url?: ValueMatcher;
  /**
   * Query parameters that must be present with exactly these values (a repeated
   * key is an array, in order), or whose first value matches a regular expression;
   * `{ absent: true }`: a parameter that must not be sent.
   */
  query?: Record<string, string | string[] | ValueMatcher | AbsentMatcher>;
  /**
   * Headers that must be present with exactly these values (or matching a regular expression), or
   * (`{ absent: true }`) must not be sent; names are case-insensitive.
   */
  headers?: Record<string, string | ValueMatcher | AbsentMatcher>;
  /**
   * A JSON subset of the body: every key given must be present with a matching
   * value, recursively; arrays match element by element and must have the same
   * length; other keys of the body are ignored. A string also matches a body
   * whose raw text is exactly that string.
   */
  body?: unknown;
  /** Regular expressions over the whole body text; all must hold. */
  bodyPatterns?: ValueMatcher[];
  /**
   * The body parsed as JSON equals this value exactly: the same members in any
   * order and no others, arrays in order, numbers by value.
   */
  bodyEquals?: unknown;
  /** JSONPath expressions (a bounded subset, docs/routes.md) that must each select something in the JSON body. */
  bodyJsonPaths?: string[];
  /**
   * The outcome of the name's signature check: `valid`, `invalid`, `missing`,
   * `stale` or `replayed`. A request to a name without a check has none, so it
   * never matches.
   */
  signature?: SignatureCheckStatus;
  /**
   * The endpoint's state (docs/state.md): a value of the `default` scenario, or
   * scenario → value; a scenario never moved is at `started`. A route matches
   * on the state as it is when the request comes; a journal read on the state
   * an entry saw before its answer.
   */
  state?: StateInput;
  /**
   * WebSocket messages only (journal entries with method `MESSAGE` or `CLOSE`):
   * the direction (`in` from the client, `out` from mockpoint) and/or the
   * connection's id. A request never matches it.
   */
  websocket?: { direction?: SocketDirection; connection?: string };
  /**
   * GraphQL operations (docs/graphql.md), read from the parsed document: the
   * selected operation's name, its type and a JSON subset of its variables. A
   * request that is not GraphQL never matches; a batch matches when one of its
   * operations does.
   */
  graphql?: GraphqlFilter;
  /**
   * MCP requests (JSON-RPC over Streamable HTTP, docs/mcp.md), read from the
   * JSON body: the method (`tools/call`) and, for a tool call, the tool's name.
   * A request that is not a JSON-RPC request never matches.
   */
  mcp?: McpFilter;
  /**
   * gRPC, gRPC-Web and Connect calls (docs/grpc.md), read from a journal
   * entry's `grpc` mark: the service, the method and a JSON subset of the
   * request message in proto3 JSON. A request that is no call never matches.
   */
  grpc?: GrpcFilter;
}
