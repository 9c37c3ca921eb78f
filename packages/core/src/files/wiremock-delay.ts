/**
 * WireMock's `delayDistribution` as a route's `latency` and back: `lognormal`
 * (median, sigma, maxValue) and `uniform` (lower, upper) have the same meaning
 * in both; WireMock has no normal distribution and no seed.
 *
 * @module
 */

import { type Latency, latencyCeiling } from '../random/latency.js';
import { DEFAULT_MAX_DELAY_MS } from '../registry/record-defaults.js';

type Json = Record<string, unknown>;
type Note = (what: string, why: string) => void;

const isMs = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The latency of a WireMock `delayDistribution` beside a `delay` of `delay` ms, or undefined (noted why). */
export function latencyFromWireMock(distribution: unknown, delay: number, note: Note): Latency | undefined {
  const what = 'response.delayDistribution';
  const room = DEFAULT_MAX_DELAY_MS - delay;
  const value = (typeof distribution === 'object' && distribution !== null ? distribution : {}) as Json;
  let latency: Latency;
  if (value.type === 'uniform' && isMs(value.lower) && isMs(value.upper) && value.lower <= value.upper) {
    latency = { distribution: 'uniform', min: Math.round(value.lower), max: Math.round(value.upper) };
  } else if (value.type === 'fixed' && isMs(value.milliseconds)) {
    const ms = Math.round(value.milliseconds);
    latency = { distribution: 'uniform', min: ms, max: ms };
  } else if (value.type === 'lognormal' && isMs(value.median) && isMs(value.sigma) && value.sigma <= 10) {
    latency = { distribution: 'lognormal', median: Math.round(value.median), sigma: value.sigma };
    if (isMs(value.maxValue)) latency.max = Math.max(latency.median, Math.round(value.maxValue));
  } else {
    note(what, 'not a uniform, fixed or lognormal distribution mockpoint can draw; left out');
    return undefined;
  }
  if (latencyCeiling(latency) <= room) return latency;
  const low = latency.distribution === 'uniform' ? latency.min : latency.median;
  if (low > room) {
    note(what, `its delays pass the daemon's default limit of ${DEFAULT_MAX_DELAY_MS} ms; left out`);
    return undefined;
  }
  note(what, `draws cut at ${room} ms, the daemon's default limit of ${DEFAULT_MAX_DELAY_MS} ms with the fixed delay`);
  latency.max = room;
  return latency;
}

/** WireMock's `delayDistribution` of a latency, or undefined (noted why). */
export function wireMockDistribution(latency: Latency, note: Note): Json | undefined {
  if (latency.seed !== undefined) note('latency.seed', 'WireMock draws without a seed');
  switch (latency.distribution) {
    case 'uniform':
      return { type: 'uniform', lower: latency.min, upper: latency.max };
    case 'lognormal': {
      const { median, sigma, max } = latency;
      return max === undefined
        ? { type: 'lognormal', median, sigma }
        : { type: 'lognormal', median, sigma, maxValue: max };
    }
    case 'normal':
      note('latency', 'WireMock has no normal distribution; left out');
      return undefined;
  }
}
