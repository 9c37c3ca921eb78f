import { describe, expect, it } from 'vitest';
import { openAiDuration } from '../api/rate-limit-headers.js';
import { type BucketTake, RateBuckets } from './rate-buckets.js';

/** A take in this process: answered at once. */
function takeNow(buckets: RateBuckets, table: object, bucket: string, limit: number, window: number): BucketTake {
  const take = buckets.take(table, 'name', bucket, limit, window);
  if (take instanceof Promise) throw new Error('a bucket in this process answers at once');
  return take;
}

describe('RateBuckets', () => {
  it('stays exact at the largest limit and window: limit taken, the next refused, full one window later', () => {
    const time = { now: 0 };
    const buckets = new RateBuckets(() => time.now);
    const table = {};
    const limit = 1_000_000;
    const window = 31 * 24 * 60 * 60 * 1000;
    let allowed = 0;
    for (let i = 0; i <= limit; i++) if (takeNow(buckets, table, 'b', limit, window).allowed) allowed++;
    expect(allowed).toBe(limit);
    const empty = takeNow(buckets, table, 'b', limit, window);
    expect([empty.allowed, empty.remaining, empty.retryMs, empty.resetMs]).toEqual([false, 0, 2679, window]);
    time.now += window;
    const full = takeNow(buckets, table, 'b', limit, window);
    expect([full.allowed, full.remaining]).toEqual([true, limit - 1]);
  });

  it('refills nothing when the clock goes back, and keeps tables and bucket names apart', () => {
    const time = { now: 10_000 };
    const buckets = new RateBuckets(() => time.now);
    const one = {};
    const two = {};
    expect(takeNow(buckets, one, 'a', 1, 1000).allowed).toBe(true);
    time.now -= 5000;
    expect(takeNow(buckets, one, 'a', 1, 1000).allowed).toBe(false);
    expect(takeNow(buckets, one, 'b', 1, 1000).allowed).toBe(true);
    expect(takeNow(buckets, two, 'a', 1, 1000).allowed).toBe(true);
  });
});

describe('openAiDuration', () => {
  it.each([
    [0, '0ms'],
    [120, '120ms'],
    [1000, '1s'],
    [7660, '7.66s'],
    [360_000, '6m0s'],
    [3_723_000, '1h2m3s'],
  ])('%d ms is %s', (ms, text) => {
    expect(openAiDuration(ms)).toBe(text);
  });
});
