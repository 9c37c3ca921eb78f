/**
 * A SEPA Direct Debit payment's life (sepa.ts): confirmed, it is `processing` with a `pending`
 * Charge; then it settles as its test IBAN says, at once (after the confirm's answer) or, for the
 * "after at least three minutes" IBANs, when the twin-only helper
 * `POST /v1/test_helpers/payment_intents/{intent}/settle` is called. A Checkout Session it pays
 * completes `unpaid` and is told the outcome by `checkout.session.async_payment_succeeded` or
 * `…_failed`, as Stripe's delayed notification methods are.
 *
 * @module
 */

import type { ActionOutcome, FlowKit } from '@mockpoint/core/internal';
import { CHARGES, chargeOf, INTENTS } from './charges.js';
import { invalidRequest } from './errors.js';
import {
  failureOf,
  isDelayed,
  isSepa,
  outcomeOf,
  type SepaOutcome,
  sepaDetails,
  sepaKeyOf,
  settledKey,
} from './sepa.js';

type Obj = Record<string, unknown>;

const SESSIONS = '/v1/checkout/sessions';
const DISPUTES = '/v1/disputes';

/** The twin-only helper that settles a delayed SEPA payment now. */
export const SETTLE = '/v1/test_helpers/payment_intents/{intent}/settle';

/** The helper's operation, answered with the PaymentIntent as it settled. */
export const settlePaths: Record<string, Obj> = {
  [SETTLE]: {
    post: {
      operationId: 'TwinSettlePaymentIntent',
      'x-mockpoint-owner': INTENTS,
      parameters: [{ in: 'path', name: 'intent', required: true, schema: { type: 'string', maxLength: 66 } }],
      requestBody: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: { expand: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
      responses: {
        '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/payment_intent' } } } },
      },
    },
  },
};

/** `intent` moved to `processing` by SEPA test key `test` of `method`; its `pending` Charge (not written). */
function processing(intent: Obj, kit: FlowKit, test: string, method: Obj | undefined): Obj {
  Object.assign(intent, {
    latest_charge: kit.newId('ch_'),
    last_payment_error: null,
    next_action: null,
    status: 'processing',
  });
  return {
    ...chargeOf(intent, kit, false, test),
    paid: false,
    payment_method_details: sepaDetails(method, kit.newId('mandate_')),
    status: 'pending',
  };
}

/**
 * `intent` confirmed with SEPA test key `test` by `method` (the PaymentMethod the twin holds):
 * `processing`, its Charge written `pending` (`charge.pending`); a payment that does not wait
 * settles after the answer.
 */
export function startSepa(intent: Obj, kit: FlowKit, after: boolean, test: string, method: Obj | undefined): void {
  const charge = processing(intent, kit, test, method);
  kit.write({ kind: 'created', template: CHARGES, object: charge, events: ['charge.pending'], after });
  const outcome = outcomeOf(test);
  if (!isDelayed(outcome)) settle({ ...intent }, charge, outcome, kit);
}

