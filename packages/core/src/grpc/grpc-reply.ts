/**
 * What answers one gRPC call when a route does (schema mode otherwise): the
 * messages to send, in proto3 JSON, each after its delay, then a status, with
 * metadata (response headers) and trailers. The pipeline chooses and renders
 * it (engine/pipeline/grpc-answer.ts, the call's walk: engine/grpc-edge.ts),
 * the shared sink waits its latency or holds it (engine/call-sink.ts); the
 * call's handler (stream-answers.ts) writes its messages.
 *
 * @module
 */
import type { AnswerMark } from '../journal/journal-entry.js';
import type { GrpcCall } from './call-record.js';

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
  /** Sent in order (unary and client streaming: the first only). */
  messages: GrpcOut[];
  /** Bidirectional streaming: what to send for each message received (with its index); absent: nothing. */
  onMessage?: (message: unknown, index: number) => Promise<GrpcOut[]> | GrpcOut[];
  status?: GrpcReplyStatus;
  metadata?: Record<string, string | string[]>;
  trailers?: Record<string, string | string[]>;
  /** Reset the stream (no status) once the messages are sent: a route's `fault: reset`, or a fault the steps gave. */
  reset?: boolean;
  /**
   * Milliseconds each message is held for its encoded `bytes` besides its own delay: chaos
   * `bandwidth`, as engine/pipeline/chaos-bandwidth.ts paces every answer's bytes.
   */
  pace?: (bytes: number) => number;
  /** Not an answer: schema mode (or the routes) answers, with `metadata` (and `pace`). */
  schema?: true;
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

/** What the routing reads of the call being answered: its signal, read only when the answer waits. */
export interface CallHandle {
  /** Aborts once the call ends (its deadline, the client gone). */
  readonly signal: AbortSignal;
}

/**
 * Chooses the answer to a call and plays what comes before its messages (the steps' latency, a
 * held call), noting in `record` how the call was answered; resolves to the reply to send
 * (`undefined`: schema mode answers), rejects when the call ends first.
 */
export type GrpcRouting = (
  call: GrpcCallInfo,
  handle: CallHandle,
  record: GrpcCall | undefined,
) => Promise<GrpcReply | undefined>;
