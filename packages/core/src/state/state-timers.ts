/**
 * Timed state moves (docs/clock.md): a route's `setState: { after, to }` moves
 * the state that long after its answer, by the app's {@link Clock}. Each move
 * waits here until the clock reaches it — a clock advanced past it fires it at
 * once ({@link StateTimers.fireDue}), a running clock fires it on one real
 * timer (the earliest move's), a frozen one never on its own. A move is made
 * only if the scenarios it moves are still where the answer left them (a
 * compare-and-set: another request, a `PUT …/state` or a reset in between
 * wins); a reset or `PUT …/state` of the name also forgets its moves. Kept in
 * this process: bounded by `max`.
 *
 * @module
 */

import type { States } from '../api/state-json.js';
import type { Clock } from '../clock/clock.js';
import type { StateStore } from './state-store.js';

/** The longest one real timer waits before looking again (setTimeout's own bound is 24.8 days). */
const MAX_WAIT_MS = 3_600_000;

/** One move waiting for its time. */
interface Pending {
  readonly name: string;
  /** The clock's time it is due at. */
  readonly dueAt: number;
  /** Where the scenarios it moves must still be. */
  readonly expect: States;
  readonly to: States;
  /** Its place among moves due at once: they are made in the order they were scheduled. */
  readonly order: number;
}

export interface StateTimersOptions {
  readonly clock: Clock;
  readonly states: StateStore;
  /** Moves that may wait at once (in all names); past it {@link StateTimers.schedule} returns false. */
  readonly max: number;
  /** Called with a move that failed (a store error); never throws. */
  readonly report: (error: unknown) => void;
}

export class StateTimers {
  readonly #options: StateTimersOptions;
  /** By `dueAt`, then `order`. */
  #pending: Pending[] = [];
  #order = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firing: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: StateTimersOptions) {
    this.#options = options;
    options.clock.onChange(() => this.#arm());
  }

  /** Moves waiting, in all names. */
  get size(): number {
    return this.#pending.length;
  }

  /**
   * Moves `name`'s scenarios to `to` once `afterMs` have passed on the clock,
   * if they are still at `expect` then; false (nothing scheduled) when `max`
   * moves wait already.
   */
  schedule(name: string, afterMs: number, expect: States, to: States): boolean {
    if (this.#pending.length >= this.#options.max) return false;
    const move: Pending = { name, dueAt: this.#options.clock.now() + afterMs, expect, to, order: this.#order++ };
    // After every move due at the same time or earlier: equal times keep their order.
    let low = 0;
    let high = this.#pending.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#pending[mid] as Pending).dueAt <= move.dueAt) low = mid + 1;
      else high = mid;
    }
    this.#pending.splice(low, 0, move);
    if (low === 0) this.#arm();
    return true;
  }

  /** Forgets every move waiting for `name` (its state was reset, put or deleted). */
  cancel(name: string): void {
    const kept = this.#pending.filter((move) => move.name !== name);
    if (kept.length === this.#pending.length) return;
    this.#pending = kept;
    this.#arm();
  }

  /** Forgets every move waiting. */
  cancelAll(): void {
    this.#pending = [];
    this.#arm();
  }

  /**
   * Makes every move due by the clock's time, in order, one at a time; resolves
   * once they are written (after any firing already under way).
   */
  fireDue(): Promise<void> {
    this.#firing = this.#firing.then(() => this.#fire());
    return this.#firing;
  }

  /** Stops the real timer; moves still waiting are forgotten. */
  close(): void {
    this.#closed = true;
    this.#pending = [];
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #fire(): Promise<void> {
    const { clock, states, report } = this.#options;
    for (;;) {
      const next = this.#pending[0];
      if (next === undefined || next.dueAt > clock.now()) break;
      this.#pending.shift();
      try {
        // undefined: the scenarios moved meanwhile, and that move wins.
        await states.move(next.name, next.expect, next.to);
      } catch (error) {
        try {
          report(error);
        } catch {
          // reporting never stops the timers
        }
      }
    }
    this.#arm();
  }

  /** One real timer for the earliest move, while the clock runs. */
  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const next = this.#pending[0];
    if (this.#closed || next === undefined) return;
    const { clock } = this.#options;
    const wait = next.dueAt - clock.now();
    if (wait <= 0) {
      void this.fireDue();
      return;
    }
    // A frozen clock does not move by itself: only PUT /api/clock (which arms again) moves it.
    if (clock.frozen) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.fireDue();
      },
      Math.min(wait, MAX_WAIT_MS),
    );
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/** Timed state moves that may wait at once in one app (one namespace). */
export const MAX_TIMED_MOVES = 10_000;
