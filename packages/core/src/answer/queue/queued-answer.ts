/**
 * What a request answered by a queued answer gets: the queued fields with the
 * stored record's as fallback, as an {@link EndpointAnswer} every adapter sends
 * (`respond`) or performs (`fault`).
 *
 * @module
 */
import type { Fault, TakenAnswer } from '../../api/answer-json.js';
import type { RouteAnswer } from '../../api/route.js';
import { utf8Length } from '../../codec/utf8-length.js';
import type { AnswerHeaderMap, EndpointAnswer, RespondAnswer, StreamAnswer } from '../endpoint-answer.js';
import { answerCases, matchAnswer } from '../match-answer.js';
import { BODILESS_STATUS, CORS_HEADERS, JSON_HEADERS } from '../read-response.js';
import { compileAnswer } from '../routes/route-answer.js';
import { STREAM_HEADERS } from '../stream/stream-frames.js';
import { RenderBudget, type TemplateContext } from '../template.js';

/** A queued answer resolved against its fallback. */
export interface PlannedAnswer {
  /** The status sent; `0` for `reset` and `hang`, which send no status line. */
  statusCode: number;
  /** Lower-case names, without Content-Length and the CORS headers (added when sent). */
  headers: AnswerHeaderMap;
  /** The body (`null` when the status forbids one or a fault sends none). */
  body: string | Uint8Array | null;
  /** Milliseconds before answering (or failing). */
  delay: number;
  fault?: Fault;
  /**
   * The events sent instead of a body: the fallback's, when it streams and the
   * queued answer has no body of its own (`body` is then `null`).
   */
  stream?: Pick<StreamAnswer, 'frames' | 'end'>;
}

/**
 * What a queued answer's absent fields fall back to: the answer that would have
 * been sent without the queue (the first matching route's, or the record's),
 * which may stream.
 */
export type QueueFallback = Pick<RespondAnswer, 'kind' | 'status' | 'headers' | 'body' | 'delay'> | StreamAnswer;

/** The bytes a streamed answer writes, all of them (what a `close` fault cuts in half). */
function streamBytes(frames: StreamAnswer['frames']): Uint8Array {
  const all = new Uint8Array(frames.reduce((sum, frame) => sum + frame.bytes.byteLength, 0));
  let at = 0;
  for (const frame of frames) {
    all.set(frame.bytes, at);
    at += frame.bytes.byteLength;
  }
  return all;
}

/** The body of the 404 a queued answer without a body gets when nothing else would answer. */
function notFoundBody(name: string): string {
  const message = `nothing of "${name}" answers this request (no record, no matching route) and the queued answer has no body; queue data, body or bodyBase64, add a route, or create the endpoint`;
  return JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message } });
}

/** Headers a planned answer does not carry: they are added (or counted) when it is sent. */
const ADDED = new Set(['content-length', ...Object.keys(CORS_HEADERS)]);

function ownHeaders(headers: AnswerHeaderMap, without?: string): Record<string, string | readonly string[]> {
  const out: Record<string, string | readonly string[]> = {};
  for (const name of Object.keys(headers)) {
    if (!ADDED.has(name) && name !== without) out[name] = headers[name] as string | readonly string[];
  }
  return out;
}

/** A no-op context for an untemplated answer (which renders nothing). */
const NO_CONTEXT: TemplateContext = {
  params: {},
  query: {},
  headers: {},
  json: undefined,
  seq: 1,
  budget: new RenderBudget(Number.POSITIVE_INFINITY),
};

/** A queued answer's own parts rendered (headers, a body): a respond answer, or nothing to use. */
const RESPONDED = answerCases<RespondAnswer | undefined>({
  respond: (answer) => answer,
  otherwise: () => undefined,
});

/**
 * What a fallback lends a queued answer without a body of its own: its body; a
 * stream's events (written out as one body, which a `close` fault cuts in half).
 */
const LENT = answerCases<Pick<PlannedAnswer, 'body' | 'stream'>, Fault | undefined>({
  respond: (fallback) => ({ body: fallback.body }),
  stream: (fallback, fault) =>
    fault === 'close'
      ? { body: streamBytes(fallback.frames) }
      : { body: null, stream: { frames: fallback.frames, end: fallback.end } },
  // A fallback is a record's or a route's answer that responds or streams (`QueueFallback`).
  otherwise: () => ({ body: null }),
});

/**
 * Resolves one queued answer for `name` against `fallback` (what would answer
 * without the queue, `undefined` when nothing would): each absent field takes the
 * fallback's (`headers` as a whole; the Content-Type follows the body). With
 * neither a body nor a fallback the answer is 404 `NOT_FOUND`. A fallback that
 * streams lends its events (as `stream`) in place of a body; a `close` fault
 * cuts them, written out as one body, in half. A `template` answer renders its
 * own parts with `context`.
 */
