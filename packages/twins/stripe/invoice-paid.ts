/**
 * What a subscription invoice's payment moves: its PaymentIntent confirmed and succeeded pays it
 * and makes an `incomplete` subscription `active` (a `paused` one resumed), one declined attempts
 * it once more; and a subscription that saves its payment method
 * (`payment_settings.save_default_payment_method: on_subscription`) keeps the one that paid.
 *
 * @module
 */

import type { FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { delinquent, openBook } from './customer-books.js';
import { paidBy } from './invoice-make.js';
import { writeInvoice } from './invoice-payments.js';
import { SUBSCRIPTIONS } from './paths.js';

type Obj = Record<string, unknown>;

/**
 * A subscription's `payment_settings.save_default_payment_method: on_subscription`: the payment
 * method that paid its invoice (`intent`'s) becomes its `default_payment_method`; `{}` otherwise.
 */
export function savedMethod(subscription: Obj, intent: Obj | undefined): Obj {
  const saves = record(subscription.payment_settings)?.save_default_payment_method === 'on_subscription';
  const method = intent?.status === 'succeeded' ? intent.payment_method : undefined;
  return saves && typeof method === 'string' && method !== '' ? { default_payment_method: method } : {};
}

/**
 * A subscription invoice's PaymentIntent that succeeded on a confirm pays it (`invoice.paid`,
 * `invoice.payment_succeeded`), and an `incomplete` subscription becomes `active`
 * (`customer.subscription.updated`), a `paused` one whose resumption invoice it is `active` for
 * the period it bills (`customer.subscription.resumed` too), after the intent's own events.
 */
export async function paidInvoice(intent: Obj, kit: FlowKit): Promise<void> {
  if (intent.status !== 'succeeded' || typeof intent.invoice !== 'string') return;
  const invoice = await kit.find(intent.invoice);
  if (invoice?.object !== 'invoice' || invoice.status !== 'open') return;
  const paid = paidBy(invoice, intent, Math.floor(kit.now() / 1000));
  const events = ['invoice.updated', 'invoice.paid', 'invoice.payment_succeeded'];
  writeInvoice('updated', paid, events, kit);
  await openBook(invoice.customer, kit);
  delinquent(invoice.customer, false, kit);
  await subscriptionPaid(invoice, kit, intent);
}

/**
 * What a subscription's invoice paid moves (`invoice` as it was, open): an `incomplete`
 * subscription `active`, a `paused` one whose resumption invoice it is `active` for the period it
 * bills, one resumed unpaid `active`.
 */
export async function subscriptionPaid(invoice: Obj, kit: FlowKit, intent?: Obj): Promise<void> {
  const found = typeof invoice.subscription === 'string' ? await kit.find(invoice.subscription) : undefined;
  if (found?.object !== 'subscription') return;
  const subscription = { ...found, ...savedMethod(found, intent) };
  if (subscription.status === 'paused' && subscription.latest_invoice === invoice.id) {
    // Its resumption invoice (resume.ts): the period it bills begins.
    const lines = (record(invoice.lines)?.data as Obj[] | undefined) ?? [];
    const period = record(lines[0]?.period) ?? {};
    const object = {
      ...subscription,
      status: 'active',
      billing_cycle_anchor: period.start,
      current_period_start: period.start,
      current_period_end: period.end,
    };
    kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object, events: RESUMED, after: true });
    return;
  }
  // Resumed unpaid (resume.ts): its resumption invoice paid, it is `active`.
  const resumedUnpaid = subscription.status === 'past_due' && subscription.latest_invoice === invoice.id;
  if (subscription.status !== 'incomplete' && !resumedUnpaid) {
    if (subscription.default_payment_method !== found.default_payment_method) {
      kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: subscription, after: true });
    }
    return;
  }
  kit.write({ kind: 'updated', template: SUBSCRIPTIONS, object: { ...subscription, status: 'active' }, after: true });
}

/**
 * An invoice's PaymentIntent confirmed and not paid (a declined card: `invoice.payment_failed`;
 * 3-D Secure asked: `invoice.payment_action_required`): the open invoice attempted once more.
 */
export async function unpaidInvoice(intent: Obj, kit: FlowKit): Promise<void> {
  // Only a decline (its error kept) or 3-D Secure asked: a confirm refused for another reason
  // (no payment method) attempted nothing.
  const declined = intent.status === 'requires_payment_method' && intent.last_payment_error != null;
  if ((!declined && intent.status !== 'requires_action') || typeof intent.invoice !== 'string') return;
  const invoice = await kit.find(intent.invoice);
  if (invoice?.object !== 'invoice' || invoice.status !== 'open') return;
  const tried = {
    ...invoice,
    attempt_count: (Number(invoice.attempt_count) || 0) + 1,
    attempted: true,
    charge: intent.latest_charge ?? invoice.charge ?? null,
  };
  const told = intent.status === 'requires_action' ? 'invoice.payment_action_required' : 'invoice.payment_failed';
  writeInvoice('updated', tried, [told], kit);
}

/** The events of a subscription that moved from `paused` to `active`. */
export const RESUMED = ['customer.subscription.resumed', 'customer.subscription.updated'];
