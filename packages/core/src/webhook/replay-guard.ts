/**
 * Memory of the webhook ids already seen, for telling a replayed delivery from
 * a fresh one. Each id is remembered for a time (the check's tolerance): a
 * replay older than that has a stale timestamp anyway.
 *
 * @module
 */

/** Remembers ids for a while; {@link MemoryReplayGuard} in one process, a Redis one across replicas. */
export interface ReplayGuard {
  /**
   * Records that `key` was seen now, for `ttlSec` seconds; resolves `true` when it
   * had already been seen within its time (a replay), `false` when it is new.
   * A guard in this process answers at once (no promise), so a checked request
   * can be answered in the same turn.
   */
  seen(key: string, ttlSec: number): boolean | Promise<boolean>;
}

/** Options for {@link MemoryReplayGuard}. */
export interface MemoryReplayGuardOptions {
  /** Ids remembered at most; past it the oldest are forgotten first. @default 100000 */
  maxIds?: number;
}

/**
 * A {@link ReplayGuard} in this process's memory, bounded by {@link MemoryReplayGuardOptions.maxIds}
 * (an id forgotten early can no longer be told as a replay: the bound trades that
 * for memory under a flood of fresh ids).
 */
export class MemoryReplayGuard implements ReplayGuard {
  readonly maxIds: number;
  /** Key → the time (ms) it is forgotten at; insertion order is first-seen order. */
  readonly #until = new Map<string, number>();
  readonly #now: () => number;

  constructor(options: MemoryReplayGuardOptions = {}, now: () => number = Date.now) {
    this.maxIds = options.maxIds ?? 100_000;
    this.#now = now;
  }

  /** How many ids are remembered now (expired ones included until they are swept). */
  get size(): number {
    return this.#until.size;
  }

  seen(key: string, ttlSec: number): boolean {
    const now = this.#now();
    const until = this.#until.get(key);
    if (until !== undefined && until > now) return true;
    this.#until.delete(key);
    this.#until.set(key, now + Math.max(ttlSec, 1) * 1000);
    // Sweep from the oldest: expired ones, then any past the bound.
    for (const [oldest, time] of this.#until) {
      if (time > now && this.#until.size <= this.maxIds) break;
      this.#until.delete(oldest);
    }
    return false;
  }
}
