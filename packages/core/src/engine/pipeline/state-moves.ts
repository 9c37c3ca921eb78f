/**
 * What the steps that move the state share (docs/state.md): how often a
 * match-and-move is tried, the scenarios an answer looked at, and the error
 * when the state kept moving.
 *
 * @module
 */
import { MockpointError } from '../../wire/errors.js';
import { type StateInput, type States, stateOf, statesOf } from '../../wire/state-json.js';

/** Tries of a match-and-move before giving up: each retry means another request moved the state in between. */
export const MAX_MOVES = 100;

/** `states` narrowed to `scenarios` (each at its value, `started` when never moved). */
export function pick(states: States, scenarios: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const scenario of scenarios) out[scenario] = stateOf(states, scenario);
  return out;
}

/** The scenarios a `match.state` names (none without one). */
export function scenariosOf(state: StateInput | undefined): Set<string> {
  return new Set(state === undefined ? [] : Object.keys(statesOf(state)));
}

/** `STORE_UNAVAILABLE`: other requests moved the state under this one {@link MAX_MOVES} times. */
export function keptMoving(name: string): MockpointError {
  return new MockpointError(
    'STORE_UNAVAILABLE',
    `the state of "${name}" kept moving under this request (other requests moved it ${MAX_MOVES} times meanwhile); retry`,
  );
}
