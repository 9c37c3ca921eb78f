/**
 * A Subscription's updates as Stripe makes them: `items` merged into those it has (and prorated,
 * prorations.ts), `trial_end: now` ending a trial that pauses, `cancel_at_period_end` and a cancel
 * (`DELETE`) that ends it (`customer.subscription.deleted`).
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { itemLine, itemsList, mismatchOf } from './billing.js';
import { kitOfCustomer } from './clock-time.js';
import { invalidRequest, isFlowError, missingParam } from './errors.js';
import { customerMethod } from './invoice-make.js';
import { priceOf } from './prices.js';
import { prorate } from './prorations.js';

type Obj = Record<string, unknown>;

/**
 * A trial ended at once (`trial_end: 'now'`) of a subscription with no payment method whose
 * `trial_settings.end_behavior.missing_payment_method` is `pause`, as Stripe's free-trial guide
 * has it: `paused`, no invoice, its period ending now (`customer.subscription.paused`,
 * events.ts). Any other such update is refused: the twin bills no trial ended early.
 */
async function trialEndedNow(
  subscription: Obj,
  sent: Obj,
  kit: FlowKit,
): Promise<{ sent: Obj } | { error: FlowError }> {
  const behavior = record(record(subscription.trial_settings)?.end_behavior)?.missing_payment_method;
  const own = typeof subscription.default_payment_method === 'string' ? subscription.default_payment_method : null;
  const method = own ?? (await customerMethod(subscription.customer, kit));
  if (behavior !== 'pause' || method !== null || Array.isArray(sent.items)) {
    return {
      error: invalidRequest(
        'The twin ends a trial at once (trial_end=now) only for a subscription without a payment method whose trial_settings[end_behavior][missing_payment_method] is pause; advance a test clock past trial_end to end any other trial.',
        'trial_end',
      ),
    };
  }
  // `now` is the clock's for a customer on a test clock.
  const now = Math.floor((await kitOfCustomer(subscription.customer, kit)).now() / 1000);
  return { sent: { ...sent, trial_end: now, current_period_end: now, status: 'paused' } };
}

/**
 * A Subscription's update (`POST /v1/subscriptions/{id}`) with `items`, as Stripe merges them into
 * the items it has: `{ id, price | quantity }` changes that item, `{ price }` (or `price_data`) adds
 * one, `{ id, deleted: true }` removes one, the others are kept; `items` stays a list.
 */
export async function amendingSubscription(
  subscription: Obj,
  sent: Obj,
  kit: FlowKit,
): Promise<{ sent: Obj } | { error: FlowError } | undefined> {
  if (sent.trial_end === 'now' && subscription.status === 'trialing') return trialEndedNow(subscription, sent, kit);
  if (!Array.isArray(sent.items)) return undefined;
  const id = String(subscription.id);
  const lines = [...((record(subscription.items)?.data as Obj[] | undefined) ?? [])];
  for (const [index, raw] of sent.items.slice(0, 20).entries()) {
    const item = record(raw) ?? {};
    const at = `items[${index}]`;
    const given = item.price !== undefined || item.price_data !== undefined;
    const price = given ? await priceOf(item, at, kit, true) : undefined;
    if (price !== undefined && isFlowError(price)) return { error: price };
    const quantity = typeof item.quantity === 'number' ? item.quantity : undefined;
    if (typeof item.id !== 'string') {
      if (price === undefined) return { error: missingParam(`${at}[price]`) };
      lines.push(itemLine(price, quantity ?? 1, kit, id));
      continue;
    }
    const found = lines.findIndex((line) => line.id === item.id);
    if (found === -1) {
      return { error: invalidRequest(`Invalid subscription_item id: ${item.id}`, `${at}[id]`) };
    }
    if (item.deleted === true || item.deleted === 'true') {
      lines.splice(found, 1);
      continue;
    }
    const line = lines[found] as Obj;
    lines[found] = {
      ...line,
      ...(price === undefined ? {} : { price }),
      ...(quantity === undefined ? {} : { quantity }),
    };
  }
  if (lines.length === 0) {
    return { error: invalidRequest('A subscription must have at least one item.', 'items') };
  }
  const flexible = record(subscription.billing_mode)?.type === 'flexible';
  const mismatch = mismatchOf(
    lines.map((line) => record(line.price) ?? {}),
    flexible,
  );
  if (mismatch !== undefined) return { error: mismatch };
  // The change prorated as `proration_behavior` says (prorations.ts): pending, or invoiced now.
  const prorated = await prorate(subscription, lines, sent, kit);
  if (isFlowError(prorated)) return { error: prorated };
  const { proration_behavior: _, ...kept } = sent;
  return {
    sent: {
      ...kept,
      items: itemsList(lines, id),
      ...(prorated.invoice === undefined ? {} : { latest_invoice: prorated.invoice }),
      ...(prorated.pastDue === true ? { status: 'past_due' } : {}),
    },
  };
}

/**
 * A Subscription's update of `cancel_at_period_end` as Stripe makes it: `true` keeps it as it is
 * until its period ends, `cancel_at` that end and `canceled_at` the request's time; `false`
 * takes the cancel back.
 */
export function updatedSubscription(subscription: Obj, sent: Obj, now: number): void {
  if (typeof subscription.cancel_at_period_end !== 'boolean' || !('cancel_at_period_end' in sent)) return;
  const ending = subscription.cancel_at_period_end;
  subscription.cancel_at = ending ? subscription.current_period_end : null;
  subscription.canceled_at = ending ? Math.floor(now / 1000) : null;
  subscription.cancellation_details = {
    comment: null,
    feedback: null,
    reason: ending ? 'cancellation_requested' : null,
  };
}

/** A Subscription canceled (`DELETE /v1/subscriptions/{id}`): `canceled`, ended now. */
export function canceledSubscription(subscription: Obj, kit: FlowKit): { object: Obj; events: string[] } | FlowError {
  if (subscription.status === 'canceled') {
    return invalidRequest(`This subscription (${String(subscription.id)}) is already canceled.`);
  }
  const now = Math.floor(kit.now() / 1000);
  return {
    object: {
      ...subscription,
      status: 'canceled',
      canceled_at: now,
      ended_at: now,
      cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
    },
    events: ['customer.subscription.deleted'],
  };
}
