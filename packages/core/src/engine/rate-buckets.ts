/**
 * The token buckets of routes' rate limits (api/rate-limit.ts), one per
 * endpoint name and bucket (a route's id unless it names a shared bucket):
 * each app has its own (so each namespace), and a change to the name's routes
 * starts them full again (docs/rate-limits.md). In this process, unless the
 * backend shares them between replicas (a {@link RateBucketStore}: Redis),
 * where the same arithmetic runs in one script. A bucket holds `limit` tokens and gains
 * them back evenly over the window; a request takes one or is refused.
 *
 * The arithmetic is in whole units of 1/window of a token (`limit × window`
 * when full, at most 3.1e15 for the largest limit and window: exact in a
 * double), so `limit` requests pass, the next is refused, and the bucket is
 * full again exactly one window later, with no rounding drift.
 *
 * @module
 */

import type { RateBucketStore } from '../store/backend.js';

export type { RateBucketStore };

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

/** What a take found, from the bucket's level after it (tokens × windowMs). */
export function bucketTake(allowed: boolean, level: number, limit: number, windowMs: number, now: number): BucketTake {
  const full = limit * windowMs;
  const remaining = Math.floor(level / windowMs);
  const resetMs = Math.ceil((full - level) / limit);
  const retryMs = level >= windowMs ? 0 : Math.ceil((windowMs - level) / limit);
  return { allowed, limit, windowMs, remaining, resetMs, retryMs, now };
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
  readonly #shared: RateBucketStore | undefined;
  /** When every bucket taken from in this process is full again (the clock's ms): until then they hold state. */
  #fullAt = 0;

  /**
   * `now`: the clock, in ms (tests pass their own); `shared`: the backend's buckets, where replicas share them.
   * @default Date.now, in this process
   */
  constructor(now: () => number = Date.now, shared?: RateBucketStore) {
    this.#now = now;
    this.#shared = shared;
  }

  /**
   * Takes a token from the bucket `bucket` of route table `table` (endpoint `name`'s),
   * of `limit` tokens refilled over `windowMs`: at once in this process, a promise where shared.
   */
  take(table: object, name: string, bucket: string, limit: number, windowMs: number): BucketTake | Promise<BucketTake> {
    const now = Math.floor(this.#now());
    if (this.#shared !== undefined) {
      return this.#shared
        .take(name, bucket, limit, windowMs, now)
        .then(({ allowed, level }) => bucketTake(allowed, level, limit, windowMs, now));
    }
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
    const take = bucketTake(allowed, state.level, limit, windowMs, now);
    this.#fullAt = Math.max(this.#fullAt, now + take.resetMs);
    return take;
  }

  /**
   * Whether a bucket kept in this process is not full yet: then the app holding them is not
   * idle (an unloaded namespace would start its buckets full). Shared buckets live in the backend.
   */
  holdsAny(): boolean {
    return this.#shared === undefined && this.#now() < this.#fullAt;
  }
}
