/**
 * Durations as routes and the clock API give them: a whole number of
 * milliseconds, or text such as `"250ms"`, `"30s"`, `"5m"`, `"2h"`, `"1d"`
 * (docs/clock.md). One reading, shared by `setState`'s `after` and
 * `PUT /api/clock`'s `advance`.
 *
 * @module
 */

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest duration accepted: a year (so `now + duration` stays a date). */
export const MAX_DURATION_MS = 366 * 86_400_000;

/** What a duration is, for messages. */
export const DURATION_RULE =
  'a duration is a whole number of milliseconds or text such as "250ms", "30s", "5m", "2h", "1d" (at most 366 days)';

/** A duration given as milliseconds or text. */
export type Duration = number | string;

/** `input` in milliseconds, or `undefined` when it is not a duration (negative, fractional, unknown unit, too long). */
export function durationMs(input: unknown): number | undefined {
  let ms: number;
  if (typeof input === 'number') {
    ms = input;
  } else if (typeof input === 'string') {
    const found = /^(0|[1-9]\d{0,11})(ms|s|m|h|d)$/.exec(input);
    if (found === null) return undefined;
    ms = Number(found[1]) * (UNITS[found[2] as string] as number);
  } else {
    return undefined;
  }
  return Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_DURATION_MS ? ms : undefined;
}
