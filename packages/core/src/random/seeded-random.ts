/**
 * A small seeded generator (mulberry32): the same seed gives the same sequence
 * on every runtime, so a run of drawn latencies or chaos decisions replays
 * exactly; and the same generator as a reseedable object with the hash that
 * seeds it, for mock data that is the same for the same request (GraphQL's and
 * gRPC's schema modes). Not for secrets.
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

/** The source of every mock value; {@link SeededRandom.reseed} starts it over. */
export class SeededRandom {
  #state = 1;

  /** Starts over from `seed` (any 32-bit integer). */
  reseed(seed: number): void {
    this.#state = seed >>> 0 || 1;
  }

  /** The next number in [0, 1): mulberry32, small and good enough for mock data. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  hex(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += '0123456789abcdef'[this.int(0, 15)];
    return text;
  }
}

/** FNV-1a over `text`: the seed of one operation. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
