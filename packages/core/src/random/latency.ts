/**
 * Latency distributions: a delay drawn per request (uniform, normal or
 * lognormal, capped by `max`) from a seeded generator, so a run replays
 * exactly given the seed. Its schema, its check against the delay limit, and
 * the draw.
 *
 * @module
 */

import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { type Random, randomSeed, seededRandom } from './seeded-random.js';

/** A uniform delay from `min` to `max` ms. */
export interface UniformLatency {
  distribution: 'uniform';
  min: number;
  max: number;
  /** Seeds the draws (a replayable run); absent: a random seed. */
  seed?: number;
}

/** A normal delay around `mean` ms, cut to 0 … `max`. */
export interface NormalLatency {
  distribution: 'normal';
  mean: number;
  stddev: number;
  /** The largest delay drawn. @default mean + 6 × stddev */
  max?: number;
  seed?: number;
}

/** A lognormal delay: `median` ms, `sigma` the standard deviation of its logarithm (a long tail), cut at `max`. */
export interface LognormalLatency {
  distribution: 'lognormal';
  median: number;
  sigma: number;
  /** The largest delay drawn. @default median × e^(6 × sigma) */
  max?: number;
  seed?: number;
}

/** A delay drawn per request. */
export type Latency = UniformLatency | NormalLatency | LognormalLatency;

/** The sigmas a distribution without `max` is cut at. */
const TAIL_SIGMAS = 6;
const seed = onFirstUse(() =>
  z.int().min(-2147483648).max(4294967295).describe('Seeds the draws, so a run replays; absent: random.'),
);

/** The latency schema; `ms` is the delay schema (whole milliseconds within the limit). */
export function latencySchema(ms: z.ZodNumber) {
  const spread = z.number().min(0).max(1e9);
  return z
    .discriminatedUnion('distribution', [
      z.strictObject({ distribution: z.literal('uniform'), min: ms, max: ms, seed: seed().optional() }),
      z.strictObject({
        distribution: z.literal('normal'),
        mean: ms,
        stddev: spread.describe('Milliseconds.'),
        max: ms.optional().describe('The largest delay drawn; default mean + 6 stddev.'),
        seed: seed().optional(),
      }),
      z.strictObject({
        distribution: z.literal('lognormal'),
        median: ms,
        sigma: z.number().min(0).max(10).describe('Standard deviation of the logarithm: 0.5 is a moderate tail.'),
        max: ms.optional().describe('The largest delay drawn; default median × e^(6 sigma).'),
        seed: seed().optional(),
      }),
    ])
    .meta({
      title: 'Latency',
      description:
        'A delay drawn per request, after `delay`: uniform (min, max), normal (mean, stddev, max) or lognormal (median, sigma, max), seeded.',
    });
}

/** The largest delay a latency can draw, in ms. */
export function latencyCeiling(latency: Latency): number {
  switch (latency.distribution) {
    case 'uniform':
      return latency.max;
    case 'normal':
      return latency.max ?? Math.ceil(latency.mean + TAIL_SIGMAS * latency.stddev);
    case 'lognormal':
      return latency.max ?? Math.ceil(latency.median * Math.exp(TAIL_SIGMAS * latency.sigma));
  }
}

/** Why a latency (already of its schema's shape) cannot be kept beside `delay` under `maxDelayMs`, or undefined. */
export function latencyProblem(latency: Latency, delay: number, maxDelayMs: number): string | undefined {
  if (latency.distribution === 'uniform' && latency.min > latency.max) {
    return `latency.min (${latency.min}) is more than latency.max (${latency.max})`;
  }
  if (latency.distribution === 'normal' && latency.max !== undefined && latency.max < latency.mean) {
    return `latency.max (${latency.max}) is less than latency.mean (${latency.mean})`;
  }
  if (latency.distribution === 'lognormal' && latency.max !== undefined && latency.max < latency.median) {
    return `latency.max (${latency.max}) is less than latency.median (${latency.median})`;
  }
  const ceiling = latencyCeiling(latency);
  if (delay + ceiling > maxDelayMs) {
    const given = latency.distribution !== 'uniform' && latency.max === undefined;
    return `delay plus the latency's largest draw (${delay} + ${ceiling} ms) is more than the limit ${maxDelayMs} ms${given ? '; give latency.max' : ''}`;
  }
  return undefined;
}

/** A standard normal variate (Box–Muller, one of the pair). */
function gaussian(random: Random): number {
  const u = 1 - random(); // (0, 1]: the logarithm is finite
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** One draw of `latency` from `random`: whole milliseconds, 0 … its ceiling. */
export function drawLatency(latency: Latency, random: Random): number {
  let value: number;
  switch (latency.distribution) {
    case 'uniform':
      return latency.min + Math.floor(random() * (latency.max - latency.min + 1));
    case 'normal':
      value = latency.mean + latency.stddev * gaussian(random);
      break;
    case 'lognormal':
      value = latency.median * Math.exp(latency.sigma * gaussian(random));
      break;
  }
  return Math.min(latencyCeiling(latency), Math.max(0, Math.round(value)));
}

/** A draw per call, from the latency's seed (or a random one): the same seed, the same sequence. */
export function latencySampler(latency: Latency): () => number {
  const random = seededRandom(latency.seed ?? randomSeed());
  return () => drawLatency(latency, random);
}
