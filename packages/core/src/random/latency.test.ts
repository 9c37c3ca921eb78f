import { describe, expect, it } from 'vitest';
import { drawLatency, type Latency, latencyCeiling, latencyProblem, latencySampler } from './latency.js';
import { seededRandom } from './seeded-random.js';

const N = 4000;

function draws(latency: Latency, n = N): number[] {
  const draw = latencySampler(latency);
  return Array.from({ length: n }, draw);
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return ((sorted[(sorted.length - 1) >> 1] as number) + (sorted[sorted.length >> 1] as number)) / 2;
}

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, another for another seed, all in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const first = Array.from({ length: 100 }, a);
    expect(Array.from({ length: 100 }, b)).toEqual(first);
    expect(Array.from({ length: 100 }, c)).not.toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it('is uniform: the mean of 10000 draws is 0.5 within 4 standard errors', () => {
    const random = seededRandom(7);
    const values = Array.from({ length: 10_000 }, random);
    // The standard deviation of U(0,1) is 1/sqrt(12).
    expect(Math.abs(mean(values) - 0.5)).toBeLessThan(4 / Math.sqrt(12) / Math.sqrt(values.length));
  });
});

describe('drawLatency', () => {
  it('uniform: whole milliseconds within min..max, mean (min+max)/2 within 4 standard errors, every value reached', () => {
    const values = draws({ distribution: 'uniform', min: 10, max: 30, seed: 1 });
    for (const value of values) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value >= 10 && value <= 30).toBe(true);
    }
    expect(new Set(values).size).toBe(21);
    const sd = Math.sqrt((21 * 21 - 1) / 12); // discrete uniform over 21 values
    expect(Math.abs(mean(values) - 20)).toBeLessThan((4 * sd) / Math.sqrt(N));
  });

  it('normal: sample mean within 4 standard errors, standard deviation within 10%, cut at 0 and max', () => {
    const values = draws({ distribution: 'normal', mean: 200, stddev: 40, seed: 2 });
    expect(Math.abs(mean(values) - 200)).toBeLessThan((4 * 40) / Math.sqrt(N));
    const m = mean(values);
    const sd = Math.sqrt(values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1));
    expect(Math.abs(sd - 40)).toBeLessThan(4);
    const cut = draws({ distribution: 'normal', mean: 10, stddev: 50, max: 60, seed: 3 });
    expect(Math.min(...cut)).toBe(0);
    expect(Math.max(...cut)).toBe(60);
  });

  it('lognormal: sample median within tolerance of median, a long right tail, never past max', () => {
    const values = draws({ distribution: 'lognormal', median: 100, sigma: 0.5, max: 5000, seed: 4 });
    // The sample median of a lognormal: log-median's standard error is sigma·sqrt(pi/2)/sqrt(n).
    const logError = (0.5 * Math.sqrt(Math.PI / 2)) / Math.sqrt(N);
    expect(Math.abs(Math.log(median(values) / 100))).toBeLessThan(4 * logError + 0.01);
    // The mean of a lognormal is median·e^(sigma²/2) ≈ 113: above the median.
    expect(mean(values)).toBeGreaterThan(105);
    expect(Math.max(...values)).toBeLessThanOrEqual(5000);
    expect(Math.max(...values)).toBeGreaterThan(250);
  });

  it('replays: the same seed draws the same sequence', () => {
    const latency: Latency = { distribution: 'lognormal', median: 50, sigma: 1, max: 2000, seed: 99 };
    expect(draws(latency, 200)).toEqual(draws(latency, 200));
    expect(draws({ ...latency, seed: 100 }, 200)).not.toEqual(draws(latency, 200));
    const random = seededRandom(5);
    expect(drawLatency({ distribution: 'uniform', min: 0, max: 0 }, random)).toBe(0);
  });
});

describe('latencyProblem', () => {
  it('refuses min above max, max below the centre, and a ceiling past the delay limit', () => {
    expect(latencyProblem({ distribution: 'uniform', min: 5, max: 4 }, 0, 100)).toMatch(/min \(5\) is more than/);
    expect(latencyProblem({ distribution: 'normal', mean: 50, stddev: 1, max: 10 }, 0, 100)).toMatch(/less than/);
    expect(latencyProblem({ distribution: 'lognormal', median: 50, sigma: 1, max: 10 }, 0, 100)).toMatch(/less/);
    expect(latencyProblem({ distribution: 'uniform', min: 0, max: 90 }, 20, 100)).toMatch(/20 \+ 90 ms.*100/);
    expect(latencyProblem({ distribution: 'normal', mean: 50, stddev: 10 }, 0, 100)).toMatch(/give latency.max/);
    expect(latencyProblem({ distribution: 'normal', mean: 50, stddev: 10, max: 100 }, 0, 100)).toBeUndefined();
    expect(latencyCeiling({ distribution: 'normal', mean: 50, stddev: 10 })).toBe(110);
    expect(latencyCeiling({ distribution: 'lognormal', median: 10, sigma: 0.1 })).toBe(19);
  });
});
