/**
 * Stripe Billing as its test mode behaves for a subscription's start: a
 * recurring Price, a Subscription made `active` with its first Invoice paid at
 * once by a test card (`customer.subscription.created`, `invoice.created`,
 * `invoice.finalized`, `invoice.paid`, `invoice.payment_succeeded`), its
 * `latest_invoice` expandable, and a cancel (`DELETE`) that ends it
 * (`customer.subscription.deleted`).
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { boundary, intervalOf } from './calendar.js';
import { INTENTS, madeIntent, type Payment, writeCharge, writePaidIntent } from './charges.js';
import { atClock, clockOfCustomer, kitOfCustomer } from './clocks.js';
import { delinquent, nextNumber, openBook } from './customer-books.js';
import { cardError, decline, declineOf } from './declines.js';
import { invalidRequest, isFlowError, missingParam } from './errors.js';
import { writeInvoice } from './invoice-payments.js';
import { prorate } from './prorations.js';
import { isSepa } from './sepa.js';
import { testOf } from './setup.js';
import { billingModeMade } from './shapes.js';

export const PRICES = '/v1/prices';
export const SUBSCRIPTIONS = '/v1/subscriptions';
export const INVOICES = '/v1/invoices';
const DAY = 86_400;

type Obj = Record<string, unknown>;

/** A Price's `recurring` as Stripe fills it (`null` for a one-time price). */
function recurringOf(sent: unknown): Obj | null {
  const given = record(sent);
  if (given === undefined || typeof given.interval !== 'string') return null;
  return {
    aggregate_usage: null,
    interval: given.interval,
    interval_count: typeof given.interval_count === 'number' ? given.interval_count : 1,
    meter: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

/** A new Price: one-time or recurring by what was sent. */
export function createdPrice(price: Obj, sent: Obj, kit: FlowKit): void {
  price.recurring = recurringOf(sent.recurring);
  price.type = price.recurring === null ? 'one_time' : 'recurring';
  price.active = sent.active !== false;
  if (typeof sent.product !== 'string') price.product = kit.newId('prod_');
}

/**
 * The Price a line item names (`price`, or `price_data` inline), as the twin
 * holds it; an id the twin never saw is the document's example price with that
 * id (as stripe-mock answers one), recurring monthly where `recurring` is wanted.
 */
export async function priceOf(item: Obj, at: string, kit: FlowKit, recurring: boolean): Promise<Obj | FlowError> {
  if (typeof item.price === 'string') {
    const found = await kit.find(item.price);
    if (found !== undefined && found.object === 'price') return found;
    const example = kit.example(PRICES);
    example.id = item.price;
    if (recurring && recurringOf(example.recurring) === null) {
      example.recurring = recurringOf({ interval: 'month' });
      example.type = 'recurring';
    }
    return example;
  }
  const data = record(item.price_data);
  if (data === undefined) return missingParam(`${at}[price]`);
  const price = kit.example(PRICES);
  Object.assign(price, {
    id: kit.newId('price_'),
    object: 'price',
    currency: data.currency,
    unit_amount:
      typeof data.unit_amount === 'number'
        ? data.unit_amount
        : Number.isFinite(Number(data.unit_amount_decimal))
          ? Math.round(Number(data.unit_amount_decimal))
          : 0,
    product: typeof data.product === 'string' ? data.product : kit.newId('prod_'),
  });
  createdPrice(price, { recurring: data.recurring }, kit);
  return price;
}

/** The line of an invoice or subscription item for a price and quantity. */
function itemLine(price: Obj, quantity: number, kit: FlowKit, subscription: string): Obj {
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
  paying?: { method: string | null; test?: string | undefined };
  /** The end of its free trial (Unix seconds): `trialing` until then, its first invoice paid at 0. */
  trialEnd?: number | undefined;
  /** The test clock its customer is on (clocks.ts), its time the kit's. */
  clock?: string | undefined;
  /** The `billing_mode` sent; none: the default of the request's version (shapes.ts). */
  billingMode?: unknown;
}

/**
 * The first invoice's PaymentIntent when a payment method is charged (or none is): written with
 * `payment_intent.created` as Stripe makes it, then confirmed with `method` — succeeded with its
 * Charge, declined as the test card declines (`charge.failed`, `payment_intent.payment_failed`),
 * `requires_action` for 3-D Secure — or left `requires_payment_method`. Answers the intent;
 * `intent`: one made before (its id on the invoice that names it).
 */
export function chargedIntent(
  payment: Payment,
  paying: NonNullable<Subscribing['paying']>,
  kit: FlowKit,
  intent: Obj = madeIntent({ ...payment, metadata: undefined }, kit),
): Obj {
  kit.snapshot('payment_intent.created', { ...intent });
  kit.write({ kind: 'created', template: INTENTS, object: intent, after: true });
  if (paying.method === null) return intent;
  intent.payment_method = paying.method;
  const test = paying.test ?? paying.method;
  if (isSepa(test)) {
    // A renewal of a customer whose default became a SEPA debit: the twin debits none for invoices.
    intent.last_payment_error = {
      code: 'payment_method_unsupported_type',
      message:
        'The twin pays invoices by card only; this SEPA Direct Debit payment method is not debited for an invoice.',
      payment_method: { id: paying.method, type: 'sepa_debit' },
      type: 'invalid_request_error',
    };
    return intent;
  }
  if (decline(intent, kit, test) !== undefined) return intent;
  if (test === 'pm_card_authenticationRequired') {
    intent.status = 'requires_action';
    intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    return intent;
  }
  Object.assign(intent, { latest_charge: kit.newId('ch_'), status: 'succeeded', amount_received: payment.amount });
  writeCharge(intent, kit, true, test);
  return intent;
}

/** What a subscription's invoice is for: its lines' period, why it was made, and how it was paid. */
export interface Invoicing {
  id: string;
  /** The subscription as it now is (its items, customer, currency). */
  subscription: Obj;
  /** Stripe's `billing_reason` (`subscription_create`, `subscription_cycle`). */
  reason: string;
  /** The period its lines bill (the subscription's new period). */
  period: { start: number; end: number };
  /** The invoice's own `period_start`/`period_end`. @default its creation, both */
  billed?: { start: number; end: number };
  /** Billed at 0 (a trial's first invoice). */
  free: boolean;
  /** Its PaymentIntent as it now is (`undefined`: nothing to pay). */
  intent: Obj | undefined;
  /** Whether a payment was attempted. */
  tried: boolean;
  /** Invoice items it bills beside (or, with `itemsBilled: false`, instead of) its items: a proration's (prorations.ts). */
  pending?: Obj[];
  /** Whether it bills the subscription's items for `period`. @default true */
  itemsBilled?: boolean;
}

/** An invoice's line of a pending invoice item (a proration's: prorations.ts). */
function pendingLine(item: Obj, invoiceId: string, subscription: string): Obj {
  return {
    id: `il_${String(item.id).replace(/^ii_/, '')}`,
    object: 'line_item',
    amount: Number(item.amount) || 0,
    currency: item.currency,
    description: item.description ?? null,
    discount_amounts: [],
    discountable: item.discountable !== false,
    discounts: [],
    invoice: invoiceId,
    invoice_item: item.id,
    livemode: false,
    metadata: {},
    period: item.period,
    price: item.price ?? null,
    proration: item.proration === true,
    proration_details: { credited_items: null },
    quantity: item.quantity ?? 1,
    quantity_decimal: item.quantity_decimal ?? String(item.quantity ?? 1),
    subscription,
    subscription_item: item.subscription_item ?? null,
    type: 'invoiceitem',
  };
}

/**
 * A subscription's Invoice as Stripe makes it, for its items at their prices: `paid` when its
 * PaymentIntent succeeded (or nothing was to pay), else `open` (not written).
 */
export function invoiceOf(invoicing: Invoicing, kit: FlowKit): Obj {
  const { id: invoiceId, subscription, period, intent, tried, free } = invoicing;
  const now = Math.floor(kit.now() / 1000);
  const id = String(subscription.id);
  const lines = invoicing.itemsBilled === false ? [] : ((record(subscription.items)?.data as Obj[] | undefined) ?? []);
  const amountOf = (line: Obj) => (free ? 0 : (Number(record(line.price)?.unit_amount) || 0) * Number(line.quantity));
  const pending = (invoicing.pending ?? []).map((item) => pendingLine(item, invoiceId, id));
  // A credit larger than what is due leaves nothing due (Stripe keeps the rest as the customer's
  // balance, which the twin does not).
  const total = Math.max(
    0,
    lines.reduce((sum, line) => sum + amountOf(line), 0) + pending.reduce((sum, line) => sum + Number(line.amount), 0),
  );
  const paid = intent === undefined || intent.status === 'succeeded';
  const invoice = kit.example(INVOICES);
  Object.assign(invoice, {
    id: invoiceId,
    object: 'invoice',
    amount_due: total,
    amount_paid: paid ? total : 0,
    amount_remaining: paid ? 0 : total,
    attempt_count: tried ? 1 : 0,
    attempted: tried,
    billing_reason: invoicing.reason,
    charge: intent?.latest_charge ?? null,
    collection_method: 'charge_automatically',
    confirmation_secret: intent === undefined ? null : { client_secret: intent.client_secret, type: 'payment_intent' },
    created: now,
    currency: subscription.currency,
    customer: subscription.customer,
    lines: {
      object: 'list',
      data: lines
        .map(
          (line): Obj => ({
            id: kit.newId('il_'),
            object: 'line_item',
            amount: amountOf(line),
            currency: subscription.currency,
            discount_amounts: [],
            discountable: true,
            discounts: [],
            invoice: invoiceId,
            livemode: false,
            metadata: {},
            price: line.price,
            proration: false,
            proration_details: { credited_items: null },
            quantity: line.quantity,
            subscription: id,
            subscription_item: line.id,
            type: 'subscription',
            period,
          }),
        )
        .concat(pending),
      has_more: false,
      total_count: lines.length + pending.length,
      url: `/v1/invoices/${invoiceId}/lines`,
    },
    livemode: false,
    next_payment_attempt: null,
    // The customer's next number (customer-books.ts), when the request read it.
    number: nextNumber(subscription.customer, kit) ?? invoice.number,
    paid,
    payment_intent: intent?.id ?? null,
    period_end: invoicing.billed?.end ?? now,
    period_start: invoicing.billed?.start ?? now,
    status: paid ? 'paid' : 'open',
    status_transitions: {
      finalized_at: now,
      marked_uncollectible_at: null,
      paid_at: paid ? now : null,
      voided_at: null,
    },
    subscription: id,
    // The subscription's metadata as the invoice was made (Stripe's snapshot at finalization).
    subscription_details: { metadata: record(subscription.metadata) ?? {} },
    subtotal: total,
    test_clock: subscription.test_clock ?? null,
    total,
  });
  return invoice;
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
 * A subscription's `payment_settings.save_default_payment_method: on_subscription`: the payment
 * method that paid its invoice (`intent`'s) becomes its `default_payment_method`; `{}` otherwise.
 */
export function savedMethod(subscription: Obj, intent: Obj | undefined): Obj {
  const saves = record(subscription.payment_settings)?.save_default_payment_method === 'on_subscription';
  const method = intent?.status === 'succeeded' ? intent.payment_method : undefined;
  return saves && typeof method === 'string' && method !== '' ? { default_payment_method: method } : {};
}

/** An open `invoice` as `intent`'s payment at `now` (Unix seconds) leaves it: `paid`, one more attempt. */
export function paidBy(invoice: Obj, intent: Obj, now: number): Obj {
  return {
    ...invoice,
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    attempt_count: (Number(invoice.attempt_count) || 0) + 1,
    attempted: true,
    charge: intent.latest_charge,
    next_payment_attempt: null,
    paid: true,
    status: 'paid',
    status_transitions: { ...(record(invoice.status_transitions) ?? {}), paid_at: now },
  };
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

/** The payment method a customer's invoices are charged to (`invoice_settings.default_payment_method`), if any. */
export async function customerMethod(customer: unknown, kit: FlowKit): Promise<string | null> {
  const found = typeof customer === 'string' ? await kit.find(customer) : undefined;
  const method = record(found?.invoice_settings)?.default_payment_method;
  return typeof method === 'string' && method !== '' ? method : null;
}

/**
 * A paid invoice's events as Stripe sends them, each with the invoice as it was: `invoice.created`
 * a `draft` (no number, no PaymentIntent yet), `invoice.finalized` `open` with its PaymentIntent,
 * nothing paid; `invoice.paid` and `invoice.payment_succeeded` carry it `paid`.
 */
export function invoiceStates(invoice: Obj, kit: FlowKit): void {
  const transitions = record(invoice.status_transitions) ?? {};
  const unpaid = {
    amount_paid: 0,
    amount_remaining: invoice.amount_due,
    attempt_count: 0,
    attempted: false,
    charge: null,
    paid: false,
    status_transitions: { ...transitions, paid_at: null },
  };
  const open = { ...invoice, ...unpaid, status: 'open' };
  kit.snapshot('invoice.created', {
    ...open,
    status: 'draft',
    number: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    payment_intent: null,
    status_transitions: { ...unpaid.status_transitions, finalized_at: null },
  });
  kit.snapshot('invoice.finalized', open);
}

/** The items of a create (`items[][price]`, `items[][price_data]`, `quantity`), each price recurring. */
export async function itemsOf(
  sent: unknown,
  param: string,
  kit: FlowKit,
): Promise<{ price: Obj; quantity: number }[] | FlowError> {
  const given = Array.isArray(sent) ? sent.slice(0, 20) : [];
  if (given.length === 0) return missingParam(param);
  const items: { price: Obj; quantity: number }[] = [];
  for (const [index, raw] of given.entries()) {
    const item = record(raw) ?? {};
    const price = await priceOf(item, `${param}[${index}]`, kit, true);
    if (isFlowError(price)) return price;
    items.push({ price, quantity: typeof item.quantity === 'number' ? item.quantity : 1 });
  }
  return items;
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
function itemsList(lines: Obj[], id: string): Obj {
  return {
    object: 'list',
    data: lines,
    has_more: false,
    total_count: lines.length,
    url: `/v1/subscription_items?subscription=${id}`,
  };
}

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
