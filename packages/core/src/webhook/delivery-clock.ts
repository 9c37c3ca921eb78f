/**
 * Delivery retries by the app's clock (docs/clock.md): a retry scheduled `d`
 * after an attempt is due when the clock has moved `d` on, so a test that
 * advances the clock by a day sends the day-later retry now, and a frozen clock
 * holds retries back. The store's due index stays in real time (leases, first
 * attempts and a restarted daemon's clock, which is real again, all read it):
 * each pending retry also keeps the clock time it is due at (`retryClockAt`), and
 * the worker moves its real due time when the clock moves, or when it finds the
 * clock behind at the claim. Untouched, the clock is real time and nothing moves.
 *
 * @module
 */

import { MAX_RETRY_SPAN_MS } from '../api/delivery-json.js';
import type { Clock } from '../clock/clock.js';
import type { StoredDelivery } from './delivery-store.js';

/** `next` (just after an attempt) with the clock time its retry is due at, when one is scheduled. */
export function withRetryClock(next: StoredDelivery, realNow: number, clockNow: number): StoredDelivery {
  const { retryClockAt: _, ...rest } = next;
  if (next.state !== 'pending' || next.nextAttemptAt === undefined) return rest;
  return { ...rest, retryClockAt: clockNow + (next.nextAttemptAt - realNow) };
}

/**
 * The real time a pending retry should be due at by `clock`, or `undefined` when
 * its due time stands: no retry waiting by the clock, an attempt in flight, or a
 * clock back at real time (a retry then keeps its real schedule: after a restart
 * the clock it was scheduled by is gone). Never more than the longest retry span
 * ahead, so a clock set far back holds nothing for long.
 */
export function clockDue(delivery: StoredDelivery, clock: Clock, realNow: number): number | undefined {
  if (delivery.state !== 'pending' || delivery.sending !== undefined || delivery.retryClockAt === undefined) {
    return undefined;
  }
  if (clock.real) return undefined;
  return realNow + Math.min(Math.max(0, delivery.retryClockAt - clock.now()), MAX_RETRY_SPAN_MS);
}

/** Whether a claimed retry is early by `clock` (frozen, or set back): then it waits, and is not attempted. */
export function earlyByClock(delivery: StoredDelivery, clock: Clock): boolean {
  return (
    delivery.sending === undefined &&
    delivery.retryClockAt !== undefined &&
    !clock.real &&
    delivery.retryClockAt > clock.now()
  );
}
