/**
 * A twin's expensive work admitted through the daemon's {@link WorkBudget} (turns/work-budget.ts):
 * an answer built past a size (a list with its `expand[]`), an index built over the whole state (a
 * search's, `GET /issues`'). Past the budget the work waits briefly in line, then is refused as the
 * provider refuses a client that asks too much at once: the profile's `busy` status with the `429`
 * of its rate-limit style (api/rate-limit-headers.ts: GitHub's `403` "secondary rate limit",
 * Stripe's `429` `rate_limit_error`), with `Retry-After`, which the providers' SDKs read and wait
 * for (Octokit's throttling plugin, stripe-node's retries).
 *
 * @module
 */
import { refusedInStyle } from '../api/rate-limit-headers.js';
import type { WorkBudget } from '../turns/work-budget.js';
import type { TwinAnswer } from './twin-answer.js';
import type { TwinProfile } from './twin-profile.js';

/** A request refused for the budget: answered {@link TooBusy.answer} as it is (its request id added). */
export class TooBusy extends Error {
  constructor(readonly answer: TwinAnswer) {
    super("Too many expensive requests at once: the daemon's budget of expensive work stayed full.");
  }
}

const MB = 1024 * 1024;

/** Runs a twin's expensive work through the daemon's budget; without one, at once. */
export class TwinAdmission {
  readonly #budget: WorkBudget | undefined;
  readonly #profile: TwinProfile;

  constructor(budget: WorkBudget | undefined, profile: TwinProfile) {
    this.#budget = budget;
    this.#profile = profile;
  }

  /**
   * Runs `work` once `units` of the budget are its (held until it settles); throws {@link TooBusy}
   * when they could not be had within the wait. `what` names the work in the refusal.
   */
  async run<T>(units: number, what: string, work: () => Promise<T>): Promise<T> {
    const budget = this.#budget;
    if (budget === undefined) return work();
    const ticket = await budget.admit(units);
    if (!ticket.admitted) throw new TooBusy(this.#refusal(ticket.retryAfterSeconds, units, ticket.budget, what));
    try {
      return await work();
    } finally {
      ticket.release();
    }
  }

  /** The refusal in the profile's `busy` style: its body and headers, `Retry-After`, mockpoint's note. */
  #refusal(seconds: number, units: number, budget: number, what: string): TwinAnswer {
    const { style, status } = this.#profile.busy;
    const size = `about ${Math.max(1, Math.round(units / MB))} MB of work`;
    const note = `This request (${what}, ${size}) waited for the daemon's budget of expensive work (${Math.round(budget / MB)} MB under way at once), which other requests held: retry after ${seconds} s, or ask for less at once (a smaller page, fewer expansions).`;
    const retryMs = seconds * 1000;
    const take = { limit: 1, windowMs: retryMs, remaining: 0, resetMs: retryMs, retryMs, now: Date.now(), note };
    const refused = refusedInStyle(style, take, 'budget', 'budget');
    return {
      status,
      headers: {
        'content-type': 'application/json',
        ...refused.headers,
        ...refused.added,
        'retry-after': String(seconds),
      },
      body: refused.body,
    };
  }
}
