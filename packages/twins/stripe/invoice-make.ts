/**
 * A subscription's Invoice as Stripe makes it, for its items at their prices and its pending
 * invoice items (a proration's), the PaymentIntent that pays it (confirmed with a test card as
 * Stripe's test mode confirms one), its events' states (`draft`, then `open`), and an open
 * invoice paid. Used by a subscription's create (billing.ts), renewal (renewals.ts), proration
 * (prorations.ts) and resume (resume.ts).
 *
 * @module
 */

import type { FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { INTENTS, madeIntent, type Payment, writeCharge } from './charges.js';
import { nextNumber } from './customer-books.js';
import { decline } from './declines.js';
import { INVOICES } from './paths.js';
import { isSepa } from './sepa.js';

type Obj = Record<string, unknown>;

/**
 * How an invoice is paid: `method` the payment method charged (`test`, the test card it pays as),
 * `null` none — the invoice is left `open` with its PaymentIntent `requires_payment_method`.
 */
export interface Paying {
  method: string | null;
  test?: string | undefined;
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
  paying: Paying,
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
