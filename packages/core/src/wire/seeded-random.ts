/**
 * A small seeded generator (mulberry32): the same seed gives the same sequence
 * on every runtime, so a run of drawn latencies or chaos decisions replays
 * exactly. Not for secrets.
 *
 * @module
 */

/** Numbers in [0, 1), one per call, from a 32-bit seed. */
export type Random = () => number;

/** The generator for `seed` (any integer; taken modulo 2^32). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for a generator nobody gave one: random, 32 bits. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] as number;
}
