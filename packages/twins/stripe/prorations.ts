/**
 * Prorations of a Subscription's change of items mid-period, as Stripe's prorations guide has
 * them: each item whose price or quantity changed, or that was removed, is credited for the
 * unused rest of the period ("Unused time on …", a negative invoice item), and each item changed
 * to or added is debited for it ("Remaining time on …"), each amount the item's price times its
 * quantity times the rest of the period over its whole, rounded to the cent. `proration_behavior`
 * says what becomes of them: `create_prorations` (the default) leaves them pending, billed on the
 * next invoice (a test clock's renewal, renewals.ts); `always_invoice` bills them at once on an
 * invoice of their own (`billing_reason: subscription_update`), charged as the subscription's
 * invoices are; `none` makes none. Only an `active` or `past_due` subscription is prorated (a
 * trial bills nothing). The twin prorates by seconds and keeps no customer balance: a credit
 * larger than what an invoice asks leaves it at 0.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { idOf, record } from '../src/records.js';
import { madeIntent } from './charges.js';
import { kitOfCustomer } from './clock-time.js';
import { openBook } from './customer-books.js';
import { invalidRequest } from './errors.js';
import { chargedIntent, invoiceOf, invoiceStates, paidBy } from './invoice-make.js';
import { writeInvoice } from './invoice-payments.js';
import { payingOf } from './renewals.js';

type Obj = Record<string, unknown>;

const INVOICE_ITEMS = '/v1/invoiceitems';
const BEHAVIORS = ['create_prorations', 'always_invoice', 'none'] as const;
type Behavior = (typeof BEHAVIORS)[number];

/** The `proration_behavior` sent (`create_prorations` when none), or Stripe's refusal of another. */
export function behaviorOf(sent: Obj): Behavior | FlowError {
  const given = sent.proration_behavior ?? 'create_prorations';
  if ((BEHAVIORS as readonly unknown[]).includes(given)) return given as Behavior;
  return invalidRequest(
    `Invalid proration_behavior: must be one of ${BEHAVIORS.join(', ')}`,
    'proration_behavior',
    'parameter_invalid_string',
  );
}

/** An item's quantity: 1 when none is kept (0 is a quantity). */
function quantityOf(line: Obj): number {
  return line.quantity === undefined || line.quantity === null ? 1 : Number(line.quantity) || 0;
}

/** An item's amount a whole period: its price's unit amount times its quantity. */
function perPeriod(line: Obj): number {
  return (Number(record(line.price)?.unit_amount) || 0) * quantityOf(line);
}

/** A day as Stripe writes it in a proration's description: `28 Nov 2026`. */
function dayOf(seconds: number): string {
  const date = new Date(seconds * 1000);
  const month = date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  return `${date.getUTCDate()} ${month} ${date.getUTCFullYear()}`;
}

/**
 * The proration invoice items of `subscription`'s items going from `before` to `after` at `now`
 * (Unix seconds): none outside an `active` or `past_due` subscription's period.
 */
export async function prorationItems(
  subscription: Obj,
  before: readonly Obj[],
  after: readonly Obj[],
  now: number,
  kit: FlowKit,
): Promise<Obj[]> {
  if (subscription.status !== 'active' && subscription.status !== 'past_due') return [];
  const start = Number(subscription.current_period_start);
  const end = Number(subscription.current_period_end);
  if (!(end > start && now >= start && now < end)) return [];
  const rest = (end - now) / (end - start);
  const names = new Map<string, string>();
  const nameOf = async (line: Obj): Promise<string> => {
    const product = idOf(record(line.price)?.product) ?? '';
    if (!names.has(product)) {
      const found = product === '' ? undefined : await kit.find(product);
      names.set(product, typeof found?.name === 'string' ? found.name : 'the subscription');
    }
    const quantity = quantityOf(line);
    return `${quantity !== 1 ? `${quantity} × ` : ''}${names.get(product)}`;
  };
  const made: Obj[] = [];
  const item = async (line: Obj, sign: -1 | 1): Promise<void> => {
    const amount = Math.round(sign * perPeriod(line) * rest);
    const quantity = quantityOf(line);
    const object = kit.example(INVOICE_ITEMS);
    Object.assign(object, {
      id: kit.newId('ii_'),
      object: 'invoiceitem',
      amount,
      currency: subscription.currency,
      customer: subscription.customer,
      date: now,
      description: `${sign < 0 ? 'Unused' : 'Remaining'} time on ${await nameOf(line)} after ${dayOf(now)}`,
      discountable: false,
      invoice: null,
      livemode: false,
      metadata: {},
      period: { start: now, end },
      plan: null,
      price: line.price,
      proration: true,
      quantity,
      quantity_decimal: String(quantity),
      subscription: subscription.id,
      subscription_item: line.id,
      test_clock: subscription.test_clock ?? null,
      unit_amount: quantity === 0 ? 0 : Math.round(amount / quantity),
      unit_amount_decimal: String(quantity === 0 ? 0 : Math.round(amount / quantity)),
    });
    for (const field of ['parent', 'pricing']) delete object[field];
    made.push(object);
  };
  for (const old of before) {
    const next = after.find((line) => line.id === old.id);
    const changed =
      next === undefined || idOf(next.price) !== idOf(old.price) || Number(next.quantity) !== Number(old.quantity);
    if (!changed) continue;
    await item(old, -1);
    if (next !== undefined) await item(next, 1);
  }
  for (const next of after) if (!before.some((line) => line.id === next.id)) await item(next, 1);
  return made;
}

