/**
 * Stripe's billing calendar (docs.stripe.com/billing/subscriptions/billing-cycle): a
 * subscription's periods are counted from its `billing_cycle_anchor` in UTC, a `month` (and a
 * `year`) by the calendar — the anchor's day of the month, clamped to the month's last day, so
 * that an anchor on Jan 31 bills Feb 28 (29 in a leap year), then Mar 31 — a `week` seven days and
 * a `day` one, each `interval_count` times. Every boundary is counted from the anchor, never from
 * the boundary before it, so a clamped month does not drift the ones after it.
 *
 * @module
 */
import { record } from '../src/records.js';

const DAY = 86_400;

/** A recurring price's interval: its unit and how many of them make one period. */
export interface Interval {
  unit: 'day' | 'week' | 'month' | 'year';
  count: number;
}

const UNITS: readonly Interval['unit'][] = ['day', 'week', 'month', 'year'];

/** The interval of a Price's `recurring` (`interval`, `interval_count`); a month when it says none. */
export function intervalOf(recurring: unknown): Interval {
  const given = record(recurring);
  const unit = UNITS.find((one) => one === given?.interval) ?? 'month';
  const count = Number(given?.interval_count);
  return { unit, count: Number.isInteger(count) && count > 0 ? count : 1 };
}

/** The interval a subscription bills on: its first item's price's. */
export function intervalOfSubscription(subscription: Record<string, unknown>): Interval {
  const items = (record(subscription.items)?.data as Record<string, unknown>[] | undefined) ?? [];
  return intervalOf(record(items[0]?.price)?.recurring);
}

/** The number of days of `month` (0-based) in `year`. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The `n`-th boundary after `anchor` (Unix seconds; `n` 0 the anchor itself): `n` intervals on,
 * a month's or a year's day clamped to the end of its month, the anchor's time of day kept.
 */
export function boundary(anchor: number, interval: Interval, n: number): number {
  if (interval.unit === 'day') return anchor + n * interval.count * DAY;
  if (interval.unit === 'week') return anchor + n * interval.count * 7 * DAY;
  const at = new Date(anchor * 1000);
  const months = at.getUTCMonth() + n * interval.count * (interval.unit === 'year' ? 12 : 1);
  const year = at.getUTCFullYear() + Math.floor(months / 12);
  const month = months - Math.floor(months / 12) * 12;
  const day = Math.min(at.getUTCDate(), daysIn(year, month));
  const time = anchor - Math.floor(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) / 1000);
  return Date.UTC(year, month, day) / 1000 + time;
}

/**
 * The end of the period of `anchor`'s calendar that holds `at`: the first boundary after it (the
 * anchor itself while `at` is before it). Found in a few steps from an estimate of its index.
 */
export function periodEnd(anchor: number, interval: Interval, at: number): number {
  let n: number;
  if (interval.unit === 'month' || interval.unit === 'year') {
    const from = new Date(anchor * 1000);
    const to = new Date(at * 1000);
    const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
    n = Math.floor(months / (interval.count * (interval.unit === 'year' ? 12 : 1))) - 1;
  } else {
    n = Math.floor((at - anchor) / ((interval.unit === 'week' ? 7 : 1) * interval.count * DAY)) - 1;
  }
  n = Math.max(0, n);
  while (boundary(anchor, interval, n) <= at) n++;
  return boundary(anchor, interval, n);
}

/** The anchor a subscription's periods are counted from: its `billing_cycle_anchor` (else its period's start). */
export function anchorOf(subscription: Record<string, unknown>): number {
  const anchor = subscription.billing_cycle_anchor;
  return typeof anchor === 'number' ? anchor : Number(subscription.current_period_start);
}

/** An interval as Stripe's words say it: `1 month`, `3 months`, `1 year`. */
export function intervalWords(interval: Interval): string {
  return `${interval.count} ${interval.unit}${interval.count === 1 ? '' : 's'}`;
}
