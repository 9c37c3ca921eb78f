/**
 * What `mockpoint trigger` asks of a provider's twin for each event
 * (docs/design.md#twins), as `stripe trigger` runs its fixtures against the real test mode:
 * the API calls that make the objects the event is about, so that the twin's
 * own flows emit the event (kept, listed, delivered) as a client's calls would.
 * A step's path and body may name what the step before answered (`{id}`, `{number}`), the
 * trigger's `{unique}` word and the words its provider gives (twin-provider.ts, `FixtureStep`).
 *
 * @module
 */
import { type FixtureStep, providerOf } from './twin-provider.js';

/** The fixtures of the provider whose flows a profile names (`flows: "stripe"`); none for another. */
export function fixturesOf(flows: string | undefined): Readonly<Record<string, readonly FixtureStep[]>> {
  return providerOf(flows)?.fixtures ?? {};
}
