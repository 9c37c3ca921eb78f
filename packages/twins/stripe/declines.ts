/**
 * Stripe's declining test payment methods (docs.stripe.com/testing, "Declined payments"): each
 * declines a confirm with the error code, decline code and words Stripe's test mode answers, and
 * leaves what Stripe leaves — a failed Charge (`charge.failed`, its `failure_code` and `outcome`),
 * the intent back at `requires_payment_method` with `last_payment_error` naming the charge and the
 * payment method, and the `402 card_error` carrying `charge`, `payment_intent` and
 * `payment_method` as Stripe's does (stripe-node reads them as `err.raw.payment_intent`).
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { methodObject } from './cards.js';
import { CHARGES, chargeOf } from './charges.js';

/** How a declining test payment method declines. */
export interface Decline {
  /** The error's `code` (and the Charge's `failure_code`). */
  code: string;
  /** The issuer's reason, where Stripe gives one (`insufficient_funds`). */
  declineCode?: string;
  message: string;
  /** The card field the error is about (`cvc`, `exp_month`). */
  param?: string;
  /** Blocked by Radar before it reached the card network. */
  blocked?: boolean;
}

const GENERIC: Decline = { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' };
const INSUFFICIENT: Decline = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};
const LOST: Decline = { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' };
const STOLEN: Decline = { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' };
const FRAUDULENT: Decline = {
  code: 'card_declined',
  declineCode: 'fraudulent',
  message: 'Your card was declined.',
  blocked: true,
};

/** Each declining test payment method Stripe's testing page lists, by its id. */
const DECLINES: Readonly<Record<string, Decline>> = {
  pm_card_chargeDeclined: GENERIC,
  pm_card_visa_chargeDeclined: GENERIC,
  pm_card_chargeDeclinedInsufficientFunds: INSUFFICIENT,
  pm_card_visa_chargeDeclinedInsufficientFunds: INSUFFICIENT,
  pm_card_chargeDeclinedLostCard: LOST,
  pm_card_visa_chargeDeclinedLostCard: LOST,
  pm_card_chargeDeclinedStolenCard: STOLEN,
  pm_card_visa_chargeDeclinedStolenCard: STOLEN,
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.', param: 'exp_month' },
  pm_card_chargeDeclinedIncorrectCvc: {
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
    param: 'cvc',
  },
  pm_card_chargeDeclinedProcessingError: {
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
  pm_card_visa_chargeDeclinedVelocityLimitExceeded: {
    code: 'card_declined',
    declineCode: 'card_velocity_exceeded',
    message: 'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.',
  },
  pm_card_chargeDeclinedFraudulent: FRAUDULENT,
  pm_card_radarBlock: FRAUDULENT,
  pm_card_chargeCustomerFail: GENERIC,
};

/** Whether confirming with `method` declines (a test payment method of Stripe's that always does). */
function declines(method: unknown): method is string {
  return typeof method === 'string' && Object.hasOwn(DECLINES, method);
}

/** How test method `method` declines (`undefined`: it does not). */
export function declineOf(method: unknown): Decline | undefined {
  return declines(method) ? DECLINES[method] : undefined;
}

/**
 * Declines `intent` as its test payment method does: writes the failed Charge (`charge.failed`,
 * after the intent's own events), moves the intent back to `requires_payment_method` with its
 * `last_payment_error`, and answers the `402 card_error`. `undefined` when the method does not decline.
 * `test`: the test method it was made from, for a PaymentMethod the twin holds (setup.ts).
 */
export function decline(
  intent: Record<string, unknown>,
  kit: FlowKit,
  test: unknown = intent.payment_method,
): FlowError | undefined {
  const method = intent.payment_method;
  const how = declineOf(test);
  if (typeof method !== 'string' || how === undefined) return undefined;
  const chargeId = kit.newId('ch_');
  intent.latest_charge = chargeId;
  const charge = chargeOf(intent, kit, false, test);
  Object.assign(charge, {
    amount_captured: 0,
    captured: false,
    failure_code: how.code,
    failure_message: how.message,
    outcome: {
      network_status: how.blocked === true ? 'not_sent_to_network' : 'declined_by_network',
      reason: how.declineCode ?? how.code,
      risk_level: how.blocked === true ? 'highest' : 'normal',
      seller_message:
        how.blocked === true
          ? 'Stripe blocked this payment as too risky.'
          : 'The bank did not return any further details with this decline.',
      type: how.blocked === true ? 'blocked' : 'issuer_declined',
    },
    paid: false,
    status: 'failed',
  });
  kit.write({ kind: 'created', template: CHARGES, object: charge, events: ['charge.failed'], after: true });
  const paymentMethod = methodObject(test as string, method, intent.customer, kit.now());
  intent.status = 'requires_payment_method';
  intent.payment_method = null;
  intent.last_payment_error = lastError(how, paymentMethod, chargeId);
  return cardError(how, { charge: chargeId, payment_intent: { ...intent }, payment_method: paymentMethod });
}

/** An intent's `last_payment_error` (or a SetupIntent's `last_setup_error`) after `how` declined. */
export function lastError(
  how: Decline,
  paymentMethod: Record<string, unknown>,
  charge?: string,
): Record<string, unknown> {
  return {
    ...(charge === undefined ? {} : { charge }),
    code: how.code,
    ...(how.declineCode === undefined ? {} : { decline_code: how.declineCode }),
    doc_url: `https://stripe.com/docs/error-codes/${how.code.replaceAll('_', '-')}`,
    message: how.message,
    ...(how.param === undefined ? {} : { param: how.param }),
    payment_method: paymentMethod,
    type: 'card_error',
  };
}

/** The `402 card_error` of `how`, `extra` the objects it names (`charge`, `payment_intent`, `setup_intent`). */
export function cardError(how: Decline, extra: Record<string, unknown>): FlowError {
  return {
    status: 402,
    type: 'card_error',
    code: how.code,
    message: how.message,
    ...(how.param === undefined ? {} : { param: how.param }),
    extra: { ...(how.declineCode === undefined ? {} : { decline_code: how.declineCode }), ...extra },
  };
}
