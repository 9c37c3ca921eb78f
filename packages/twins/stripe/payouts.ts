/**
 * Payouts (`POST /v1/payouts`) as Stripe's test mode makes them: a `po_…` payout to the account's
 * test bank account, `pending` when made (its `payout.created`) and `paid` at once (`payout.paid`),
 * as test-mode payouts to Stripe's default test account succeed; the twin keeps no balance, so
 * any amount is paid out.
 *
 * @module
 */
import type { FlowKit } from '@mockpoint/core/internal';

export const PAYOUTS = '/v1/payouts';

type Obj = Record<string, unknown>;

/** A new payout: `payout.created` shows it `pending`, the object is kept `paid`. */
export function createdPayout(payout: Obj, sent: Obj, kit: FlowKit): void {
  const now = Math.floor(kit.now() / 1000);
  Object.assign(payout, {
    arrival_date: now,
    automatic: false,
    balance_transaction: null,
    description: typeof sent.description === 'string' ? sent.description : null,
    failure_code: null,
    failure_message: null,
    method: typeof sent.method === 'string' ? sent.method : 'standard',
    reconciliation_status: 'not_applicable',
    source_type: typeof sent.source_type === 'string' ? sent.source_type : 'card',
    status: 'pending',
    type: 'bank_account',
  });
  kit.snapshot('payout.created', { ...payout });
  payout.status = 'paid';
}
