/**
 * Stripe Refunds as test mode behaves: a refund of a succeeded PaymentIntent
 * or Charge, whole or in part (`amount`), succeeds at once; the Charge's
 * `amount_refunded` and `refunded` follow (`charge.refunded`, then
 * `refund.created`); an amount over what is left is Stripe's
 * `amount_too_large`, a charge refunded whole `charge_already_refunded`.
 * A charge or intent the twin never saw is refunded as stripe-mock answers.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { CHARGES } from './charges.js';
import { invalidRequest, isFlowError, money } from './errors.js';

type Obj = Record<string, unknown>;

/** The Charge a refund names, as the twin holds it; `undefined`: one it never saw. */
async function chargeOf(sent: Obj, kit: FlowKit): Promise<Obj | FlowError | undefined> {
  if (typeof sent.charge === 'string') {
    const found = await kit.find(sent.charge);
    return found?.object === 'charge' ? found : undefined;
  }
  if (typeof sent.payment_intent !== 'string') {
    return invalidRequest(
      'One of `charge` or `payment_intent` is required to create a refund.',
      'charge',
      'parameter_missing',
    );
  }
  const intent = await kit.find(sent.payment_intent);
  if (intent?.object !== 'payment_intent') return undefined;
  const charge = typeof intent.latest_charge === 'string' ? await kit.find(intent.latest_charge) : undefined;
  if (intent.status !== 'succeeded' || charge === undefined) {
    return invalidRequest(
      `This PaymentIntent (${String(intent.id)}) does not have a successful charge to refund.`,
      'payment_intent',
    );
  }
  return charge;
}

/** A new refund: checked against what is left of its charge, the charge updated. */
export async function creatingRefund(refund: Obj, sent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  const charge = await chargeOf(sent, kit);
  if (charge === undefined) return undefined;
  if (isFlowError(charge)) return charge;
  const amount = Number(charge.amount) || 0;
  const refunded = Number(charge.amount_refunded) || 0;
  const left = amount - refunded;
  if (left <= 0) {
    return invalidRequest(
      `Charge ${String(charge.id)} has already been refunded.`,
      undefined,
      'charge_already_refunded',
    );
  }
  const asked = sent.amount === undefined ? left : sent.amount;
  if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1) {
    return invalidRequest('Invalid positive integer', 'amount', 'parameter_invalid_integer');
  }
  if (asked > left) {
    return invalidRequest(
      `Refund amount (${money(asked, charge.currency)}) is greater than unrefunded amount on charge (${money(left, charge.currency)})`,
      'amount',
      'amount_too_large',
    );
  }
  Object.assign(refund, {
    object: 'refund',
    amount: asked,
    charge: charge.id,
    currency: charge.currency,
    failure_reason: null,
    metadata: (typeof sent.metadata === 'object' && sent.metadata !== null ? sent.metadata : {}) as Obj,
    next_action: null,
    payment_intent: charge.payment_intent ?? null,
    reason: typeof sent.reason === 'string' ? sent.reason : null,
    status: 'succeeded',
  });
  const total = refunded + asked;
  const updated: Obj = { ...charge, amount_refunded: total, refunded: total >= amount };
  // Its refunds list names this one first, as `charge.refunded` carries it (a handler reads the refund there).
  const list = charge.refunds as Obj | undefined;
  if (typeof list === 'object' && list !== null && Array.isArray(list.data)) {
    const data = [{ ...refund }, ...(list.data as Obj[])].slice(0, 10);
    const count = (Number(list.total_count) || list.data.length) + 1;
    updated.refunds = { ...list, data, has_more: count > data.length, total_count: count };
  }
  kit.write({ kind: 'updated', template: CHARGES, object: updated, events: ['charge.refunded'] });
  return undefined;
}
