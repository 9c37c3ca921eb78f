/**
 * The state part of the backend: each endpoint's state machines (scenarios),
 * each at a value (`started` until moved), and their start (what a reset
 * returns to). A route that matches on a state and moves it does both in one
 * atomic step: {@link StateStore.move} moves only from the state the match saw,
 * so two requests can never both see `started` and both move it — across
 * replicas too, on a shared store.
 *
 * @module
 */

import { type States, stateProblem } from '../api/state-json.js';

export { type States, statesAt } from '../api/state-json.js';

/** A store's own check of scenario names and values (the API's is `INVALID_STATE`). */
export function checkStates(states: States): void {
  const problem = stateProblem(states);
  if (problem !== undefined) throw new TypeError(problem);
}

export interface StateStore {
  /** `memory`, `level`, `redis`, … */
  readonly kind: string;
  /** The scenarios of `name` as they are now: each one put or moved (the others are `started`). */
  get(name: string): Promise<States>;
  /** The start of `name`: what {@link put} set, and a reset returns to. */
  getStart(name: string): Promise<States>;
  /**
   * Moves `name`'s scenarios to `to` if, and only if, each scenario of `expect`
   * is at its value now: one atomic step (on a shared store, across replicas).
   * Resolves with the scenarios after the move, or `undefined` when `expect` no
   * longer holds (nothing changed: read again and decide again). Acknowledged once written.
   */
  move(name: string, expect: States, to: States): Promise<States | undefined>;
  /** Replaces every scenario of `name` by `states`, which are its start too (scenarios left out are `started`). */
  put(name: string, states: States): Promise<void>;
  /** Returns every scenario of `name` to its start. */
  reset(name: string): Promise<void>;
  /** Forgets the scenarios and the start of `name`; whether it had any. */
  delete(name: string): Promise<boolean>;
  /** The names with any scenario or start, in any order. */
  names(): Promise<string[]>;
  /** Forgets every name's. */
  clear(): Promise<void>;
}
