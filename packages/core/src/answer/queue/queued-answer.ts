/**
 * What a request answered by a queued answer gets: the queued fields with the
 * stored record's as fallback, as an {@link EndpointAnswer} every adapter sends
 * (`respond`) or performs (`fault`), and the Fetch-API stand-in for a fault.
 *
 * @module
 */
import type { CachedResponse } from '../../http/cache.js';
import type { Fault, TakenAnswer } from '../../wire/answer-json.js';
import { jsonTextOf } from '../../wire/json-text.js';
import { type EndpointAnswer, type FaultAnswer, fetchHeaders, utf8Length } from '../endpoint-answer.js';
import { BODILESS_STATUS, CORS_HEADERS, JSON_HEADERS } from '../read-response.js';

/** A queued answer resolved against the record. */
export interface PlannedAnswer {
  /** The status sent; `0` for `reset` and `hang`, which send no status line. */
  statusCode: number;
  /** The JSON text of the body (`null` when the status forbids one or a fault sends none). */
  body: string | null;
  /** Milliseconds before answering (or failing). */
  delay: number;
  fault?: Fault;
}

/** What a queued answer's absent fields fall back to: the record's (or a route's) answer. */
export type QueueFallback = Pick<CachedResponse, 'body' | 'statusCode' | 'delay'>;

/** The body of the 404 a queued answer without data gets when there is no record. */
function notFoundBody(name: string): string {
  const message = `no endpoint named "${name}" and the queued answer has no data; queue data or create the endpoint`;
  return JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message } });
}

/**
 * Resolves one queued answer for `name` against its cached record (`undefined`
 * when there is none): absent fields fall back to the record; with neither data
 * nor a record the answer is 404 `NOT_FOUND`.
 */
export function planQueuedAnswer(name: string, taken: TakenAnswer, record: QueueFallback | undefined): PlannedAnswer {
  const delay = taken.delay ?? record?.delay ?? 0;
  if (taken.fault === 'reset' || taken.fault === 'hang')
    return { statusCode: 0, body: null, delay, fault: taken.fault };
  let statusCode: number;
  let body: string;
  if (Object.hasOwn(taken, 'data')) {
    statusCode = taken.statusCode ?? record?.statusCode ?? 200;
    body = jsonTextOf(taken.data);
  } else if (record !== undefined) {
    statusCode = taken.statusCode ?? record.statusCode;
    body = record.body;
  } else {
    statusCode = 404;
    body = notFoundBody(name);
  }
  const planned: PlannedAnswer = { statusCode, body: BODILESS_STATUS.has(statusCode) ? null : body, delay };
  if (taken.fault === 'close') planned.fault = 'close';
  return planned;
}

/** Options for {@link toQueuedAnswer}. */
export interface QueuedAnswerContext {
  /** A HEAD request: the answer has no body (but keeps its Content-Length). */
  head: boolean;
  /** For `hang`: aborts when the queue of the name is cleared. */
  release: AbortSignal;
  /** For `hang`: what a released request gets (the record as it is then). */
  next: () => EndpointAnswer | Promise<EndpointAnswer>;
}

/** The {@link EndpointAnswer} for a planned queued answer. */
export function toQueuedAnswer(planned: PlannedAnswer, context: QueuedAnswerContext): EndpointAnswer {
  const headers: Record<string, string> =
    planned.body === null
      ? { ...CORS_HEADERS }
      : { ...JSON_HEADERS, 'content-length': String(utf8Length(planned.body)) };
  const { statusCode: status, delay } = planned;
  if (planned.fault === undefined) {
    return { kind: 'respond', status, headers, body: context.head ? null : planned.body, delay };
  }
  if (planned.fault === 'hang') {
    return {
      kind: 'fault',
      fault: 'hang',
      status,
      headers,
      body: null,
      delay,
      release: context.release,
      next: context.next,
    };
  }
  return { kind: 'fault', fault: planned.fault, status, headers, body: context.head ? null : planned.body, delay };
}

const encoder = new TextEncoder();

/** The bytes of `body` that `close` sends before closing: the first half, so the client sees a cut body. */
export function truncatedBody(body: string | Uint8Array | null): Uint8Array {
  if (body === null) return new Uint8Array(0);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return bytes.subarray(0, Math.floor(bytes.byteLength / 2));
}

/**
 * The Fetch-API stand-in for `reset` and `close`: the headers, then part of the
 * body (none for `reset`), then a stream error, which runtimes that stream bodies
 * (Bun, Deno, workerd) turn into an aborted connection. A Fetch handler cannot
 * refuse to send a status line, so `reset` arrives as a 200 whose body breaks
 * before its first byte. (The Node adapter resets or closes the socket itself.)
 */
export function faultResponse(answer: FaultAnswer): Response {
  const sent = answer.fault === 'close' ? truncatedBody(answer.body) : new Uint8Array(0);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (sent.byteLength > 0) controller.enqueue(sent);
    },
    pull(controller) {
      controller.error(new Error(`mockpoint: queued fault ${answer.fault}`));
    },
  });
  return new Response(body, {
    status: answer.fault === 'close' ? answer.status : 200,
    headers: fetchHeaders(answer.headers),
  });
}
