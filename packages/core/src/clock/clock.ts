/**
 * The app's clock (docs/clock.md): real time, or real time moved by an
 * offset, or frozen at one moment. One per app — each namespace is an app, so
 * each namespace has its own. What reads time on behalf of a mock (templates'
 * `{{now}}`, timed state moves) reads {@link Clock.now}; what measures the
 * daemon itself (the journal's `receivedAt`, timeouts) reads real time.
 *
 * @module
 */

/** The clock as `GET /api/clock` shows it. */
export interface ClockView {
  /** The clock's time, ISO 8601. */
  now: string;
  /** Whether time stands still. */
  frozen: boolean;
  /** The clock's time minus real time, in ms (while frozen it grows as real time passes). */
  offsetMs: number;
}

/**
 * What a clock holds, as it is kept in a shared backend (docs/clock.md): the
 * moment it stands at (`frozenAt`), or its offset from real time. `{ offsetMs: 0 }`
 * is real time.
 */
export type ClockState = { frozenAt: number } | { offsetMs: number };

/** The first and last instants the clock may show: ISO 8601 with a four-digit year. */
export const CLOCK_MIN_MS = 0;
export const CLOCK_MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

export class Clock {
  readonly #real: () => number;
  #offsetMs = 0;
  /** The moment it stands at while frozen. */
  #frozenAt: number | undefined = undefined;
  readonly #listeners = new Set<() => void>();

  /** @param real real time in ms since the epoch (tests give their own). @default Date.now */
  constructor(real: () => number = Date.now) {
    this.#real = real;
  }

  /** The clock's time, in ms since the epoch. */
  now(): number {
    return this.#frozenAt ?? this.#real() + this.#offsetMs;
  }

  /** Whether time stands still. */
  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  /** Whether it shows real time (not frozen, no offset): what {@link reset} returns to. */
  get real(): boolean {
    return this.#frozenAt === undefined && this.#offsetMs === 0;
  }

  view(): ClockView {
    const frozenAt = this.#frozenAt;
    const offsetMs = frozenAt === undefined ? this.#offsetMs : frozenAt - this.#real();
    return { now: new Date(this.now()).toISOString(), frozen: this.frozen, offsetMs };
  }

  /** Stops time where it is (`true`), or lets it run on from there (`false`). */
  freeze(frozen: boolean): void {
    if (frozen === this.frozen) return;
    if (frozen) this.#frozenAt = this.now();
    else {
      this.#offsetMs = (this.#frozenAt as number) - this.#real();
      this.#frozenAt = undefined;
    }
    this.#changed();
  }

  /** Shows `ms` from now on (frozen there, or running on from it). @throws RangeError outside the years 1970–9999. */
  set(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < CLOCK_MIN_MS || ms > CLOCK_MAX_MS) {
      throw new RangeError(`the clock shows times from 1970 to 9999 (got ${ms})`);
    }
    if (this.#frozenAt !== undefined) this.#frozenAt = ms;
    else this.#offsetMs = ms - this.#real();
    this.#changed();
  }

  /** Moves time on by `ms` (≥ 0). @throws RangeError when that passes the year 9999. */
  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`the clock advances by ms ≥ 0 (got ${ms})`);
    const to = this.now() + ms;
    if (to > CLOCK_MAX_MS) throw new RangeError(`the clock shows times up to the year 9999 (got ${to})`);
    // By the offset, not to a time read first: exactly `ms` on, however long this took.
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offsetMs += ms;
    this.#changed();
  }

  /** Back to real time: running, no offset. */
  reset(): void {
    if (this.real) return;
    this.#frozenAt = undefined;
    this.#offsetMs = 0;
    this.#changed();
  }

  /** What it holds now: frozen at a moment, or its offset from real time. */
  state(): ClockState {
    return this.#frozenAt === undefined ? { offsetMs: this.#offsetMs } : { frozenAt: this.#frozenAt };
  }

  /**
   * Holds `state` from now on (another replica's change, read from the backend),
   * telling the listeners when that changes anything.
   */
  adopt(state: ClockState): void {
    const frozenAt = 'frozenAt' in state ? state.frozenAt : undefined;
    const offsetMs = 'offsetMs' in state ? state.offsetMs : 0;
    if (frozenAt === this.#frozenAt && offsetMs === this.#offsetMs) return;
    this.#frozenAt = frozenAt;
    this.#offsetMs = offsetMs;
    this.#changed();
  }

  /** A clock on the same real time holding the same state, with no listeners: a change computed before it is kept. */
  copy(): Clock {
    const copy = new Clock(this.#real);
    copy.#frozenAt = this.#frozenAt;
    copy.#offsetMs = this.#offsetMs;
    return copy;
  }

  /** Calls `listener` after every change (set, advance, freeze, reset); returns its removal. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
