/**
 * The memory of webhook ids already seen, in this process, for telling a replayed delivery from
 * a fresh one. Each id is remembered for a time (the check's tolerance): a
 * replay older than that has a stale timestamp anyway.
 *
 * @module
 */

import type { ReplayGuard } from '../../webhook/replay-guard.js';

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
  /** Key → the time (ms) it is forgotten at; made by the first (a namespace's guard seldom sees a signed request). */
  #until: Map<string, number> | undefined;
  /**
   * The keys in the order they were recorded, each with the time it is
   * forgotten at, oldest first from `#head` on: the sweep's queue. (Deleting
   * from the front of a `Map` and iterating it again skips every deleted slot
   * until the table is rebuilt, a cost that grows with the ids kept; the figures
   * are in docs/performance.md.)
   * An entry whose key was recorded again later is skipped.
   */
  #keys: string[] = [];
  #times: number[] = [];
  #head = 0;
  readonly #now: () => number;

  constructor(options: MemoryReplayGuardOptions = {}, now: () => number = Date.now) {
    this.maxIds = options.maxIds ?? 100_000;
    this.#now = now;
  }

  /** How many ids are remembered now (expired ones included until they are swept). */
  get size(): number {
    return this.#until?.size ?? 0;
  }

  seen(key: string, ttlSec: number): boolean {
    const now = this.#now();
    this.#until ??= new Map();
    const until = this.#until.get(key);
    if (until !== undefined && until > now) return true;
    const time = now + Math.max(ttlSec, 1) * 1000;
    this.#until.set(key, time);
    this.#keys.push(key);
    this.#times.push(time);
    // Sweep from the oldest: expired ones, then any past the bound.
    const keys = this.#keys;
    const times = this.#times;
    let head = this.#head;
    while (head < keys.length) {
      const oldest = keys[head] as string;
      const forgetAt = times[head] as number;
      if (forgetAt > now && this.#until.size <= this.maxIds) break;
      if (this.#until.get(oldest) === forgetAt) this.#until.delete(oldest);
      head++;
    }
    // Drop the swept part of the queue once it is most of it.
    if (head > 1024 && head * 2 > keys.length) {
      this.#keys = keys.slice(head);
      this.#times = times.slice(head);
      head = 0;
    }
    this.#head = head;
    // Names with different tolerances share the queue: a long-lived id at its head stops the sweep
    // while short-lived ids, recorded again after they expire, leave entries behind it. Past twice
    // the bound, keep only the entries still current (amortised: at most once per maxIds records).
    if (this.#keys.length - head > 2 * this.maxIds + 1024) this.#compact(now);
    return false;
  }

  /** The length of the sweep's queue (stale entries included), for tests. */
  get queued(): number {
    return this.#keys.length - this.#head;
  }

  #compact(now: number): void {
    const keys: string[] = [];
    const times: number[] = [];
    for (let i = this.#head; i < this.#keys.length; i++) {
      const key = this.#keys[i] as string;
      const time = this.#times[i] as number;
      if (this.#until?.get(key) !== time) continue;
      if (time <= now) {
        this.#until.delete(key);
        continue;
      }
      keys.push(key);
      times.push(time);
    }
    this.#keys = keys;
    this.#times = times;
    this.#head = 0;
  }
}
