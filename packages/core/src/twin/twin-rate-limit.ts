/**
 * A twin's own rate limit (the profile's `rateLimit`, docs/twins.md): GitHub
 * allows an authenticated client 5,000 requests an hour, and says so on every
 * answer (`X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Used`, `-Resource`).
 * Each token's requests are counted in fixed windows of `per` from its first
 * request, as GitHub's are, in this process's memory (a replica counts its
 * own; a twin's setting changed starts them again), by the twin's clock; a
 * request past the limit is refused until its window ends. A conditional
 * request answered `304` is given back, as GitHub counts none.
 *
 * @module
 */
import { windowMs } from '../api/rate-limit.js';
import { type RateTake, rateLimitHeaders } from '../api/rate-limit-headers.js';
import type { FlowError } from './twin-flows.js';
import type { TwinProfile } from './twin-profile.js';

type Limit = NonNullable<TwinProfile['rateLimit']>;

/** Most tokens counted at once; past it, those whose window ended go first, then the oldest. */
const MAX_TOKENS = 10_000;

/** One token's window. */
interface Window {
  start: number;
  used: number;
}

/** What one request found of its token's window. */
export interface TwinRateTake extends RateTake {
  /** It was counted: the twin answers it. */
  readonly allowed: boolean;
  /** Its token. */
  readonly key: string;
  /** When its window started. */
  readonly start: number;
}

export class TwinRates {
  readonly #limit: Limit;
  readonly #windowMs: number;
  readonly #windows = new Map<string, Window>();

  constructor(limit: Limit) {
    this.#limit = limit;
    // The profile's schema took only a duration it reads.
    this.#windowMs = windowMs(limit.per) ?? 3_600_000;
  }

  /** Counts one request of `key` (its token) at `now`, unless its window is used up. */
  take(key: string, now: number): TwinRateTake {
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.start + this.#windowMs) {
      window = { start: now, used: 0 };
      this.#keep(key, window, now);
    }
    const allowed = window.used < this.#limit.limit;
    if (allowed) window.used++;
    return this.#taken(key, window, allowed, now);
  }

  /** `take` given back (a `304`): not counted, if its window is still the one it counted in. */
  giveBack(take: TwinRateTake): TwinRateTake {
    const window = this.#windows.get(take.key);
    if (!take.allowed || window === undefined || window.start !== take.start || window.used === 0) return take;
    window.used--;
    return this.#taken(take.key, window, true, take.now);
  }

  /** The headers an answer carries for `take`, in the profile's style. */
  headers(take: TwinRateTake): Record<string, string> {
    return rateLimitHeaders(this.#limit.style, take, 'twin') ?? {};
  }

  /** The refusal of a request past the limit (GitHub's `403`, its remaining `0`). */
  refusal(take: TwinRateTake): FlowError {
    const resets = new Date(take.now + take.resetMs).toISOString();
    return {
      status: this.#limit.status,
      type: 'rate_limit_error',
      code: 'rate_limit',
      message: `API rate limit exceeded for this token: ${this.#limit.limit} requests per ${this.#limit.per}, counted by the twin. It resets at ${resets}.`,
    };
  }

  #taken(key: string, window: Window, allowed: boolean, now: number): TwinRateTake {
    return {
      allowed,
      key,
      start: window.start,
      limit: this.#limit.limit,
      windowMs: this.#windowMs,
      remaining: Math.max(0, this.#limit.limit - window.used),
      resetMs: window.start + this.#windowMs - now,
      now,
    };
  }

  #keep(key: string, window: Window, now: number): void {
    this.#windows.delete(key);
    if (this.#windows.size >= MAX_TOKENS) {
      for (const [other, kept] of this.#windows) if (now >= kept.start + this.#windowMs) this.#windows.delete(other);
    }
    if (this.#windows.size >= MAX_TOKENS) {
      const [oldest] = this.#windows.keys();
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
    this.#windows.set(key, window);
  }
}
