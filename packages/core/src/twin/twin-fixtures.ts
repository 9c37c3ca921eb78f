/**
 * What `mockpoint trigger` asks of a provider's twin for each event
 * (docs/design.md#twins), as `stripe trigger` runs its fixtures against the real test mode:
 * the API calls that make the objects the event is about, so that the twin's
 * own flows emit the event (kept, listed, delivered) as a client's calls would.
 * A step's path and body may name what the step before answered: `{id}`,
 * `{number}`, `{name}`; `{customer}` and `{price}` the id of the last such
 * object any step answered; `{repo}` is the repository a GitHub trigger is about (`{owner}` its
 * owner), `{unique}` six letters new to the trigger, `{sha}` the commit a step's write made.
 *
 * @module
 */
import { providerOf } from './twin-provider.js';

/** One API call of a fixture. */
export interface FixtureStep {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: Record<string, string | number | boolean | string[] | Record<string, string>>;
}

/** The fixtures of the provider whose flows a profile names (`flows: "stripe"`); none for another. */
export function fixturesOf(flows: string | undefined): Readonly<Record<string, readonly FixtureStep[]>> {
  return providerOf(flows)?.fixtures ?? {};
}
