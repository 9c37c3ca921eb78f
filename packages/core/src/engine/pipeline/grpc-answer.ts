/**
 * The `grpc` answer kind, as the route step and the queue step answer a
 * gRPC-family call with it (only a call's view reaches a `grpc` route or
 * queued answer: route-table.ts, queue/answer-queue.ts): the reply the call's
 * handler plays (grpc/grpc-reply.ts), rendered when templated (`{{body.a}}`
 * the first message, `{{messages}}` all of them, each `on` reply on the
 * message it answers), given as the verdict's {@link CallAnswer}, which the
 * steps' after-work and the call's edge (engine/grpc-edge.ts) see as any answer.
 *
 * @module
 */
import type { CallAnswer } from '../../answer/endpoint-answer.js';
import type { RouteHit } from '../../answer/routes/route-table.js';
import { compileJsonTemplate, renderJson, type TemplateContext } from '../../answer/template.js';
import type { GrpcAnswer, GrpcAnswerMessage } from '../../api/answer-grpc.js';
import { grpcCodeOf } from '../../api/answer-grpc.js';
import type { RouteAnswer } from '../../api/route.js';
import type { GrpcCallInfo, GrpcOut, GrpcReply } from '../../grpc/grpc-reply.js';
import { firstMismatch } from '../../journal/graphql-filter.js';
import { byQueue } from '../../journal/journal-entry.js';
import type { FilterSubject } from '../../journal/request-filter.js';
import type { Exchange, ExchangeCall } from './exchange.js';
import type { Verdict } from './step.js';

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of headers) out[name] = value;
  return out;
}

/** One of a bidirectional call's messages as the one filter sees it (an `on` reply's `match`). */
function subjectOf(info: GrpcCallInfo, message: unknown): FilterSubject {
  return {
    method: 'POST',
    subpath: `/${info.service}/${info.method}`,
    query: {},
    rawQuery: '',
    headers: headersOf(info.headers),
    body: JSON.stringify(message ?? null),
    bodyTruncated: false,
    json: message,
    grpc: { service: info.service, method: info.method, message },
  };
}

/** Compiled templates by the answer's text. */
const TEMPLATES = new Map<string, ReturnType<typeof compileJsonTemplate>>();

/** `value` with its templates rendered in `context`. */
function rendered<T>(value: T, context: TemplateContext): T {
  const text = JSON.stringify(value);
  let template = TEMPLATES.get(text);
  if (template === undefined) {
    template = compileJsonTemplate(text);
    if (TEMPLATES.size >= 1000) TEMPLATES.clear();
    TEMPLATES.set(text, template);
  }
  return JSON.parse(renderJson(template, context)) as T;
}

function outs(messages: readonly GrpcAnswerMessage[] | undefined): GrpcOut[] {
  return (messages ?? []).map(({ message, delay }) => (delay === undefined ? { message } : { message, delay }));
}

/** Where an answer comes from, for its reply: `route r1` or `the queued answer`, with the template's `params` and `seq`. */
interface GrpcAnswerSource {
  by: string;
  route?: string;
  queued?: true;
  params: Record<string, string>;
  seq: number;
}

/** The reply a route's or queued answer gives the call, rendered when templated (on the state as `exchange.states`). */
function replyOf(
  exchange: Exchange,
  call: ExchangeCall,
  answer: Pick<RouteAnswer, 'grpc' | 'delay' | 'fault' | 'template'>,
  source: GrpcAnswerSource,
): GrpcReply {
  const { info } = call;
  // The call's context: its metadata as `headers`, the message answered as `json`, every one read as `messages`.
  const contextOf = (message: unknown): TemplateContext => ({
    ...exchange.context(source.params, source.seq),
    json: message,
    messages: info.messages,
  });
  const template = answer.template === true;
  const grpc = template
    ? rendered(answer.grpc as GrpcAnswer, contextOf(info.messages[0]))
    : (answer.grpc as GrpcAnswer);
  const reply: GrpcReply = {
    by: source.by,
    messages: grpc.message !== undefined ? [{ message: grpc.message }] : outs(grpc.messages),
  };
  if (source.route !== undefined) reply.route = source.route;
  if (source.queued === true) reply.queued = true;
  if (template) reply.templated = true;
  if (grpc.metadata !== undefined) reply.metadata = grpc.metadata;
  if (grpc.trailers !== undefined) reply.trailers = grpc.trailers;
  if (answer.fault === 'reset') reply.reset = true;
  if (grpc.status !== undefined) {
    reply.status = { code: grpcCodeOf(grpc.status.code) ?? 2 };
    if (grpc.status.message !== undefined) reply.status.message = grpc.status.message;
    if (grpc.status.details !== undefined) reply.status.details = grpc.status.details;
  }
  const on = (answer.grpc as GrpcAnswer).on;
  if (on !== undefined) {
    reply.onMessage = (message) => {
      const subject = subjectOf(info, message);
      const found = on.find((entry) => entry.match === undefined || firstMismatch(subject, entry.match) === undefined);
      const sent = outs(found?.send);
      return template ? rendered(sent, contextOf(message)) : sent;
    };
  }
  return reply;
}

/** No headers of its own: the steps add theirs (a rate limit's), sent as metadata. */
const NO_HEADERS = Object.freeze({});

/** The answer that plays `reply` on the call, after the answer's own `delay` (the steps' after-work may add to it). */
export function callAnswer(reply: GrpcReply | undefined, delay = 0): CallAnswer {
  return { kind: 'call', status: 200, headers: NO_HEADERS, reply, delay };
}

/** Only a call's exchange reaches a `grpc` answer (its view alone has `grpc`). */
function callOf(exchange: Exchange): ExchangeCall {
  const { call } = exchange;
  if (call === undefined) throw new Error(`mockpoint: a grpc answer reached ${exchange.request.target}, no call`);
  return call;
}

/**
 * A route's `grpc` answer (route-kinds.ts): its reply as the verdict's answer, to which the rate
 * limit's headers (rate-limit-step.ts) are added, sent as metadata.
 */
export function grpcVerdict(exchange: Exchange, hit: RouteHit): Verdict {
  const call = callOf(exchange);
  const { route, params } = hit;
  const source = { by: `route ${route.id}`, route: route.id, params, seq: ++route.seq };
  const reply = replyOf(exchange, call, route.route.answer, source);
  return { answer: callAnswer(reply, route.route.answer.delay), mark: { answeredBy: { route: route.id }, params } };
}

/** A queued `grpc` answer taken by the call (queue-step.ts), with its `match.path`'s parameters. */
export function grpcQueuedVerdict(
  exchange: Exchange,
  answer: Pick<RouteAnswer, 'grpc' | 'delay' | 'fault' | 'template'>,
  params: Record<string, string>,
): Verdict {
  const call = callOf(exchange);
  const reply = replyOf(exchange, call, answer, { by: 'the queued answer', queued: true, params, seq: 1 });
  return { answer: callAnswer(reply, answer.delay), mark: byQueue() };
}
