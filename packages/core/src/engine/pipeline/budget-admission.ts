/**
 * A route's expensive work admitted through the daemon's budget of expensive work
 * (turns/work-budget.ts), as a twin's is (twin/twin-admission.ts): a resource route's answer with
 * `_embed`/`_expand`, whose size grows with the collections it draws from. Past the budget, after
 * its wait, the route answers mockpoint's own `429` (`RATE_LIMITED`, the `ietf` style of
 * api/rate-limit-headers.ts) with `Retry-After`.
 *
 * @module
 */
import type { RespondAnswer } from '../../answer/endpoint-answer.js';
import type { Exchange } from './exchange.js';
import { refusedAnswer } from './rate-limit-answers.js';

const MB = 1024 * 1024;

/** What {@link admitted} gives: the work's value, or the refusal to answer in its place. */
export type Admitted<T> = { value: T } | { refused: RespondAnswer };

/**
 * Runs `work` (of about `units` bytes; `what` names it) once the daemon's budget has room for it;
 * at once where the app has no budget. Refused when the budget stayed full for its wait.
 */
export async function admitted<T>(
  exchange: Exchange,
  units: number,
  what: string,
  work: () => T,
): Promise<Admitted<T>> {
  const budget = exchange.parts.workBudget;
  if (budget === undefined) return { value: work() };
  const ticket = await budget.admit(units);
  if (!ticket.admitted) {
    const seconds = ticket.retryAfterSeconds;
    const note = `This request (${what}, about ${Math.max(1, Math.round(units / MB))} MB of work) waited for the daemon's budget of expensive work (${Math.round(ticket.budget / MB)} MB under way at once), which other requests held: retry after ${seconds} s, or ask for less at once (a smaller page, fewer relations).`;
    const retryMs = seconds * 1000;
    const take = { limit: 1, windowMs: retryMs, remaining: 0, resetMs: retryMs, retryMs, now: Date.now(), note };
    return { refused: refusedAnswer('ietf', take, 'budget', exchange.name, exchange.head) };
  }
  try {
    return { value: work() };
  } finally {
    ticket.release();
  }
}
