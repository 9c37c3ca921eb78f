/**
 * What happens after an attempt, by the delivery rules of the Standard Webhooks
 * spec: a 2xx is done; 410 Gone stops for good; anything else (another status,
 * a timeout, a connection error, a redirect) is retried on the delivery's
 * schedule, a `Retry-After` taking the place of the scheduled delay, until no
 * retry is left. Tampered deliveries are sent once (`duplicate`: twice).
 *
 * @module
 */
import { type DeliveryAttempt, MAX_RETRY_SPAN_MS } from '../api/delivery-json.js';
import { completedAttempts, retryAfterMs } from './delivery-attempt.js';
import type { StoredDelivery } from './delivery-store.js';

/** The delivery after `attempt` (which it does not contain yet), one version on. */
export function afterAttempt(delivery: StoredDelivery, attempt: DeliveryAttempt, nowMs: number): StoredDelivery {
  const next: StoredDelivery = {
    ...delivery,
    attempts: [...delivery.attempts, attempt],
    sending: undefined,
    version: delivery.version + 1,
  };
  next.nextAttemptAt = undefined;
  const ok =
    attempt.error === undefined && attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;

  // Interrupted attempts (sent, result never recorded) are in the history but use up no retry.
  const completed = completedAttempts(next);
  if (delivery.tamper === 'duplicate' && completed === 1) {
    // The first send was the original; the duplicate (same id) goes out at once.
    next.nextAttemptAt = nowMs;
    return next;
  }
  if (ok) return finish(next, 'delivered', 'DELIVERED', `the receiver answered ${attempt.status}`);
  const what = attempt.error?.message ?? `the receiver answered ${attempt.status}`;
  if (attempt.status === 410) return finish(next, 'failed', 'GONE', 'the receiver answered 410 Gone: not retried');
  if (delivery.tamper !== undefined)
    return finish(next, 'failed', 'RETRIES_EXHAUSTED', `${what} (tampered deliveries are not retried)`);

  const retriesUsed = completed - 1;
  const scheduled = delivery.delaysMs[retriesUsed];
  if (scheduled === undefined) {
    const tries = completed === 1 ? '1 attempt' : `${completed} attempts`;
    return finish(next, 'failed', 'RETRIES_EXHAUSTED', `${what}; no retry left after ${tries}`);
  }
  const asked = retryAfterMs(attempt.headers?.['retry-after'], nowMs);
  const delay = asked === undefined ? scheduled : Math.min(asked, MAX_RETRY_SPAN_MS);
  next.nextAttemptAt = nowMs + delay;
  return next;
}

function finish(
  delivery: StoredDelivery,
  state: StoredDelivery['state'],
  code: NonNullable<StoredDelivery['outcome']>['code'],
  message: string,
): StoredDelivery {
  delivery.state = state;
  delivery.outcome = { code, message };
  return delivery;
}
