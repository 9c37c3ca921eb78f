/**
 * What answers one gRPC call when a route does (schema mode otherwise): the
 * messages to send, in proto3 JSON, each after its delay, then a status, with
 * metadata (response headers) and trailers. The pipeline chooses and renders
 * it (engine/pipeline/grpc-answer.ts, the call's walk: engine/grpc-edge.ts);
 * the call's handler (stream-answers.ts) plays it.
 *
 * @module
 */
import type { StateMark } from '../api/state-json.js';
import type { AnswerMark } from '../journal/journal-entry.js';
import type { SignatureMark } from '../signing/signature-settings.js';

/** One message sent, in proto3 JSON, after `delay` milliseconds. */
export interface GrpcOut {
  message: unknown;
  delay?: number;
}

/** A status other than `ok` that ends the call, by number. */
export interface GrpcReplyStatus {
  code: number;
  message?: string;
  /** google.rpc.Status details: a message's full type name and its binary encoding in base64. */
  details?: { type: string; value: string }[];
}

/** A route's answer to one call, rendered. */
export interface GrpcReply {
  /** What the route is, for messages: `route r1`. */
  by: string;
  /** The id of the route, journaled as `answeredBy: { route }`. */
  route?: string;
  /** Set when a queued answer answered (journaled as `answeredBy: { queue: true }`). */
  queued?: true;
  /** Rendered from a template: its messages are new objects each call, not kept as a route's unchanged ones. */
  templated?: true;
  /** Milliseconds before anything is sent (the answer's `delay`). */
  delay?: number;
  /** Sent in order (unary and client streaming: the first only). */
  messages: GrpcOut[];
  /** Bidirectional streaming: what to send for each message received (with its index); absent: nothing. */
  onMessage?: (message: unknown, index: number) => Promise<GrpcOut[]> | GrpcOut[];
  status?: GrpcReplyStatus;
  metadata?: Record<string, string | string[]>;
  trailers?: Record<string, string | string[]>;
  /** Reset the stream (no status) once the messages are sent. */
  reset?: boolean;
  /** Held (before the reset) until this aborts or the client gives up: chaos `timeout`. */
  hold?: AbortSignal;
  /** Chaos `bandwidth`, bytes per second: each message sent is held for its encoded size at that rate. */
  bandwidth?: number;
  /** Not an answer: schema mode (or the routes) answers, after `delay` (the chaos latency), with `metadata`. */
  schema?: true;
  /** How the journal records the call when not by a route or the queue (chaos, a signature, a rate limit). */
  mark?: GrpcJournalMark;
  /** The signature check's outcome, for the journal entry (as an HTTP request's). */
  signature?: SignatureMark;
  /** The scenarios the call's routes or queued answers read or moved, for the journal entry (as an HTTP request's). */
  state?: StateMark;
}

/** The journal's mark of a call the pipeline's steps refused (engine/grpc-edge.ts). */
export type GrpcJournalMark = Pick<AnswerMark, 'answeredBy' | 'fault' | 'rateLimited' | 'params'>;

/** What one call's answer is looked up by. */
export interface GrpcCallInfo {
  service: string;
  method: string;
  /** `unary`, `server_streaming`, `client_streaming` or `bidi_streaming`. */
  kind: string;
  /** The request's headers (the call's metadata). */
  headers: Headers;
  /** The request messages read so far, in proto3 JSON: the one of a unary or server-streaming call, all of a client stream's, the first of a bidirectional one. */
  messages: readonly unknown[];
  /** The request body as sent (a unary Connect call's body; native gRPC's framed messages), where the adapter kept it. */
  body?: Uint8Array;
}

/** Chooses a route's answer for a call; `undefined`: schema mode answers. */
export type GrpcRouting = (call: GrpcCallInfo) => Promise<GrpcReply | undefined>;
