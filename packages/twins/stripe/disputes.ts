/**
 * Stripe's dispute test cards (docs.stripe.com/testing#disputes): a payment with
 * `pm_card_createDispute` succeeds, then its cardholder disputes it as fraudulent — the Charge
 * `disputed: true` and a Dispute (`dp_`, `needs_response`) with `charge.dispute.created`;
 * `pm_card_createDisputeInquiry` makes an inquiry (`warning_needs_response`) instead.
 *
 * @module
 */
import type { FlowKit } from '@mockpoint/core/internal';

export const DISPUTES = '/v1/disputes';

/** The status of the dispute each test card opens. */
const DISPUTING: Readonly<Record<string, string>> = {
  pm_card_createDispute: 'needs_response',
  pm_card_createDisputeInquiry: 'warning_needs_response',
};

const DAY = 86_400;

/** Whether a payment with the test card `test` is disputed once it succeeds. */
export function disputes(test: unknown): test is string {
  return typeof test === 'string' && Object.hasOwn(DISPUTING, test);
}

/**
 * The Dispute of a captured `charge` paid with the dispute card `test`, as Stripe opens it: the
 * whole amount, `reason: fraudulent`, evidence due in 7 days (written, `charge.dispute.created`).
 */
export function writeDispute(charge: Record<string, unknown>, test: string, kit: FlowKit, after: boolean): void {
  const now = Math.floor(kit.now() / 1000);
  const dispute = kit.example(DISPUTES);
  const card = (charge.payment_method_details as { card?: { brand?: unknown } } | undefined)?.card;
  Object.assign(dispute, {
    id: kit.newId('dp_'),
    object: 'dispute',
    amount: charge.amount,
    balance_transactions: [],
    charge: charge.id,
    created: now,
    currency: charge.currency,
    evidence_details: { due_by: now + 7 * DAY, has_evidence: false, past_due: false, submission_count: 0 },
    // An inquiry's payment can still be refunded; a chargeback's funds are already withdrawn.
    is_charge_refundable: DISPUTING[test] === 'warning_needs_response',
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent ?? null,
    payment_method_details: {
      type: 'card',
      card: {
        brand: card?.brand ?? 'visa',
        case_type: DISPUTING[test] === 'warning_needs_response' ? 'inquiry' : 'chargeback',
        network_reason_code: '10.4',
      },
    },
    reason: 'fraudulent',
    status: DISPUTING[test],
  });
  kit.write({ kind: 'created', template: DISPUTES, object: dispute, events: ['charge.dispute.created'], after });
}
