/**
 * State machines (scenarios) as they cross the network: a route's `match.state`
 * and `answer.setState` (a value for the `default` scenario, or scenario →
 * value), `GET/PUT /api/endpoints/{name}/state`, and a journal entry's state
 * before and after its answer. See docs/state.md.
 *
 * @module
 */
import { z } from 'zod';
import { DURATION_RULE, type Duration, durationMs } from '../codec/duration.js';

/** Where every scenario is before anything moves it, unless a start was put. */
export const STARTED = 'started';

/** The scenario a state given as a plain string names. */
export const DEFAULT_SCENARIO = 'default';

/** Scenario names and state values: like endpoint names, so that they fit a URL, a key, a header and a log as they are. */
export const STATE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The most scenarios one endpoint holds (a PUT of more is refused). */
export const MAX_SCENARIOS = 64;

/** An endpoint's scenarios: scenario → its value (a scenario absent is at `started`). */
export type States = Readonly<Record<string, string>>;

/**
 * A state as a route gives it (`match.state`, `answer.setState`): a value of
 * the `default` scenario, or scenario → value.
 * @example 'paid'
 * @example { checkout: 'paid', login: 'started' }
 */
export type StateInput = string | Record<string, string>;

/**
 * A move made some time after the answer, by the app's clock (docs/clock.md):
 * an object of exactly `after` and `to`.
 * @example { after: '30s', to: 'shipped' }
 */
export interface TimedState {
  /** How long after the answer: ms, or `"30s"`, `"5m"`, `"2h"`, `"1d"`. */
  after: Duration;
  /** The state it moves to. */
  to: StateInput;
}

/** What `answer.setState` takes: a state moved to as the route answers, or a {@link TimedState}. */
export type SetStateInput = StateInput | TimedState;

/** Whether `input` is a timed move: an object whose keys are exactly `after` and `to`. */
export function isTimedState(input: unknown): input is TimedState {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const keys = Object.keys(input);
  return keys.length === 2 && Object.hasOwn(input, 'after') && Object.hasOwn(input, 'to');
}

/** The scenarios a `setState` moves, at the values it moves them to (now or later). */
export function movedStates(input: SetStateInput): States {
  return statesOf(isTimedState(input) ? input.to : input);
}

/** A journal entry's scenarios before and after its answer (those its route looked at or moved). */
export interface StateMark {
  before: States;
  after: States;
}

/** `input` as scenario → value (a string is the `default` scenario's). */
export function statesOf(input: StateInput): States {
  return typeof input === 'string' ? { [DEFAULT_SCENARIO]: input } : input;
}

/** The value of `scenario` in `states`: `started` when absent. */
export function stateOf(states: States, scenario: string): string {
  return Object.hasOwn(states, scenario) ? (states[scenario] as string) : STARTED;
}

/** Whether every scenario of `expect` is at its value in `states`. */
export function statesAt(states: States, expect: States): boolean {
  for (const scenario of Object.keys(expect)) if (stateOf(states, scenario) !== expect[scenario]) return false;
  return true;
}

const RULE = 'scenario names and state values are 1-64 of A-Z a-z 0-9 _ -';

/** The zod schemas of states, for the route, mock-file and API schemas. */
export function createStateSchemas() {
  const value = z.string().regex(STATE_NAME, RULE);
  const states = z
    .record(z.string().regex(STATE_NAME, RULE), value)
    .refine((record) => Object.keys(record).length <= MAX_SCENARIOS, `at most ${MAX_SCENARIOS} scenarios`)
    .meta({ title: 'States', description: 'Scenario → its state value (a scenario not named is at "started").' });
  const input = z
    .union([value, states])
    .meta({ title: 'StateInput', description: 'A value of the "default" scenario, or scenario → value.' });
  const mark = z.object({ before: states, after: states }).meta({
    title: 'StateMark',
    description: 'The scenarios before and after the answer (those its route looked at or moved).',
  });
  const timed = z
    .strictObject({
      after: z
        .union([z.number(), z.string()])
        .refine((after) => durationMs(after) !== undefined, DURATION_RULE)
        .describe('How long after the answer, by the app\'s clock: ms, or "30s", "5m", "2h", "1d".'),
      to: input,
    })
    .meta({
      title: 'TimedState',
      description:
        'Move the state that long after the answer, by the app\'s clock (PUT /api/clock advances it): { "after": "30s", "to": "shipped" }.',
    });
  const setState = z.union([timed, input]);
  return { value, states, input, mark, setState };
}

/** Why `input` is not what `setState` takes (a sentence), or `undefined` when it is. */
export function setStateProblem(input: unknown): string | undefined {
  if (!isTimedState(input)) return stateProblem(input);
  if (durationMs(input.after) === undefined) return `after: ${DURATION_RULE} (got ${JSON.stringify(input.after)})`;
  const problem = stateProblem(input.to);
  return problem === undefined ? undefined : `to: ${problem}`;
}

/** Why `input` is not a state (a sentence), or `undefined` when it is one. */
export function stateProblem(input: unknown): string | undefined {
  if (typeof input === 'string') return STATE_NAME.test(input) ? undefined : `${RULE} (got ${JSON.stringify(input)})`;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return 'a state is a value of the "default" scenario, or an object of scenario → value';
  }
  const entries = Object.entries(input);
  if (entries.length > MAX_SCENARIOS) return `at most ${MAX_SCENARIOS} scenarios (got ${entries.length})`;
  for (const [scenario, value] of entries) {
    // Plain objects hold scenarios: __proto__ would set a prototype, not a scenario.
    if (scenario === '__proto__') return '__proto__ is not a scenario name';
    if (!STATE_NAME.test(scenario) || typeof value !== 'string' || !STATE_NAME.test(value)) {
      return `${RULE} (got ${JSON.stringify(scenario)}: ${JSON.stringify(value)})`;
    }
  }
  return undefined;
}
