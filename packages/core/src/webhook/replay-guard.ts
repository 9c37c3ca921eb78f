/**
 * Memory of the webhook ids already seen, for telling a replayed delivery from
 * a fresh one. Each id is remembered for a time (the check's tolerance): a
 * replay older than that has a stale timestamp anyway.
 *
 * @module
 */

/** Remembers ids for a while; `MemoryReplayGuard` (store/memory) in one process, a Redis one across replicas. */
export interface ReplayGuard {
  /**
   * Records that `key` was seen now, for `ttlSec` seconds; resolves `true` when it
   * had already been seen within its time (a replay), `false` when it is new.
   * A guard in this process answers at once (no promise), so a checked request
   * can be answered in the same turn.
   */
  seen(key: string, ttlSec: number): boolean | Promise<boolean>;
}