export function planQueuedAnswer(
  name: string,
  taken: TakenAnswer,
  fallback: QueueFallback | undefined,
  context: TemplateContext = NO_CONTEXT,
): PlannedAnswer {
  const delay = taken.delay ?? fallback?.delay ?? 0;
  if (taken.fault === 'reset' || taken.fault === 'hang') {
    return { statusCode: 0, headers: {}, body: null, delay, fault: taken.fault };
  }
  const hasBody = Object.hasOwn(taken, 'data') || taken.body !== undefined || taken.bodyBase64 !== undefined;
  // The answer's own parts, rendered as a route renders them (default Content-Type of its body form included).
  const own: RouteAnswer = {};
  if (taken.headers !== undefined) own.headers = taken.headers;
  if (Object.hasOwn(taken, 'data')) own.data = taken.data;
  else if (taken.body !== undefined) own.body = taken.body;
  else if (taken.bodyBase64 !== undefined) own.bodyBase64 = taken.bodyBase64;
  if (taken.template === true) own.template = true;
  const rendered = (taken.headers !== undefined || hasBody) && compileAnswer(own).answer(false, context);
  const mine = rendered ? matchAnswer(rendered, RESPONDED, undefined, undefined) : undefined;

  let statusCode: number;
  let body: string | Uint8Array | null;
  let headers: Record<string, string | readonly string[]>;
  let stream: PlannedAnswer['stream'];
  if (hasBody && mine !== undefined) {
    statusCode = taken.statusCode ?? fallback?.status ?? 200;
    body = mine.body;
    headers =
      taken.headers !== undefined
        ? ownHeaders(mine.headers)
        : { ...ownHeaders(fallback?.headers ?? {}, 'content-type'), ...pick(mine.headers, 'content-type') };
  } else if (fallback !== undefined) {
    statusCode = taken.statusCode ?? fallback.status;
    ({ body, stream } = matchAnswer(fallback, LENT, taken.fault, undefined));
    const type = pick(fallback.headers, 'content-type');
    headers = mine !== undefined ? { ...type, ...ownHeaders(mine.headers) } : ownHeaders(fallback.headers);
  } else {
    statusCode = 404;
    body = notFoundBody(name);
    headers = { 'content-type': JSON_HEADERS['content-type'] };
  }
  if (stream !== undefined) {
    // Own headers replace the fallback's, but a stream still must not be buffered on the way.
    for (const [name, value] of Object.entries(STREAM_HEADERS)) headers[name] ??= value;
  }
  if (BODILESS_STATUS.has(statusCode)) {
    body = null;
    stream = undefined;
    delete headers['content-type'];
  }
  const planned: PlannedAnswer = { statusCode, headers, body, delay };
  if (stream !== undefined) planned.stream = stream;
  if (taken.fault === 'close') planned.fault = 'close';
  return planned;
}

/** `{ [name]: value }` when `headers` has `name`, else `{}`. */
function pick(headers: AnswerHeaderMap, name: string): Record<string, string | readonly string[]> {
  const value = headers[name];
  return value === undefined ? {} : { [name]: value };
}

/**
 * A queued streamed answer: its own headers, stream and template; its status
 * and delay fall back like any queued answer's (a bodiless status to 200).
 */
export function queuedStream(
  taken: TakenAnswer & Required<Pick<TakenAnswer, 'stream'>>,
  fallback: Pick<QueueFallback, 'status' | 'delay'> | undefined,
  head: boolean,
  context: TemplateContext = NO_CONTEXT,
): StreamAnswer {
  const status = fallback !== undefined && !BODILESS_STATUS.has(fallback.status) ? fallback.status : 200;
  const answer: RouteAnswer = {
    statusCode: taken.statusCode ?? status,
    stream: taken.stream,
    delay: taken.delay ?? fallback?.delay ?? 0,
  };
  if (taken.headers !== undefined) answer.headers = taken.headers;
  if (taken.template === true) answer.template = true;
  return compileAnswer(answer).answer(head, context) as StreamAnswer;
}

/** Options for {@link toQueuedAnswer}. */
export interface QueuedAnswerContext {
  /** A HEAD request: the answer has no body (but keeps its Content-Length). */
  head: boolean;
  /** For `hang`: aborts when the queue of the name is cleared. */
  release: AbortSignal;
  /** For `hang`: what a released request gets (what would answer then). */
  next: () => EndpointAnswer | Promise<EndpointAnswer>;
}

/** The {@link EndpointAnswer} for a planned queued answer. */
export function toQueuedAnswer(planned: PlannedAnswer, context: QueuedAnswerContext): EndpointAnswer {
  const headers: Record<string, string | readonly string[]> = { ...CORS_HEADERS, ...planned.headers };
  if (planned.body !== null) {
    headers['content-length'] = String(
      typeof planned.body === 'string' ? utf8Length(planned.body) : planned.body.byteLength,
    );
  }
  const { statusCode: status, delay } = planned;
  if (planned.fault === undefined) {
    const { stream } = planned;
    if (stream !== undefined) {
      // HEAD: the headers alone, ended at once (as a route's streamed answer).
      return context.head
        ? { kind: 'stream', status, headers, frames: [], end: 'close', delay }
        : { kind: 'stream', status, headers, frames: stream.frames, end: stream.end, delay };
    }
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
