/**
 * What the steps that move the state share (docs/state.md): how often a
 * match-and-move is tried, the scenarios an answer looked at, and the error
 * when the state kept moving.
 *
 * @module
 */

import {
  isTimedState,
  type SetStateInput,
  type StateInput,
  type States,
  stateOf,
  statesOf,
} from '../../api/state-json.js';
import { durationMs } from '../../codec/duration.js';
import { MockpointError } from '../../registry/errors.js';
import type { StateTimers } from '../../state/state-timers.js';

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

/** A `setState` as what moves with the answer (`now`) and, for a timed one, what moves later (docs/clock.md). */
export interface SplitMove {
  readonly now: States;
  readonly later?: { readonly afterMs: number; readonly to: States };
}

const NOTHING: States = Object.freeze({});

/** `input` split into the move made with the answer and the timed one. */
export function splitMove(input: SetStateInput): SplitMove {
  if (!isTimedState(input)) return { now: statesOf(input) };
  // Checked when the route was saved: a duration.
  return { now: NOTHING, later: { afterMs: durationMs(input.after) ?? 0, to: statesOf(input.to) } };
}

/** `TOO_MANY_TIMERS` unless `timers` can take one more timed move: checked before the state moves. */
export function checkRoom(timers: StateTimers, max: number): void {
  if (timers.size < max) return;
  throw new MockpointError(
    'TOO_MANY_TIMERS',
    `${max} timed state moves (setState with after) wait already in this process; advance the clock (PUT /api/clock) or reset the endpoints to let them go`,
  );
}

/** Schedules `move`'s timed part from the scenarios as the answer left them (`after`). */
export function scheduleLater(timers: StateTimers, max: number, name: string, move: SplitMove, after: States): void {
  const later = move.later;
  if (later === undefined) return;
  if (!timers.schedule(name, later.afterMs, pick(after, Object.keys(later.to)), later.to)) checkRoom(timers, max);
}

/**
 * `move()`, with `putBack()` run first when it throws (a refusal such as
 * `TOO_MANY_TIMERS` after the queued answer was taken): the answer is not lost.
 */
async function keptOnRefusal<T>(move: () => Promise<T>, putBack: () => Promise<void>): Promise<T> {
  try {
    return await move();
  } catch (error) {
    await putBack();
    throw error;
  }
}

/** Where a queued answer's move happens: the states, the timers and their bound. */
export interface MoveParts {
  readonly states: { move(name: string, expect: States, to: States): Promise<States | undefined> };
  readonly timers: StateTimers;
  readonly maxTimers: number;
}

/**
 * Moves `name`'s state as a taken queued answer says: its `setState` made only where the scenarios
 * its `match.state` looked at are still as in `before`, the timed part scheduled. The state after,
 * or `undefined` when another request moved it meanwhile. A refusal before the state moved
 * (`TOO_MANY_TIMERS`, a store failure) runs `putBack` first, so the answer stays queued, first in
 * line; once the state has moved, the answer is used, so a refusal to schedule its timed part
 * (the timers filled meanwhile) is thrown without putting it back.
 */
export async function moveForTaken(
  parts: MoveParts,
  name: string,
  before: States,
  answer: { readonly match?: { readonly state?: StateInput }; readonly setState?: SetStateInput },
  putBack: () => Promise<void>,
): Promise<States | undefined> {
  const { states, timers, maxTimers } = parts;
  const move = answer.setState === undefined ? undefined : splitMove(answer.setState);
  if (move === undefined) return before;
  const moved = await keptOnRefusal(async () => {
    if (move.later !== undefined) checkRoom(timers, maxTimers);
    return states.move(name, pick(before, scenariosOf(answer.match?.state)), move.now);
  }, putBack);
  if (moved !== undefined) scheduleLater(timers, maxTimers, name, move, moved);
  return moved;
}
