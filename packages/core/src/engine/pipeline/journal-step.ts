/**
 * The journal, as the pipeline's outermost step: it passes every request on
 * and, once a verdict comes back out through the steps (each step's `after`,
 * step.ts), records the request as the verdict says — the answer as it will
 * be sent (the chaos step's latency and bandwidth applied already, since it
 * sits inside) — and lets a stream that hangs go at the name's next change.
 * {@link journalAnswer} is the one place an HTTP request's entry is written:
 * the cached plain record's shortcut (EndpointHandler) calls it too. A
 * gRPC-family call's entry needs its messages both ways and its final status:
 * the step registers it on the call's end ({@link CallEnd}, call-end.ts) and
 * writes it once the call is over ({@link journalCall}).
 *
 * @module
 */

import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import { markOf } from '../../grpc/call-record.js';
import { answered } from '../../journal/answer-record.js';
import type { Journal } from '../../journal/journal.js';
import type { AnswerMark, RecordedRequest } from '../../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT, JOURNAL_NAME_LIMIT } from '../../registry/limits.js';
import type { CallEnd } from './call-end.js';
import type { Exchange } from './exchange.js';
import { FIRST_BYTES, type Step, type Verdict } from './step.js';
import { heldUntilChange } from './verdicts.js';

/**
 * Records `request` to `name` answered with `answer` (its status `status`, how:
 * `mark`); a name too long for the journal is not recorded. The journal owns
 * `request` afterwards.
 */
export function journalAnswer(
  journal: Journal,
  name: string,
  request: RecordedRequest,
  answer: EndpointAnswer,
  status: number,
  mark: AnswerMark,
): void {
  if (name.length > JOURNAL_NAME_LIMIT) return;
  answered(request, answer);
  journal.record(name, request, status, mark);
}

/**
 * The verdict journaled (when it has a mark: a proxy route journals once its
 * upstream has answered, a failure not at all), with the state it moved; its
 * stream held until the name changes when it ends with `hang`.
 */
export function journaled(verdict: Verdict, exchange: Exchange): Verdict {
  const { callEnd } = exchange;
  if (callEnd !== undefined) {
    callEnd.on(() => journalCall(exchange, callEnd));
    return verdict;
  }
  const { answer } = verdict;
  let { mark } = verdict;
  if (mark !== undefined) {
    const state = exchange.journalState();
    if (state !== undefined) mark = { ...mark, state };
    journalAnswer(
      exchange.parts.journal,
      exchange.name,
      exchange.request,
      answer,
      verdict.status ?? answer.status,
      mark,
    );
  }
  const held = heldUntilChange(exchange, answer);
  return held === answer ? verdict : { ...verdict, answer: held };
}

/**
 * Journals a call that is over under its name, with its `grpc` mark: its `path`
 * is the one requested (as the client sent it), its `subpath` the method's
 * (`/{package.Service}/{Method}`), wherever it was sent; answered by the route
 * or queued answer that answered it, else by its definitions (`grpc`).
 */
function journalCall(exchange: Exchange, end: CallEnd): void {
  const { request } = exchange;
  const { call, body } = end;
  const recorded: RecordedRequest = {
    method: 'POST',
    target: request.target,
    rawHeaders: request.rawHeaders,
    body: body.subarray(0, JOURNAL_BODY_LIMIT),
    bodyTruncated: body.length > JOURNAL_BODY_LIMIT,
    startedAt: request.startedAt,
  };
  if (call.signature !== undefined) recorded.signature = call.signature;
  const by =
    call.queued === true ? { queue: true as const } : call.route === undefined ? 'grpc' : { route: call.route };
  exchange.parts.journal.record(exchange.name, recorded, end.status, {
    answeredBy: by,
    ...call.mark,
    ...(call.state === undefined ? {} : { state: call.state }),
    grpc: { service: end.service, method: end.method, ...markOf(call) },
  });
}

export const journalStep: Step = {
  name: 'journal',
  run: () => undefined,
  passes: () => true,
  reads: FIRST_BYTES,
  after: journaled,
};
