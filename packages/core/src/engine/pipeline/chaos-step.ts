/**
 * The chaos step (after the signature check, before the queue and the routes):
 * a name with chaos has each request decided by its seeded plan — a fault
 * injected (the connection reset, held until the client gives up, or a 500,
 * 503 or 429 JSON error), journaled as one; otherwise the request goes on, with
 * the drawn latency added to whatever answers it. See docs/chaos.md.
 *
 * @module
 */

import { type EndpointAnswer, errorAnswer, type FaultAnswer } from '../../answer/endpoint-answer.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import type { ChaosFault } from '../../wire/chaos.js';
import type { ErrorCode } from '../../wire/errors.js';
import { throttled } from './chaos-bandwidth.js';
import type { ChaosPlan } from './chaos-plan.js';
import type { Exchange } from './exchange.js';
import type { Step, Verdict } from './step.js';

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

/** The answer of an injected fault, sent after `delay` ms. */
function faultAnswer(exchange: Exchange, fault: ChaosFault, delay: number): EndpointAnswer {
  if (fault === 'reset') return { ...RESET, delay };
  if (fault === 'timeout') {
    // Held until the client gives up, or the name changes (chaos cleared): then reset, nothing sent.
    const release = exchange.parts.endpoints.changes.signal(exchange.name);
    const answer: FaultAnswer = { ...RESET, fault: 'hang', delay, release, next: () => RESET };
    return answer;
  }
  const { status, code } = HTTP_FAULTS[fault];
  const message = `injected by the chaos of "${exchange.name}" (${fault}); clear it with DELETE /api/endpoints/${exchange.name}/chaos`;
  const extra = fault === '429' ? { 'retry-after': '1' } : undefined;
  const answer = errorAnswer(status, code, message, { head: exchange.head, cors: true, extra });
  return answer.kind === 'respond' && delay > 0 ? { ...answer, delay } : answer;
}

/** One request's decision: a fault answers it; none passes it on, the latency kept for its answer. */
function decide(exchange: Exchange, plan: ChaosPlan): Verdict | undefined {
  const { fault, delay } = plan.next();
  if (fault === undefined) {
    exchange.chaos = { delay, bandwidth: plan.settings.bandwidth };
    return undefined;
  }
  const mark: AnswerMark = { answeredBy: { chaos: fault } };
  if (fault === 'reset') mark.fault = 'reset';
  else if (fault === 'timeout') mark.fault = 'hang';
  return { answer: faultAnswer(exchange, fault, delay), mark };
}

export const chaosStep: Step = {
  name: 'chaos',
  run(exchange) {
    const { endpoints } = exchange.parts;
    // One synchronous Map lookup when the name is known to have no chaos.
    const plan = endpoints.chaosPlans.get(exchange.name);
    if (plan === null) return undefined;
    if (plan !== undefined) return decide(exchange, plan);
    return endpoints
      .chaosPlan(exchange.name)
      .then((loaded) => (loaded === null ? undefined : decide(exchange, loaded)));
  },
};

/**
 * The answer with the chaos of its request applied: its latency added (an
 * answer that cannot wait, a relay, as it is), its body sent at the bandwidth.
 */
export function withChaos(answer: EndpointAnswer, chaos: Exchange['chaos']): EndpointAnswer {
  if (chaos === undefined) return answer;
  const { delay, bandwidth } = chaos;
  const waited = delay <= 0 || answer.kind === 'relay' ? answer : { ...answer, delay: answer.delay + delay };
  return bandwidth === undefined ? waited : throttled(waited, bandwidth);
}
