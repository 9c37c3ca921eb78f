/**
 * ISO 8601 times as people give them (`PUT /api/clock`'s `set`, the coverage
 * window): a date, or a date and time with its zone, each field in its range —
 * a date the calendar does not have (`2030-02-30`, hour 24) is refused, never
 * rolled over into the next month or day.
 *
 * @module
 */

/** Year, month, day; then hour, minute, optional seconds and fraction, and the zone (`Z` or `±hh:mm`). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/** Whether a time must be given after the date (`required`), or the date alone is enough (`optional`). */
export type IsoTimePart = 'required' | 'optional';

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether each field of a matched time is in its range: a day of that month, hours 0–23, minutes and seconds 0–59. */
function inRange(fields: readonly (string | undefined)[]): boolean {
  const [year, month, day, hour = 0, minute = 0, second = 0, zoneHour = 0, zoneMinute = 0] = fields.map((field) =>
    field === undefined ? undefined : Number(field),
  );
  if (year === undefined || month === undefined || day === undefined) return false;
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    zoneHour <= 23 &&
    zoneMinute <= 59
  );
}

/**
 * `text` as ms since the epoch, or `undefined` when it is not an ISO 8601 time
 * with its zone (a date alone, when `time` is `optional`) naming a real moment.
 */
export function isoTimeMs(text: string, time: IsoTimePart): number | undefined {
  const match = ISO_TIME.exec(text);
  if (match === null || (time === 'required' && match[4] === undefined) || !inRange(match.slice(1))) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
