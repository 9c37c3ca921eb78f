/**
 * Stripe's bounds of an `amount` sent to a create, as its test mode refuses
 * them: at least 1 (`parameter_invalid_integer`), at most 99,999,999 in the
 * currency's smallest unit (`amount_too_large`, $999,999.99), and for a
 * PaymentIntent or Charge in USD at least 50 (`amount_too_small`, $0.50). A customer balance
 * transaction or an invoice item may be negative (a credit, a discount), within the same bound.
 * That it is an integer at all is read with the body (twin-body.ts).
 *
 * @module
 */

import type { FlowError } from '@mockpoint/core/internal';
import { invalidRequest, money } from './errors.js';

/** Most an amount may be, in the currency's smallest unit (Stripe's eight digits). */
export const AMOUNT_MAX = 99_999_999;
/** Least a USD payment may be, in cents. */
export const USD_MINIMUM = 50;

const PAYMENTS = new Set(['/v1/payment_intents', '/v1/charges']);

/** Creates whose `amount` may be negative: a customer balance's credit, an invoice item's discount. */
const SIGNED = /\/(balance_transactions|invoiceitems)$/;

/** Stripe's refusal of a create's `amount` out of its bounds, or `undefined`. */
export function checkAmount(template: string, sent: Record<string, unknown>): FlowError | undefined {
  const amount = sent.amount;
  if (typeof amount !== 'number') return undefined;
  if (SIGNED.test(template) && amount < 0) {
    return amount < -AMOUNT_MAX ? checkAmount(template, { ...sent, amount: -amount }) : undefined;
  }
  if (amount < 1) {
    return invalidRequest('This value must be greater than or equal to 1.', 'amount', 'parameter_invalid_integer');
  }
  if (amount > AMOUNT_MAX) {
    return invalidRequest(
      `Amount must be no more than ${money(AMOUNT_MAX, sent.currency).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`,
      'amount',
      'amount_too_large',
    );
  }
  const currency = typeof sent.currency === 'string' ? sent.currency.toLowerCase() : '';
  if (PAYMENTS.has(template) && currency === 'usd' && amount < USD_MINIMUM) {
    return invalidRequest(`Amount must be at least ${money(USD_MINIMUM, 'usd')} usd`, 'amount', 'amount_too_small');
  }
  return undefined;
}
