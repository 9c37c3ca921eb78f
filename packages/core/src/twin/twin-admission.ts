/**
 * A twin's expensive work admitted through the daemon's {@link WorkBudget} (turns/work-budget.ts):
 * an answer built past a size (a list with its `expand[]`), an index built over the whole state (a
 * search's, `GET /issues`'). Past the budget the work waits briefly in line, then is refused as the
 * provider refuses a client that asks too much at once: its rate limit's error (the profile's
 * `rateLimit` status, GitHub's `403` "secondary rate limit"; else `429`, Stripe's), with
 * `Retry-After`, which the providers' SDKs read and wait for (Octokit's throttling plugin,
 * stripe-node's retries).
 *
 * @module
 */
import { TurnBudget } from '../turns/turn-budget.js';
import type { WorkBudget } from '../turns/work-budget.js';
import type { FlowError } from './twin-flows.js';
import type { TwinProfile } from './twin-profile.js';

/** A request refused for the budget: answered as {@link TooBusy.error}, with its `Retry-After`. */
export class TooBusy extends Error {
  constructor(readonly error: FlowError & { headers: Record<string, string> }) {
    super(error.message);
  }
}

const MB = 1024 * 1024;

/** Answers from this many characters on leave as their bytes, encoded in turns ({@link encodedInTurns}). */
const LARGE_ANSWER_CHARS = MB;

/** Characters encoded in one piece (a few tens of milliseconds on a loaded machine). */
const SLICE_CHARS = 256 * 1024;

const encoder = new TextEncoder();

/**
 * `text` as UTF-8, encoded a slice at a time with turns between: a 15 MB answer's encoding (and
 * the count of its bytes before) is 400-700 ms of one block on a loaded machine, and was done as
 * it was written, outside the budget; here it is the budget's, and /api/health is answered between.
 */
async function encodedInTurns(text: string): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  const turns = new TurnBudget();
  let length = 0;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + SLICE_CHARS);
    // Never between the two halves of a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    const piece = encoder.encode(text.slice(at, end));
    pieces.push(piece);
    length += piece.length;
    at = end;
    await turns.pause();
  }
  const bytes = new Uint8Array(length);
  let written = 0;
  for (const piece of pieces) {
    bytes.set(piece, written);
    written += piece.length;
  }
  return bytes;
}

/** A large answer (of a read) as its bytes ({@link encodedInTurns}); a smaller one as it is. */
export async function largeAnswer<T extends { body: string; bytes?: Uint8Array }>(answer: T): Promise<T> {
  if (answer.body.length < LARGE_ANSWER_CHARS || answer.bytes !== undefined) return answer;
  return { ...answer, body: '', bytes: await encodedInTurns(answer.body) };
}

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

  #refusal(seconds: number, units: number, budget: number, what: string): TooBusy['error'] {
    const limit = this.#profile.rateLimit;
    const size = `about ${Math.max(1, Math.round(units / MB))} MB of work`;
    const lead = 'Too many expensive requests hit the API at once.';
    return {
      status: limit?.status ?? 429,
      type: 'rate_limit_error',
      code: 'rate_limit',
      message: `${lead} This request (${what}, ${size}) waited for the daemon's budget of expensive work (${Math.round(budget / MB)} MB under way at once), which other requests held: retry after ${seconds} s, or ask for less at once (a smaller page, fewer expansions).`,
      headers: { 'retry-after': String(seconds) },
    };
  }
}
