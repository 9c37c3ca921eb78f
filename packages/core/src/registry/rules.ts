/**
 * The rules and defaults every mockpoint client checks input against, with no
 * dependencies: the web page bundles them (through `@mockpoint/core/client`)
 * without pulling in the server side.
 *
 * @module
 */

/** Names are 1–64 characters of `A–Z a–z 0–9 _ -` (case-sensitive). */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const NAME_RULE = 'name must be 1-64 characters of A-Z a-z 0-9 _ -';
/** What may start a name: the list's `prefix` filter. */
export const PREFIX_PATTERN = /^[A-Za-z0-9_-]{0,64}$/;
/** The status codes an endpoint may answer with. */
export const STATUS_CODE_RANGE = { min: 200, max: 599 } as const;
export { DEFAULT_DELAY, DEFAULT_MAX_DELAY_MS, DEFAULT_STATUS_CODE } from './record-defaults.js';

/** True when `name` is a valid endpoint name. */
export function isValidName(name: string): boolean {
  // NAME_PATTERN by hand: it runs for every request, and a RegExp test costs several times as much.
  const length = name.length;
  if (length === 0 || length > 64) return false;
  for (let i = 0; i < length; i++) {
    const c = name.charCodeAt(i);
    // a-z, A-Z (c | 32 folds the case), 0-9, _ and -
    const letter = (c | 32) >= 97 && (c | 32) <= 122;
    if (!letter && !(c >= 48 && c <= 57) && c !== 95 && c !== 45) return false;
  }
  return true;
}

/**
 * The serialised origin of `value` (`scheme://host[:port]`, lower case, default
 * port dropped), or `undefined` when it is not an http(s) origin (e.g. `null`).
 */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin;
}

/**
 * A valid `allowedOrigins` entry: an http(s) origin with nothing after the
 * host and port (`http://localhost:3000`), as browsers send it in `Origin`.
 */
export function isOriginRule(value: string): boolean {
  return normalizeOrigin(value) !== undefined && /^https?:\/\/[^/?#@\s]+\/?$/i.test(value.trim());
}
