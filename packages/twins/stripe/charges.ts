/**
 * The Charge behind a PaymentIntent that succeeded (or waits for capture),
 * kept in `/v1/charges` so that a refund finds it and `charge.succeeded`
 * carries it, its `payment_method_details` the test card's (cards.ts), and a PaymentIntent paid at once by a flow (a Checkout Session's,
 * a first invoice's).
 *
 * @module
 */

import type { FlowKit } from '@mockpoint/core/internal';
import { cardDetails } from './cards.js';
import { disputes, writeDispute } from './disputes.js';

export const CHARGES = '/v1/charges';
export const INTENTS = '/v1/payment_intents';

/** The Charge of `intent` (its `latest_charge`), captured or held. */
export function chargeOf(
  intent: Record<string, unknown>,
  kit: FlowKit,
  captured: boolean,
  test: unknown = intent.payment_method,
): Record<string, unknown> {
  const charge = kit.example(CHARGES);
  const amount = Number(intent.amount) || 0;
  const id = String(intent.latest_charge);
  Object.assign(charge, {
    id,
    object: 'charge',
    amount,
    amount_captured: captured ? amount : 0,
    amount_refunded: 0,
    captured,
    currency: intent.currency,
    customer: intent.customer ?? null,
    description: intent.description ?? null,
    disputed: false,
    failure_code: null,
    failure_message: null,
    invoice: intent.invoice ?? null,
    livemode: false,
    metadata: intent.metadata ?? {},
    paid: true,
    payment_intent: intent.id,
    payment_method: intent.payment_method,
    payment_method_details: cardDetails(test, amount, kit.now()),
    refunded: false,
    status: 'succeeded',
  });
  if ('refunds' in charge)
    charge.refunds = { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${id}/refunds` };
  return charge;
}

/** Writes the Charge of an intent that was just confirmed, with `charge.succeeded` after the intent's own events. */
export function writeCharge(
  intent: Record<string, unknown>,
  kit: FlowKit,
  after: boolean,
  test: unknown = intent.payment_method,
): void {
  const captured = intent.status === 'succeeded';
  const charge = chargeOf(intent, kit, captured, test);
  kit.write({ kind: 'created', template: CHARGES, object: charge, events: ['charge.succeeded'], after });
  // A dispute card's payment is disputed once captured: the Charge `disputed`, its Dispute opened.
  if (!captured || !disputes(test)) return;
  kit.write({ kind: 'updated', template: CHARGES, object: { ...charge, disputed: true }, events: [], after });
  writeDispute(charge, test, kit, after);
}

/** What a flow pays at once: the amount, its currency and who pays. */
export interface Payment {
  amount: number;
  currency: unknown;
  customer: unknown;
  description?: unknown;
  metadata?: unknown;
  invoice?: unknown;
}

/**
 * A new PaymentIntent for `payment`, as Stripe makes one for a Checkout Session or an invoice:
 * `requires_payment_method`, nothing received, no charge yet (not written).
 */
export function madeIntent(payment: Payment, kit: FlowKit): Record<string, unknown> {
  const intent = kit.example(INTENTS);
  const id = kit.newId('pi_');
  return Object.assign(intent, {
    id,
    object: 'payment_intent',
    amount: payment.amount,
    amount_capturable: 0,
    amount_received: 0,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${kit.newId('').slice(0, 16)}`,
    currency: payment.currency,
    customer: payment.customer ?? null,
    description: payment.description ?? null,
    invoice: payment.invoice ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: payment.metadata ?? {},
    next_action: null,
    payment_method: null,
    status: 'requires_payment_method',
  });
}

/**
 * Writes a PaymentIntent that succeeded with a test card and its Charge
 * (`payment_intent.created`, `payment_intent.succeeded`, `charge.succeeded`), and answers it. Its
 * `payment_intent.created` shows it as {@link madeIntent} makes it.
 */
export function writePaidIntent(payment: Payment, kit: FlowKit, after = false): Record<string, unknown> {
  const intent = madeIntent(payment, kit);
  kit.snapshot('payment_intent.created', { ...intent });
  Object.assign(intent, {
    amount_received: payment.amount,
    latest_charge: kit.newId('ch_'),
    payment_method: kit.newId('pm_'),
    status: 'succeeded',
  });
  kit.write({ kind: 'created', template: INTENTS, object: intent, after });
  writeCharge(intent, kit, after);
  return intent;
}

/**
 * `intent` (none: nothing) canceled at `at` (Unix seconds) for `reason` (`void_invoice`, or `null`),
 * with `payment_intent.canceled`, unless it already succeeded or was canceled.
 */
export function cancelUnpaid(
  intent: Record<string, unknown> | undefined,
  at: number,
  reason: string | null,
  kit: FlowKit,
): void {
  if (intent === undefined || intent.status === 'succeeded' || intent.status === 'canceled') return;
  const canceled = { ...intent, status: 'canceled', canceled_at: at, cancellation_reason: reason };
  kit.write({ kind: 'updated', template: INTENTS, object: canceled, events: ['payment_intent.canceled'], after: true });
}
