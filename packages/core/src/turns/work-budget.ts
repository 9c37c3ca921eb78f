/**
 * One budget of expensive work for the whole daemon: a large answer built (a Stripe list with its
 * expansions, up to 16 MiB), a long scan of a twin's state, costs units (about its bytes; a scan,
 * {@link SCAN_ITEM_UNITS} an item read), and at most {@link WORK_BUDGET_UNITS} of them are under
 * way at once. Work past it waits in line, briefly ({@link WORK_WAIT_MS}), for what is under way
 * to finish; still no room then, it is refused, with the seconds after which to ask again, and its
 * caller answers that as the provider's rate limit (`Retry-After`). Twenty 15 MB answers asked at
 * once are then built a few at a time instead of all together (#86 H3: /api/health stalled 7.5-9.5 s
 * and RSS grew by 600 MB), and cheap work (health, a page of one repository) never waits: only
 * work past {@link WORK_THRESHOLD_UNITS} is admitted through it.
 *
 * Every app of the daemon shares one (the namespaces' apps get the default one's: create-app.ts).
 *
 * @module
 */

/**
 * Units of work one budget lets be under way at once (about bytes: one answer of 16 MiB, several
 * times that in objects while it is built; two of them at once held RSS 30 MB higher, no faster).
 */
const WORK_BUDGET_UNITS = 16 * 1024 * 1024;

/** Work cheaper than this many units is not admitted through the budget: it is done at once. */
const WORK_THRESHOLD_UNITS = 1024 * 1024;

/** How long work past the budget waits for room before it is refused. */
const WORK_WAIT_MS = 1_000;

/** What reading one item of a scan costs, in units: a scan of 8,100 issues is about 8 MiB of work. */
export const SCAN_ITEM_UNITS = 1024;

/** Most works waiting at once; past it a work is refused without waiting (the line stays bounded). */
const MAX_WAITING = 1_000;

/** Work admitted: {@link release} gives its units back (once; later calls do nothing). */
export interface WorkTicket {
  readonly admitted: true;
  release(): void;
}

/** Work refused: the budget stayed full for the whole wait. */
export interface WorkRefusal {
  readonly admitted: false;
  /** Whole seconds after which to ask again (at least 1): what `Retry-After` says. */
  readonly retryAfterSeconds: number;
  /** The units it asked for and the budget's, for the message. */
  readonly units: number;
  readonly budget: number;
}

/** Options of a {@link WorkBudget}. */
export interface WorkBudgetOptions {
  /** Units under way at once. @default {@link WORK_BUDGET_UNITS} */
  units?: number;
  /** Longest wait for room, in milliseconds. @default {@link WORK_WAIT_MS} */
  waitMs?: number;
  /** Work cheaper than this is admitted at once, uncounted. @default {@link WORK_THRESHOLD_UNITS} */
  threshold?: number;
}

interface Waiter {
  units: number;
  admit: (ticket: WorkTicket) => void;
  timer: ReturnType<typeof setTimeout>;
}

const FREE: WorkTicket = Object.freeze({ admitted: true as const, release: () => {} });

/**
 * The daemon's budget of expensive work.
 * @example
 * const ticket = await budget.admit(answerBytes);
 * if (!ticket.admitted) return rateLimited(ticket.retryAfterSeconds);
 * try { return build(); } finally { ticket.release(); }
 */
export class WorkBudget {
  readonly #units: number;
  readonly #waitMs: number;
  readonly #threshold: number;
  #used = 0;
  readonly #waiting: Waiter[] = [];

  constructor(options: WorkBudgetOptions = {}) {
    this.#units = options.units ?? WORK_BUDGET_UNITS;
    this.#waitMs = options.waitMs ?? WORK_WAIT_MS;
    this.#threshold = options.threshold ?? WORK_THRESHOLD_UNITS;
  }

  /** Units under way now, and works waiting (for tests and `/api/health`-style reports). */
  get used(): number {
    return this.#used;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Admits work of `units`: at once while the budget has room (work under the threshold always),
   * else after those ahead of it, within the wait; refused past it. Work larger than the whole
   * budget counts as the whole budget: it runs alone.
   */
  admit(units: number): Promise<WorkTicket | WorkRefusal> {
    if (!(units >= this.#threshold)) return Promise.resolve(FREE);
    const taken = Math.min(units, this.#units);
    if (this.#waiting.length === 0 && this.#used + taken <= this.#units) return Promise.resolve(this.#ticket(taken));
    if (this.#waiting.length >= MAX_WAITING) return Promise.resolve(this.#refusal(units));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        units: taken,
        admit: resolve,
        timer: setTimeout(() => {
          const at = this.#waiting.indexOf(waiter);
          if (at !== -1) this.#waiting.splice(at, 1);
          resolve(this.#refusal(units));
          // The first in line may have been held back only by this one.
          this.#wake();
        }, this.#waitMs),
      };
      this.#waiting.push(waiter);
    });
  }

  #ticket(units: number): WorkTicket {
    this.#used += units;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.#used -= units;
        this.#wake();
      },
    };
  }

  /** Admits those first in line while they fit (in order: a large one is not passed by small ones). */
  #wake(): void {
    for (let first = this.#waiting[0]; first !== undefined; first = this.#waiting[0]) {
      if (this.#used + first.units > this.#units) return;
      this.#waiting.shift();
      clearTimeout(first.timer);
      first.admit(this.#ticket(first.units));
    }
  }

  #refusal(units: number): WorkRefusal {
    // What is under way (and in line) ahead of it, at about one budget a second, as whole seconds.
    const ahead = this.#used + this.#waiting.reduce((sum, one) => sum + one.units, 0);
    return {
      admitted: false,
      retryAfterSeconds: Math.max(1, Math.min(60, Math.ceil(ahead / this.#units))),
      units,
      budget: this.#units,
    };
  }
}
