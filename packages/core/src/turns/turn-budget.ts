/**
 * Long synchronous work cut into event-loop turns: a large routes list is read,
 * checked and compiled a slice at a time, so `/api/health` and every other
 * request are answered between the slices (issue #49 S7).
 *
 * @module
 */

/** Work per turn before {@link TurnBudget.pause} lets the event loop run. */
export const TURN_BUDGET_MS = 10;

/**
 * Routes text from this many characters on is read and checked in slices
 * ({@link TurnBudget}); smaller lists take the plain synchronous path.
 */
export const SLICED_ROUTES_CHARS = 256 * 1024;

/**
 * Two `setImmediate` hops where there is one: work that began in an I/O callback
 * would otherwise go on in the check phase of the same loop iteration, before any
 * other I/O (a health request) is read.
 */
const later: (resume: () => void) => void =
  typeof setImmediate === 'function'
    ? (resume) => setImmediate(() => setImmediate(resume))
    : (resume) => setTimeout(resume, 0);

/** Resolves in a later event-loop turn, after the I/O that was waiting (a poll phase) has been read. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => later(resolve));
}

/**
 * Time spent since the last turn: {@link pause} yields to the event loop once
 * `budgetMs` of it passed, and otherwise returns at once (no turn is lost on
 * short work).
 * @example const budget = new TurnBudget(); for (const item of items) { work(item); await budget.pause(); }
 */
export class TurnBudget {
  readonly #budgetMs: number;
  #since = performance.now();

  constructor(budgetMs: number = TURN_BUDGET_MS) {
    this.#budgetMs = budgetMs;
  }

  /** Whether the budget of this turn is spent. */
  get spent(): boolean {
    return performance.now() - this.#since >= this.#budgetMs;
  }

  /** Yields to the event loop when the budget is spent (then starts a new one). */
  async pause(): Promise<void> {
    if (!this.spent) return;
    await nextTurn();
    this.#since = performance.now();
  }
}
