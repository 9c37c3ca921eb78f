/**
 * The queue's step: a matching queued answer is taken (once, whichever replica
 * the request reached) and resolved against what would answer without the
 * queue; journaled as answered by the queue, with its fault and the parameters
 * of its `match.path`.
 *
 * @module
 */
import { byQueue } from '../../journal/journal-entry.js';
import { filterPattern, subpathSegments } from '../../journal/request-filter.js';
import { matchPathPattern } from '../../wire/path-pattern.js';
import type { EndpointAnswer } from '../endpoint-answer.js';
import type { Taken } from '../queue/answer-queue.js';
import { planQueuedAnswer, type QueueFallback, queuedStream, toQueuedAnswer } from '../queue/queued-answer.js';
import { resumeAfter } from '../stream/stream-frames.js';
import type { Exchange } from './exchange.js';
import { routeFallback } from './route-step.js';
import type { Step, Verdict } from './step.js';
import { failedAnswer, heldUntilChange, recordAnswer, renderFailed } from './verdicts.js';

/** The parameters of a queued answer's `match.path` for this request (`{}` without one). */
function queuedParams(taken: Taken, exchange: Exchange): Record<string, string> {
  const path = taken.answer.match?.path;
  if (path === undefined) return {};
  const pattern = filterPattern(path);
  return (pattern && matchPathPattern(pattern, subpathSegments(exchange.view.subpath))) || {};
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

export const queueStep: Step = {
  name: 'queue',
  run(exchange) {
    const { queue } = exchange.parts.endpoints;
    // One synchronous Map lookup when no queue is in use; the answer is taken before
    // anything is awaited, so queued answers go out in the order requests came in.
    if (!queue.pending(exchange.name)) return undefined;
    return queue
      .take(exchange.name, exchange.view)
      .then((taken) => (taken === undefined ? undefined : queued(exchange, taken)));
  },
};
