/**
 * `GET /v1/subscriptions`'s `status` as Stripe's API reference reads it: none lists every
 * subscription that is not `canceled`, `all` every status, canceled included, `ended` the
 * `canceled` and the `incomplete_expired`; any other status is the plain fields filter.
 *
 * @module
 */
import type { ListOutcome } from '@mockpoint/core/internal';

type Obj = Record<string, unknown>;

/** The subscriptions a list's `status` picks (`used`: it read `status` itself). */
export function listSubscriptions(items: Obj[], query: Obj): ListOutcome {
  const status = query.status;
  if (status === undefined || status === '') {
    return { items: items.filter((item) => item.status !== 'canceled'), used: ['status'] };
  }
  if (status === 'all') return { items, used: ['status'] };
  if (status === 'ended') {
    const ended = items.filter((item) => item.status === 'canceled' || item.status === 'incomplete_expired');
    return { items: ended, used: ['status'] };
  }
  return { items, used: [] };
}
