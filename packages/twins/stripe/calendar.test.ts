import { describe, expect, it } from 'vitest';
import { boundary, type Interval, intervalOf, periodEnd } from './calendar.js';

/** A UTC date's Unix seconds. */
const at = (date: string) => Date.parse(`${date}Z`) / 1000;
/** Unix seconds as a UTC date and time. */
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);

const MONTH: Interval = { unit: 'month', count: 1 };

describe("Stripe's billing calendar", () => {
  it('keeps the day of the month from an anchor on the 15th', () => {
    const anchor = at('2026-01-15T09:30:00');
    const ends = [1, 2, 3, 12].map((n) => day(boundary(anchor, MONTH, n)));
    expect(ends).toEqual(['2026-02-15T09:30:00', '2026-03-15T09:30:00', '2026-04-15T09:30:00', '2027-01-15T09:30:00']);
  });

  it("clamps an anchor on the 31st to each month's end, counting from the anchor", () => {
    const anchor = at('2026-01-31T00:00:00');
    const ends = [1, 2, 3, 4, 13].map((n) => day(boundary(anchor, MONTH, n)).slice(0, 10));
    expect(ends).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2027-02-28']);
    // 2028 is a leap year.
    expect(day(boundary(at('2028-01-31T00:00:00'), MONTH, 1)).slice(0, 10)).toBe('2028-02-29');
  });

  it('counts years by the calendar, a Feb 29 anchor clamped to Feb 28', () => {
    const year: Interval = { unit: 'year', count: 1 };
    expect(day(boundary(at('2026-01-15T00:00:00'), year, 1))).toBe('2027-01-15T00:00:00');
    expect(day(boundary(at('2028-02-29T00:00:00'), year, 1))).toBe('2029-02-28T00:00:00');
    expect(day(boundary(at('2028-02-29T00:00:00'), year, 4))).toBe('2032-02-29T00:00:00');
  });

  it('multiplies by interval_count, and counts weeks and days as 7 and 1 days', () => {
    const quarter = intervalOf({ interval: 'month', interval_count: 3 });
    expect(quarter).toEqual({ unit: 'month', count: 3 });
    expect(day(boundary(at('2026-11-30T00:00:00'), quarter, 1))).toBe('2027-02-28T00:00:00');
    expect(day(boundary(at('2026-11-30T00:00:00'), quarter, 2))).toBe('2027-05-30T00:00:00');
    expect(boundary(100, intervalOf({ interval: 'week', interval_count: 2 }), 1)).toBe(100 + 14 * 86_400);
    expect(boundary(100, intervalOf({ interval: 'day' }), 3)).toBe(100 + 3 * 86_400);
    expect(intervalOf(undefined)).toEqual(MONTH);
  });

  it('finds the end of the period holding a time: the first boundary after it', () => {
    const anchor = at('2026-01-31T00:00:00');
    expect(day(periodEnd(anchor, MONTH, anchor))).toBe('2026-02-28T00:00:00');
    expect(day(periodEnd(anchor, MONTH, at('2026-02-28T00:00:00')))).toBe('2026-03-31T00:00:00');
    expect(day(periodEnd(anchor, MONTH, at('2030-07-01T00:00:00')))).toBe('2030-07-31T00:00:00');
    expect(periodEnd(anchor, MONTH, anchor - 5)).toBe(anchor);
    const week = intervalOf({ interval: 'week' });
    expect(periodEnd(0, week, 7 * 86_400)).toBe(14 * 86_400);
  });
});