/**
 * Makes the prorations of `subscription`'s items going to `after` as `sent.proration_behavior`
 * says: pending invoice items, or an invoice of them charged now (its id answered, the
 * subscription's new `latest_invoice`); `undefined` when none is made.
 */
export async function prorate(
  subscription: Obj,
  after: readonly Obj[],
  sent: Obj,
  wall: FlowKit,
): Promise<{ invoice?: string; pastDue?: boolean } | FlowError> {
  const behavior = behaviorOf(sent);
  if (typeof behavior !== 'string') return behavior;
  if (behavior === 'none') return {};
  // A customer on a test clock is prorated at the clock's time.
  const kit = await kitOfCustomer(subscription.customer, wall);
  const now = Math.floor(kit.now() / 1000);
  const before = (record(subscription.items)?.data as Obj[] | undefined) ?? [];
  const items = await prorationItems(subscription, before, after, now, kit);
  if (items.length === 0) return {};
  if (behavior === 'create_prorations') {
    for (const item of items) kit.write({ kind: 'created', template: INVOICE_ITEMS, object: item, after: true });
    return {};
  }
  const made = await invoiceNow({ ...subscription, items: { data: after } }, items, now, kit);
  // Unpaid (`payment_behavior: allow_incomplete`, the default), the subscription is past due.
  return made.paid ? { invoice: made.id } : { invoice: made.id, pastDue: true };
}

/** An invoice of `items` (prorations) charged now as the subscription's invoices are; its id. */
async function invoiceNow(
  subscription: Obj,
  items: Obj[],
  now: number,
  kit: FlowKit,
): Promise<{ id: string; paid: boolean }> {
  const id = kit.newId('in_');
  await openBook(subscription.customer, kit);
  for (const item of items) {
    kit.write({ kind: 'created', template: INVOICE_ITEMS, object: { ...item, invoice: id }, after: true });
  }
  const total = Math.max(
    0,
    items.reduce((sum, item) => sum + Number(item.amount), 0),
  );
  const payment = {
    amount: total,
    currency: subscription.currency,
    customer: subscription.customer,
    invoice: id,
    description: 'Subscription update',
  };
  const made = total === 0 ? undefined : madeIntent(payment, kit);
  const period = { start: now, end: Number(subscription.current_period_end) };
  const invoicing = { id, subscription, reason: 'subscription_update', period, free: false, tried: false };
  const open = invoiceOf(
    { ...invoicing, intent: made === undefined ? undefined : { ...made }, pending: items, itemsBilled: false },
    kit,
  );
  invoiceStates(open, kit);
  if (made === undefined) {
    writeInvoice('created', open, ['invoice.created', 'invoice.finalized', 'invoice.paid'], kit);
    return { id, paid: true };
  }
  writeInvoice('created', open, ['invoice.created', 'invoice.finalized'], kit);
  const intent = chargedIntent(payment, await payingOf(subscription, kit), kit, made);
  if (intent.status === 'succeeded') {
    writeInvoice('updated', paidBy(open, intent, now), ['invoice.paid', 'invoice.payment_succeeded'], kit);
    return { id, paid: true };
  }
  const failed = { ...open, attempt_count: 1, attempted: true, charge: intent.latest_charge ?? null };
  const told = intent.status === 'requires_action' ? 'invoice.payment_action_required' : 'invoice.payment_failed';
  writeInvoice('updated', failed, [told], kit);
  return { id, paid: false };
}
