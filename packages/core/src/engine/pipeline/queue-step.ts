/**
 * The queue's step: a matching queued answer is taken (once, whichever replica
 * the request reached) and resolved against what would answer without the
 * queue; journaled as answered by the queue, with its fault and the parameters
 * of its `match.path`.
 *
 * @module
 */

import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import {
  planQueuedAnswer,
  type QueueFallback,
  queuedStream,
  toQueuedAnswer,
} from '../../answer/queue/queued-answer.js';
import { resumeAfter } from '../../answer/stream/stream-frames.js';
import { movedStates } from '../../api/state-json.js';
import { byQueue } from '../../journal/journal-entry.js';
import { pathParams } from '../../journal/request-filter.js';
import type { Taken } from '../../queue/answer-queue.js';
import type { Exchange } from './exchange.js';
import { grpcQueuedVerdict } from './grpc-answer.js';
import { routeFallback } from './route-step.js';
import { keptMoving, MAX_MOVES, moveForTaken, pick, scenariosOf } from './state-moves.js';
import type { Step, Verdict } from './step.js';
import { failedAnswer, heldUntilChange, recordAnswer, renderFailed } from './verdicts.js';

/** The parameters of a queued answer's `match.path` for this request (`{}` without one). */
function queuedParams(taken: Taken, exchange: Exchange): Record<string, string> {
  const path = taken.answer.match?.path;
  return (path !== undefined && pathParams(path, exchange.view.subpath)) || {};
}

/**
 * What a queued answer's absent fields fall back to: what would answer without
 * the queue (the matching route's answer, else the record at the bare URL), or
 * `undefined` when nothing would.
 */
async function fallback(exchange: Exchange): Promise<QueueFallback | undefined> {
  const fromRoute = routeFallback(exchange, exchange.hit(await exchange.routes()));
  if (fromRoute !== undefined) return fromRoute ?? undefined;
  if (exchange.subpath !== '/') return undefined;
  const { endpoints } = exchange.parts;
  return (endpoints.cache.get(exchange.name) ?? (await endpoints.response(exchange.name)))?.answers.full;
}

/** A released hang gets what would answer then (not journaled again). */
function answerThen(exchange: Exchange, release: AbortSignal): () => Promise<EndpointAnswer> {
  return async () => {
    const now = exchange.later();
    try {
      const later = await fallback(now);
      if (later === undefined) return recordAnswer(now, undefined);
      const planned = planQueuedAnswer(now.name, {}, later);
      return heldUntilChange(
        now,
        toQueuedAnswer(planned, { head: now.head, release, next: async () => recordAnswer(now, undefined) }),
      );
    } catch (error) {
      return failedAnswer(now, error);
    }
  };
}

async function queued(exchange: Exchange, taken: Taken): Promise<Verdict> {
  // A `grpc` answer (taken by a call only) falls back to nothing: the call's reply is all it is.
  if (taken.answer.grpc !== undefined) return grpcQueuedVerdict(exchange, taken.answer, queuedParams(taken, exchange));
  const { name, head } = exchange;
  const fell = await fallback(exchange);
  const params = queuedParams(taken, exchange);
  const context = exchange.context(params, 1);
  const withParams = Object.keys(params).length > 0;
  const queuedMark = withParams ? { ...byQueue(), params } : byQueue();
  const { stream } = taken.answer;
  let planned: ReturnType<typeof planQueuedAnswer>;
  try {
    if (stream !== undefined) {
      const streamed = queuedStream({ ...taken.answer, stream }, fell, head, context);
      return { answer: resumeAfter(streamed, exchange.lastEventId), mark: queuedMark };
    }
    planned = planQueuedAnswer(name, taken.answer, fell, taken.answer.template === true ? context : undefined);
  } catch (error) {
    return renderFailed(exchange, queuedMark, 'the queued answer', error, {});
  }
  const mark = byQueue(planned.fault);
  const answer = toQueuedAnswer(planned, { head, release: taken.release, next: answerThen(exchange, taken.release) });
  return { answer, status: planned.statusCode, mark: withParams ? { ...mark, params } : mark };
}

/**
 * Takes the next queued answer this request matches. One that looks at the
 * state (`match.state`) or moves it (`setState`) is answered with only if the
 * scenarios it looked at are still where the take saw them, moved in the same
 * compare-and-set (docs/state.md); else it goes back first in line and the
 * request takes again, on the state as it is then.
 */
async function take(exchange: Exchange): Promise<Taken | undefined> {
  const { queue, states } = exchange.parts.endpoints;
  for (let attempt = 0; attempt < MAX_MOVES; attempt++) {
    if (attempt > 0) exchange.view.state = { before: await states.get(exchange.name) };
    const taken = await queue.take(exchange.name, exchange.view);
    if (taken === undefined) return undefined;
    const before = exchange.view.state?.before;
    const { match, setState } = taken.answer;
    if (before === undefined || (match?.state === undefined && setState === undefined)) {
      if (before !== undefined) exchange.states = before;
      return taken;
    }
    const seen = scenariosOf(match?.state);
    const { timers, maxTimers } = exchange.parts;
    const after = await moveForTaken({ states, timers, maxTimers }, exchange.name, before, taken.answer, () =>
      queue.putBack(exchange.name, taken),
    );
    if (after === undefined) {
      await queue.putBack(exchange.name, taken);
      continue;
    }
    if (setState !== undefined) for (const scenario of Object.keys(movedStates(setState))) seen.add(scenario);
    exchange.states = after;
    exchange.stateMark = { before: pick(before, seen), after: pick(after, seen) };
    return taken;
  }
  throw keptMoving(exchange.name);
}

export const queueStep: Step = {
  name: 'queue',
  passes: (parts, name) => !parts.endpoints.queue.pending(name),
  // Queued answers may match the body or render it (`{{body…}}`). A call takes only a `grpc` answer
  // (answer-queue.ts), which matches and renders its decoded messages, not its bytes.
  reads: (parts, name, kind) =>
    kind === 'request' && parts.endpoints.queue.pending(name) ? 'whole-body' : 'first-bytes',
  run(exchange) {
    // One synchronous Map lookup when no queue is in use; the answer is taken before
    // anything else is awaited, so queued answers go out in the order requests came in.
    if (!exchange.parts.endpoints.queue.pending(exchange.name)) return undefined;
    return take(exchange).then((taken) => (taken === undefined ? undefined : queued(exchange, taken)));
  },
};