/** Writes a processing payment's outcome: its PaymentIntent and Charge moved, a dispute opened, its session told. */
function settle(intent: Obj, charge: Obj, outcome: SepaOutcome, kit: FlowKit, session?: Obj): Obj {
  const now = Math.floor(kit.now() / 1000);
  const failure = failureOf(outcome);
  if (failure !== undefined) {
    const message = `The SEPA Direct Debit payment failed (${failure}).`;
    const failed = {
      ...intent,
      status: 'requires_payment_method',
      last_payment_error: {
        code: failure,
        message,
        payment_method: intent.payment_method,
        type: 'invalid_request_error',
      },
    };
    kit.write({
      kind: 'updated',
      template: INTENTS,
      object: failed,
      events: ['payment_intent.payment_failed'],
      after: true,
    });
    const object = { ...charge, status: 'failed', failure_code: failure, failure_message: message };
    kit.write({ kind: 'updated', template: CHARGES, object, events: ['charge.failed'], after: true });
    if (session !== undefined) {
      kit.write({
        kind: 'updated',
        template: SESSIONS,
        object: session,
        events: ['checkout.session.async_payment_failed'],
        after: true,
      });
    }
    return failed;
  }
  const amount = Number(intent.amount) || 0;
  const succeeded = { ...intent, status: 'succeeded', amount_received: amount };
  kit.write({
    kind: 'updated',
    template: INTENTS,
    object: succeeded,
    events: ['payment_intent.succeeded'],
    after: true,
  });
  const paid = { ...charge, status: 'succeeded', paid: true, captured: true, amount_captured: amount };
  kit.write({ kind: 'updated', template: CHARGES, object: paid, events: ['charge.succeeded'], after: true });
  if (outcome === 'disputed') {
    // A SEPA debit disputed by the payer's bank: a chargeback, which cannot be contested.
    kit.write({ kind: 'updated', template: CHARGES, object: { ...paid, disputed: true }, events: [], after: true });
    const dispute = kit.example(DISPUTES);
    Object.assign(dispute, {
      id: kit.newId('dp_'),
      object: 'dispute',
      amount,
      balance_transactions: [],
      charge: charge.id,
      created: now,
      currency: charge.currency,
      evidence_details: { due_by: null, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      payment_method_details: { type: 'sepa_debit', sepa_debit: {} },
      reason: 'general',
      status: 'lost',
    });
    kit.write({
      kind: 'created',
      template: DISPUTES,
      object: dispute,
      events: ['charge.dispute.created'],
      after: true,
    });
  }
  if (session !== undefined) {
    const object = { ...session, payment_status: 'paid' };
    kit.write({
      kind: 'updated',
      template: SESSIONS,
      object,
      events: ['checkout.session.async_payment_succeeded'],
      after: true,
    });
  }
  return succeeded;
}

/**
 * A Checkout Session's payment by a held SEPA PaymentMethod `method` (its test key `test`): its
 * PaymentIntent written `processing` before the session's own change (`done`: the session as it
 * completes, `unpaid`), its outcome after it, the session told.
 */
export function checkoutSepa(intent: Obj, done: Obj, kit: FlowKit, test: string, method: Obj): void {
  kit.snapshot('payment_intent.created', { ...intent });
  Object.assign(intent, { payment_method: method.id, payment_method_types: ['sepa_debit'] });
  const charge = processing(intent, kit, test, method);
  kit.write({ kind: 'created', template: INTENTS, object: { ...intent } });
  kit.write({ kind: 'created', template: CHARGES, object: charge, events: ['charge.pending'] });
  const outcome = outcomeOf(test);
  if (!isDelayed(outcome)) settle({ ...intent }, charge, outcome, kit, done);
}

/** The settle helper: a `processing` SEPA PaymentIntent moved as its delayed test IBAN says, now. */
export async function settleNow(intent: Obj, kit: FlowKit): Promise<ActionOutcome> {
  const method = typeof intent.payment_method === 'string' ? await kit.find(intent.payment_method) : undefined;
  const test = method?.type === 'sepa_debit' ? sepaKeyOf(method) : undefined;
  if (intent.status !== 'processing' || !isSepa(test)) {
    return {
      error: invalidRequest(
        `This PaymentIntent's status is ${String(intent.status)}; only a processing SEPA Direct Debit payment settles (its test IBAN says how).`,
        undefined,
        'payment_intent_unexpected_state',
      ),
    };
  }
  const charge = typeof intent.latest_charge === 'string' ? await kit.find(intent.latest_charge) : undefined;
  if (charge?.object !== 'charge') {
    return {
      error: invalidRequest(
        'This PaymentIntent has no pending Charge to settle.',
        undefined,
        'payment_intent_unexpected_state',
      ),
    };
  }
  const session = (await kit.objects(SESSIONS)).find((one) => one.payment_intent === intent.id);
  const settled = settle(intent, charge, outcomeOf(settledKey(outcomeOf(test))), kit, session);
  return { object: settled, events: [] };
}
