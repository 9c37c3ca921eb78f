/**
 * The chaos step (after the signature check, before the queue and the routes):
 * a name with chaos has each request decided by its seeded plan — a fault
 * injected (the connection reset, held until the client gives up, or a 500,
 * 503 or 429 JSON error), journaled as one; otherwise the request goes on, and
 * whatever answers it comes back out through this step (its `after`), which
 * adds the drawn latency and sends the bytes at the bandwidth. See docs/chaos.md.
 *
 * @module
 */

import { type EndpointAnswer, errorAnswer, type FaultAnswer } from '../../answer/endpoint-answer.js';
import { type ChaosFault, NAMESPACE_CHAOS_KEY } from '../../api/chaos.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import type { ErrorCode } from '../../registry/errors.js';
import { throttled } from './chaos-bandwidth.js';
import type { ChaosPlan } from './chaos-plan.js';
import type { Exchange } from './exchange.js';
import { FIRST_BYTES, type Maybe, type Step, type Verdict } from './step.js';

/** The connection reset, nothing sent. */
const RESET: FaultAnswer = Object.freeze({
  kind: 'fault',
  fault: 'reset',
  status: 0,
  headers: Object.freeze({}),
  body: null,
  delay: 0,
});

/** The HTTP faults: status and stable code. */
const HTTP_FAULTS = {
  '500': { status: 500, code: 'CHAOS_INTERNAL_ERROR' },
  '503': { status: 503, code: 'CHAOS_UNAVAILABLE' },
  '429': { status: 429, code: 'CHAOS_RATE_LIMITED' },
} as const satisfies Record<string, { status: number; code: ErrorCode }>;

/** The answer of an injected fault, sent after `delay` ms; `key`: whose chaos (the name, or the namespace's key). */
function faultAnswer(exchange: Exchange, fault: ChaosFault, delay: number, key: string): EndpointAnswer {
  if (fault === 'reset') return { ...RESET, delay };
  if (fault === 'timeout') {
    // Held until the client gives up, or that chaos changes (cleared): then reset, nothing sent.
    const release = exchange.parts.endpoints.changes.signal(key);
    const answer: FaultAnswer = { ...RESET, fault: 'hang', delay, release, next: () => RESET };
    return answer;
  }
  const { status, code } = HTTP_FAULTS[fault];
  const message =
    key === NAMESPACE_CHAOS_KEY
      ? `injected by the namespace's chaos (${fault}); clear it with DELETE /api/chaos`
      : `injected by the chaos of "${exchange.name}" (${fault}); clear it with DELETE /api/endpoints/${exchange.name}/chaos`;
  const extra = fault === '429' ? { 'retry-after': '1' } : undefined;
  const answer = errorAnswer(status, code, message, { head: exchange.head, cors: true, extra });
  return delay > 0 ? { ...answer, delay } : answer;
}

/** One request's decision by the plan kept under `key`: a fault answers it; none passes it on, the latency kept for its answer. */
function decide(exchange: Exchange, plan: ChaosPlan, key: string): Verdict | undefined {
  const { fault, delay } = plan.next();
  if (fault === undefined) {
    exchange.chaos = { delay, bandwidth: plan.settings.bandwidth };
    return undefined;
  }
  const mark: AnswerMark = {
    answeredBy: key === NAMESPACE_CHAOS_KEY ? { chaos: fault, namespace: true } : { chaos: fault },
  };
  if (fault === 'reset') mark.fault = 'reset';
  else if (fault === 'timeout') mark.fault = 'hang';
  return { answer: faultAnswer(exchange, fault, delay, key), mark };
}

type Outcome = Maybe<Verdict | undefined>;

/** The chaos kept under `key` decides, if there is any; otherwise `fallback`. */
function byPlan(exchange: Exchange, key: string, fallback: (exchange: Exchange) => Outcome): Outcome {
  const { endpoints } = exchange.parts;
  // One synchronous Map lookup when the key is known to have no chaos.
  const plan = endpoints.compiled.get('chaos', key);
  if (plan === null) return fallback(exchange);
  if (plan !== undefined) return decide(exchange, plan, key);
  return endpoints.compiled
    .read('chaos', key)
    .then((loaded) => (loaded === null ? fallback(exchange) : decide(exchange, loaded, key)));
}

/** No chaos anywhere: the request goes on. */
const noChaos = (): undefined => undefined;

/** The namespace's chaos, for a name without its own. */
const namespaceChaos = (exchange: Exchange): Outcome => byPlan(exchange, NAMESPACE_CHAOS_KEY, noChaos);

export const chaosStep: Step = {
  name: 'chaos',
  // The endpoint's own chaos wins; a name without any falls to the namespace's.
  run: (exchange) => byPlan(exchange, exchange.name, namespaceChaos),
  passes: ({ endpoints }, name) =>
    endpoints.compiled.get('chaos', name) === null && endpoints.compiled.get('chaos', NAMESPACE_CHAOS_KEY) === null,
  // A fault is chosen by the plan's dice, not by the body.
  reads: FIRST_BYTES,
  after: chaosApplied,
};

/**
 * The verdict with the chaos of its request applied to its answer: its latency
 * added, its bytes sent at the bandwidth (chaos-bandwidth.ts); as it is without any.
 */
function chaosApplied(verdict: Verdict, exchange: Exchange): Verdict {
  const { chaos } = exchange;
  if (chaos === undefined) return verdict;
  const { delay, bandwidth } = chaos;
  const { answer } = verdict;
  const waited = delay <= 0 ? answer : { ...answer, delay: answer.delay + delay };
  return { ...verdict, answer: bandwidth === undefined ? waited : throttled(waited, bandwidth) };
}
