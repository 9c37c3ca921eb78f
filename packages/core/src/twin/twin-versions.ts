/**
 * The dated API versions a twin answers in (docs/twins.md, "API versions"):
 * the profile's `versions` name the request header that picks one (Stripe's
 * `Stripe-Version`) and the versions known, oldest first. A request naming a
 * known one is answered in it, and the answer names it in the same header; a
 * request naming none, in the newest; one naming a dated version older than
 * the known ones, as the oldest; one naming another is refused in the
 * provider's form (Stripe: `400 invalid_request_error`, `Invalid Stripe API
 * version: …`).
 *
 * @module
 */
import type { FlowError } from './twin-flows.js';
import type { TwinProfile } from './twin-profile.js';

/** The longest version name a request may send, checked before it is looked up or echoed. */
export const MAX_VERSION_CHARS = 64;

/** The versions of a profile, as an answer reads them. */
export type TwinVersions = NonNullable<TwinProfile['versions']>;

/** The version a profile answers a request without one in: its newest (`undefined`: no versions). */
export function newestVersion(profile: TwinProfile): string | undefined {
  return profile.versions?.known.at(-1);
}

/** A dated version as Stripe writes them: `2023-10-16`, `2025-03-31.basil`. */
const DATED = /^\d{4}-\d{2}-\d{2}(\.[a-z]{1,20})?$/;

/**
 * Whether `value` is a version the twin answers: one of the known versions (compared whole), or a
 * dated version older than the oldest known (an SDK before them pins one, stripe-node 14
 * `2023-10-16`), answered as the oldest is. A version between or after the known ones is none the
 * provider published that the twin knows of.
 */
export function isKnownVersion(versions: TwinVersions | undefined, value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_VERSION_CHARS || versions === undefined) return false;
  if (versions.known.includes(value)) return true;
  const oldest = versions.known[0];
  return oldest !== undefined && DATED.test(value) && value.slice(0, 10) < oldest.slice(0, 10);
}

/**
 * The provider's refusal of a version it does not know (`param`: the parameter that named it), the
 * value shown at most {@link MAX_VERSION_CHARS} long.
 */
export function unknownVersion(profile: TwinProfile, value: string, param?: string): FlowError {
  const shown = value.length > MAX_VERSION_CHARS ? `${value.slice(0, MAX_VERSION_CHARS)}…` : value;
  // The provider's own words: `Invalid Stripe API version: 2019-2-19`, then what to do.
  const provider = `${profile.name.charAt(0).toUpperCase()}${profile.name.slice(1)}`;
  return {
    status: 400,
    type: 'invalid_request_error',
    message: `Invalid ${provider} API version: ${shown}. This twin answers ${profile.versions?.known[0]} to ${newestVersion(profile)} (docs/twins.md, "API versions"); send one of those, an older one, or none for the newest.`,
    ...(param === undefined ? {} : { param }),
  };
}

/**
 * The version a request is answered in: its header's when known, the newest when it names none
 * (or sends it empty); a {@link FlowError} for one the profile does not know. `undefined`: the
 * profile has no versions.
 */
export function requestVersion(
  profile: TwinProfile,
  header: (name: string) => string | undefined,
): string | FlowError | undefined {
  const versions = profile.versions;
  if (versions === undefined) return undefined;
  const given = header(versions.header)?.trim() ?? '';
  if (given === '') return newestVersion(profile);
  return isKnownVersion(versions, given) ? given : unknownVersion(profile, given);
}
