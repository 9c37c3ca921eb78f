/**
 * Turns kept where every process that shares a backend sees them (a lease per
 * key in Redis, `store/redis/turn-leases.ts`): a step for a key runs while no
 * other process runs one for it. A backend that one process holds alone
 * (memory; LevelDB, whose directory lock admits one process) has none: the
 * process's own turns (keyed-turns.ts) are the whole of it.
 *
 * @module
 */

/** A backend part: one step per key at a time, across every process on the backend. */
export interface SharedTurns {
  /**
   * Runs `step` holding `key`'s turn and gives the turn back when it ends (resolved or
   * rejected); a turn whose process died is free again after its lease.
   * @throws MockpointError `TURN_BUSY` when the turn stays held past the wait bound;
   *   `STORE_UNAVAILABLE` when the backend cannot be asked.
   */
  run<T>(key: string, step: () => Promise<T>): Promise<T>;
}
