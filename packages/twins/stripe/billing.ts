/**
 * Stripe Billing as its test mode behaves for a subscription's start: a
 * recurring Price, a Subscription made `active` with its first Invoice paid at
 * once by a test card (`customer.subscription.created`, `invoice.created`,
 * `invoice.finalized`, `invoice.paid`, `invoice.payment_succeeded`), its
 * `latest_invoice` expandable. Its updates and cancel are subscription-update.ts.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { boundary, intervalOf } from './calendar.js';
import { type Payment, writePaidIntent } from './charges.js';
import { atClock, clockOfCustomer } from './clock-time.js';
import { openBook } from './customer-books.js';
import { cardError, declineOf } from './declines.js';
import { invalidRequest } from './errors.js';
import { chargedIntent, customerMethod, invoiceOf, invoiceStates, type Paying } from './invoice-make.js';
import { savedMethod } from './invoice-paid.js';
import { writeInvoice } from './invoice-payments.js';
import { SUBSCRIPTIONS } from './paths.js';
import { itemsOf, recurringOf } from './prices.js';
import { isSepa } from './sepa.js';
import { testOf } from './setup.js';
import { billingModeMade } from './shapes.js';

const DAY = 86_400;

type Obj = Record<string, unknown>;

/** The line of an invoice or subscription item for a price and quantity. */
export function itemLine(price: Obj, quantity: number, kit: FlowKit, subscription: string): Obj {
  return {
    id: kit.newId('si_'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: Math.floor(kit.now() / 1000),
    discounts: [],
    metadata: {},
    price,
    quantity,
    subscription,
    tax_rates: [],
  };
}

/** What a subscription is made of: its customer, prices and quantities, and how it is paid. */
export interface Subscribing {
  customer: unknown;
  items: { price: Obj; quantity: number }[];
  metadata?: unknown;
  /**
   * How the first invoice is paid: absent, at once (Checkout collected the card); `method` the
   * payment method charged (`test`, the test card it pays as), `null` none — the invoice is left
   * `open` with its PaymentIntent `requires_payment_method` and the subscription `incomplete`.
   */
  paying?: Paying;
  /** The end of its free trial (Unix seconds): `trialing` until then, its first invoice paid at 0. */
  trialEnd?: number | undefined;
  /** The test clock its customer is on (clocks.ts), its time the kit's. */
  clock?: string | undefined;
  /** The `billing_mode` sent; none: the default of the request's version (shapes.ts). */
  billingMode?: unknown;
}

/**
 * Writes a Subscription and its first Invoice with their events (the Invoice's and its payment's
 * `after` the Subscription's own when `asked`: the Subscription is the request's object), and
 * answers it: `active` with the invoice `paid` when the payment succeeded, else `incomplete` with
 * the invoice `open` (`invoice.payment_failed` when a card was declined).
 */
export function subscribe(subscribing: Subscribing, kit: FlowKit, subscription: Obj, asked: boolean): Obj {
  const now = Math.floor(kit.now() / 1000);
  const id = String(subscription.id);
  const first = subscribing.items[0]?.price ?? {};
  const lines = subscribing.items.map(({ price, quantity }) => itemLine(price, quantity, kit, id));
  const { trialEnd } = subscribing;
  // A trial's first invoice is for nothing, its period the trial's (Stripe's "Trial period for …").
  const total =
    trialEnd !== undefined
      ? 0
      : subscribing.items.reduce((sum, { price, quantity }) => sum + (Number(price.unit_amount) || 0) * quantity, 0);
  const invoiceId = kit.newId('in_');
  // Its first period ends one interval on by the calendar (calendar.ts), or with its trial.
  const end = trialEnd ?? boundary(now, intervalOf(first.recurring), 1);
  Object.assign(subscription, {
    object: 'subscription',
    billing_cycle_anchor: trialEnd ?? now,
    billing_mode: billingModeMade(subscribing.billingMode, kit.version),
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: now,
    currency: first.currency ?? 'usd',
    current_period_end: end,
    current_period_start: now,
    customer: subscribing.customer,
    ended_at: null,
    items: itemsList(lines, id),
    latest_invoice: invoiceId,
    livemode: false,
    metadata: record(subscribing.metadata) ?? {},
    start_date: now,
    status: trialEnd === undefined ? 'active' : 'trialing',
    test_clock: subscribing.clock ?? null,
    trial_end: trialEnd ?? null,
    trial_start: trialEnd === undefined ? null : now,
  });
  if (!asked) kit.write({ kind: 'created', template: SUBSCRIPTIONS, object: subscription });
  const payment: Payment = {
    amount: total,
    currency: subscription.currency,
    customer: subscribing.customer,
    invoice: invoiceId,
    description: 'Subscription creation',
  };
  // A trial's invoice of 0 is paid with no payment at all.
  const intent: Obj | undefined =
    trialEnd !== undefined
      ? undefined
      : subscribing.paying === undefined
        ? writePaidIntent(payment, kit, asked)
        : chargedIntent(payment, subscribing.paying, kit);
  const paid = intent === undefined || intent.status === 'succeeded';
  const tried = intent !== undefined && subscribing.paying?.method !== null;
  // Saved by `payment_settings.save_default_payment_method: on_subscription` once it paid.
  Object.assign(subscription, savedMethod(subscription, intent));
  if (!paid) subscription.status = 'incomplete';
  const invoice = invoiceOf(
    {
      id: invoiceId,
      subscription,
      reason: 'subscription_create',
      period: { start: now, end },
      free: trialEnd !== undefined,
      intent,
      tried,
    },
    kit,
  );
  invoiceStates(invoice, kit);
  const declined = !paid && intent?.last_payment_error !== null;
  const events = paid
    ? ['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded']
    : ['invoice.created', 'invoice.finalized', ...(declined ? ['invoice.payment_failed'] : [])];
  writeInvoice('created', invoice, events, kit, asked);
  return subscription;
}

/**
 * The end of a new subscription's trial from `trial_end` (a time, or `now`: none) or
 * `trial_period_days`; `undefined` for none, Stripe's error for a time not in the future.
 */
function trialOf(sent: Obj, kit: FlowKit): number | undefined | FlowError {
  const now = Math.floor(kit.now() / 1000);
  const given =
    typeof sent.trial_end === 'string' && /^\d+$/.test(sent.trial_end) ? Number(sent.trial_end) : sent.trial_end;
  if (typeof given === 'number') {
    if (given <= now) {
      return invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', 'trial_end');
    }
    return given;
  }
  if (given === 'now') return undefined;
  const days = sent.trial_period_days;
  if (typeof days !== 'number' || days <= 0) return undefined;
  if (days > 730) {
    return invalidRequest('Trial period days must be less than or equal to 730.', 'trial_period_days');
  }
  return now + Math.floor(days) * DAY;
}

/**
 * Stripe's refusal of a subscription whose prices differ in currency, or in interval under
 * `classic` billing (its words); `flexible` billing takes mixed intervals on Stripe (each item
 * billed on its own), which the twin does not model: refused with its own words instead of billing
 * every item on one interval.
 */
export function mismatchOf(prices: readonly Obj[], flexible: boolean): FlowError | undefined {
  const currencies = new Set(prices.map((price) => String(price.currency)));
  const intervals = new Set(
    prices.map((price) => {
      const recurring = record(price.recurring);
      return `${String(recurring?.interval ?? 'month')}×${Number(recurring?.interval_count ?? 1)}`;
    }),
  );
  if (currencies.size > 1) {
    return invalidRequest(
      'Currency and interval fields must match across all plans on this subscription. Found mismatch in currency field.',
      'items',
    );
  }
  if (intervals.size <= 1) return undefined;
  if (!flexible) {
    return invalidRequest(
      'Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.',
      'items',
    );
  }
  return invalidRequest(
    "The twin does not model a flexible subscription of mixed intervals (Stripe bills each item on its own interval); give every item's price one interval.",
    'items',
  );
}

/** A Subscription created through `POST /v1/subscriptions`: active, its first invoice paid. */
export async function creatingSubscription(
  subscription: Obj,
  sent: Obj,
  wall: FlowKit,
): Promise<FlowError | undefined> {
  // A customer on a test clock has its subscriptions made at the clock's time (clocks.ts).
  const clock = await clockOfCustomer(sent.customer, wall);
  const kit = clock === undefined ? wall : atClock(wall, Number(clock.frozen_time));
  const items = await itemsOf(sent.items, 'items', kit);
  if (!Array.isArray(items)) return items;
  const oneTime = items.find(({ price }) => price.type !== 'recurring' && recurringOf(price.recurring) === null);
  if (oneTime !== undefined) {
    return invalidRequest(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      'items[0][price]',
    );
  }
  const mismatch = mismatchOf(
    items.map(({ price }) => price),
    billingModeMade(sent.billing_mode, kit.version).type === 'flexible',
  );
  if (mismatch !== undefined) return mismatch;
  const trialEnd = trialOf(sent, kit);
  if (typeof trialEnd === 'object') return trialEnd;
  // `default_incomplete` (Stripe's subscription guide) leaves the first invoice for the customer to
  // pay; otherwise it is charged to the subscription's or the customer's default payment method.
  const incomplete = sent.payment_behavior === 'default_incomplete';
  const given = typeof sent.default_payment_method === 'string' ? sent.default_payment_method : null;
  const method = incomplete ? null : (given ?? (await customerMethod(sent.customer, kit)));
  const paying = { method, test: method === null ? undefined : await testOf(method, kit) };
  if (isSepa(paying.test)) {
    return invalidRequest(
      `The twin pays a subscription's invoices by card only: ${String(method)} is a SEPA Direct Debit PaymentMethod, whose debits it settles for PaymentIntents and Checkout Sessions (docs/twins.md). Pay with a card (pm_card_visa), or confirm the invoice's PaymentIntent yourself.`,
      given === null ? 'customer' : 'default_payment_method',
    );
  }
  await openBook(sent.customer, kit);
  const made = {
    customer: sent.customer,
    items,
    metadata: sent.metadata,
    paying,
    trialEnd,
    clock: clock?.id as string,
    billingMode: sent.billing_mode,
  };
  subscribe(made, kit, subscription, true);
  // `error_if_incomplete`: a first payment that fails refuses the create, nothing kept.
  if (sent.payment_behavior === 'error_if_incomplete' && subscription.status === 'incomplete') {
    const how = declineOf(paying.test ?? method);
    if (how !== undefined) return cardError(how, {});
    return invalidRequest(
      method === null
        ? 'This customer has no attached payment source or default payment method.'
        : 'Payment for this subscription requires additional user action before it can be completed successfully.',
    );
  }
  return undefined;
}

/** The list object of a subscription's items, as Stripe answers `items`. */
export function itemsList(lines: Obj[], id: string): Obj {
  return {
    object: 'list',
    data: lines,
    has_more: false,
    total_count: lines.length,
    url: `/v1/subscription_items?subscription=${id}`,
  };
}
