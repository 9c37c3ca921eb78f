/**
 * The token buckets of routes' rate limits (wire/rate-limit.ts), one per
 * endpoint name and bucket (a route's id unless it names a shared bucket), in
 * this process: each app has its own (so each namespace), replicas do not
 * share them, and a change to the name's routes starts them full again
 * (docs/rate-limits.md). A bucket holds `limit` tokens and gains
 * them back evenly over the window; a request takes one or is refused.
 *
 * The arithmetic is in whole units of 1/window of a token (`limit × window`
 * when full, at most 3.1e15 for the largest limit and window: exact in a
 * double), so `limit` requests pass, the next is refused, and the bucket is
 * full again exactly one window later, with no rounding drift.
 *
 * @module
 */

/** What a request found in its bucket. */
export interface BucketTake {
  /** It got a token: the route answers. */
  readonly allowed: boolean;
  /** The bucket's size (the rate limit's `limit`). */
  readonly limit: number;
  /** The window, in ms. */
  readonly windowMs: number;
  /** Whole tokens left after this request. */
  readonly remaining: number;
  /** Milliseconds until the bucket is full again. */
  readonly resetMs: number;
  /** Milliseconds until the next token (0 when one is there now). */
  readonly retryMs: number;
  /** When it was taken (the clock's ms). */
  readonly now: number;
}

interface Bucket {
  /** Tokens × windowMs. */
  level: number;
  /** When `level` was last brought up to date. */
  at: number;
}

export class RateBuckets {
  /** Each route table's buckets by name: a table replaced (its routes changed, the endpoint deleted or reset) takes its buckets with it. */
  readonly #tables = new WeakMap<object, Map<string, Bucket>>();
  readonly #now: () => number;

  /** `now`: the clock, in ms (tests pass their own). @default Date.now */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Takes a token from the bucket `bucket` of route table `table`, of `limit` tokens refilled over `windowMs`. */
  take(table: object, bucket: string, limit: number, windowMs: number): BucketTake {
    const now = Math.floor(this.#now());
    let buckets = this.#tables.get(table);
    if (buckets === undefined) {
      buckets = new Map();
      this.#tables.set(table, buckets);
    }
    const full = limit * windowMs;
    let state = buckets.get(bucket);
    if (state === undefined) {
      state = { level: full, at: now };
      buckets.set(bucket, state);
    } else {
      // A clock set back refills nothing; one moved on refills what the time is worth.
      const elapsed = Math.max(0, now - state.at);
      state.level = Math.min(full, state.level + elapsed * limit);
      state.at = now;
    }
    const allowed = state.level >= windowMs;
    if (allowed) state.level -= windowMs;
    const remaining = Math.floor(state.level / windowMs);
    const resetMs = Math.ceil((full - state.level) / limit);
    const retryMs = state.level >= windowMs ? 0 : Math.ceil((windowMs - state.level) / limit);
    return { allowed, limit, windowMs, remaining, resetMs, retryMs, now };
  }
}
