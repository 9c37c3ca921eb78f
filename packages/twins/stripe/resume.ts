/**
 * A paused Subscription resumed (`POST /v1/subscriptions/{id}/resume`), as Stripe's API reference
 * has it: with `billing_cycle_anchor: now` (its default) a new period starts now and a resumption
 * Invoice for it is finalized at once and charged to the subscription's (or its customer's)
 * default payment method. Paid, the subscription is `active` (`customer.subscription.resumed`,
 * `customer.subscription.updated`); unpaid (no payment method, a declined card), it is resumed
 * `past_due` (the same events) with that invoice `open` as its `latest_invoice`, and becomes
 * `active` once the invoice's PaymentIntent is paid (billing.ts `paidInvoice`).
 *
 * @module
 */

import type { ActionOutcome, FlowKit } from '@mockpoint/core/internal';
import { boundary, intervalOfSubscription } from './calendar.js';
import { madeIntent } from './charges.js';
import { kitOfCustomer } from './clock-time.js';
import { openBook } from './customer-books.js';
import { invalidRequest } from './errors.js';
import { chargedIntent, invoiceOf, invoiceStates, paidBy } from './invoice-make.js';
import { RESUMED } from './invoice-paid.js';
import { writeInvoice } from './invoice-payments.js';
import { payingOf, totalOf } from './renewals.js';

type Obj = Record<string, unknown>;

/** `subscription` resumed by `POST /v1/subscriptions/{id}/resume` with `sent`. */
export async function resumedSubscription(subscription: Obj, sent: Obj, wall: FlowKit): Promise<ActionOutcome> {
  const id = String(subscription.id);
  // A customer on a test clock resumes at the clock's time (its invoice then expires by the clock).
  const kit = await kitOfCustomer(subscription.customer, wall);
  if (subscription.status !== 'paused') {
    return {
      error: invalidRequest(
        `Subscription ${id} cannot be resumed because its status is ${String(subscription.status)}; only a subscription with status \`paused\` can be resumed.`,
      ),
    };
  }
  if (sent.billing_cycle_anchor !== undefined && sent.billing_cycle_anchor !== 'now') {
    return {
      error: invalidRequest(
        'The twin resumes a subscription with billing_cycle_anchor=now only (a new period from now, no prorations); leave billing_cycle_anchor out or send now.',
        'billing_cycle_anchor',
      ),
    };
  }
  const now = Math.floor(kit.now() / 1000);
  const period = { start: now, end: boundary(now, intervalOfSubscription(subscription), 1) };
  const invoiceId = kit.newId('in_');
  await openBook(subscription.customer, kit);
  const moved: Obj = {
    ...subscription,
    billing_cycle_anchor: now,
    current_period_start: period.start,
    current_period_end: period.end,
    latest_invoice: invoiceId,
  };
  const total = totalOf(moved);
  const payment = {
    amount: total,
    currency: moved.currency,
    customer: moved.customer,
    invoice: invoiceId,
    description: 'Subscription update',
  };
  const made = total === 0 ? undefined : madeIntent(payment, kit);
  const invoicing = { id: invoiceId, subscription: moved, reason: 'subscription_update', period, free: false };
  const open = invoiceOf({ ...invoicing, intent: made === undefined ? undefined : { ...made }, tried: false }, kit);
  invoiceStates(open, kit);
  if (made === undefined) {
    writeInvoice('created', open, ['invoice.created', 'invoice.finalized', 'invoice.paid'], kit);
    return { object: { ...moved, status: 'active' }, events: RESUMED };
  }
  writeInvoice('created', open, ['invoice.created', 'invoice.finalized'], kit);
  const paying = await payingOf(moved, kit);
  const intent = chargedIntent(payment, paying, kit, made);
  if (intent.status === 'succeeded') {
    writeInvoice('updated', paidBy(open, intent, now), ['invoice.paid', 'invoice.payment_succeeded'], kit);
    return { object: { ...moved, status: 'active' }, events: RESUMED };
  }
  if (paying.method !== null) {
    const failed = { ...open, attempt_count: 1, attempted: true, charge: intent.latest_charge };
    const why = intent.status === 'requires_action' ? 'invoice.payment_action_required' : 'invoice.payment_failed';
    writeInvoice('updated', failed, [why], kit);
  }
  // Unpaid (no payment method, a declined card): resumed all the same, `past_due` with its invoice
  // `open`, as Stripe's reference says ("if payment fails the subscription will be past_due").
  return { object: { ...moved, status: 'past_due' }, events: RESUMED };
}
