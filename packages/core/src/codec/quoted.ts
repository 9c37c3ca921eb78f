/**
 * A value from outside (a request, a store, a user's file) quoted for a line a
 * person reads: cut to `max` characters, in JSON quotes, and everything but
 * printable ASCII escaped as `\uXXXX` (so U+2028, C1 controls and bidi
 * overrides, which `JSON.stringify` leaves as they are, cannot break or
 * disguise the line).
 *
 * @module
 */

/** The first `max` characters of `text`, JSON-quoted, with only printable ASCII left. */
export function quoted(text: string, max: number): string {
  return JSON.stringify(text.slice(0, max)).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
