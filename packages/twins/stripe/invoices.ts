/**
 * An Invoice made through `POST /v1/invoices` (outside a subscription), as Stripe makes one: a
 * `draft` of its customer (no number, nothing paid) whose lines are the customer's pending
 * invoice items when `pending_invoice_items_behavior=include` (each then `invoice` set to it), its
 * amounts their sum; a draft's update (`description`, `metadata`, …) is the engine's, with
 * `invoice.updated` and its `previous_attributes`.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { INVOICES } from './paths.js';

export const INVOICE_ITEMS = '/v1/invoiceitems';

type Obj = Record<string, unknown>;

/** A new draft invoice of `sent.customer`, its lines the pending invoice items it includes. */
export async function creatingInvoice(invoice: Obj, sent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  const id = String(invoice.id);
  const pending =
    sent.pending_invoice_items_behavior === 'include' && typeof sent.customer === 'string'
      ? (await kit.objects(INVOICE_ITEMS)).filter((item) => item.customer === sent.customer && !item.invoice)
      : [];
  const lines = pending.map((item) => ({
    id: kit.newId('il_'),
    object: 'line_item',
    amount: Number(item.amount) || 0,
    currency: item.currency,
    description: item.description ?? null,
    invoice: id,
    invoice_item: item.id,
    metadata: {},
    period: item.period,
    price: item.price ?? null,
    proration: item.proration === true,
    quantity: Number(item.quantity) || 1,
    quantity_decimal:
      typeof item.quantity_decimal === 'string' ? item.quantity_decimal : String(Number(item.quantity) || 1),
    subscription: item.subscription ?? null,
    subscription_item: item.subscription_item ?? null,
    type: 'invoiceitem',
  }));
  for (const item of pending) {
    kit.write({ kind: 'updated', template: INVOICE_ITEMS, object: { ...item, invoice: id }, events: [] });
  }
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const now = Math.floor(kit.now() / 1000);
  Object.assign(invoice, {
    amount_due: total,
    amount_paid: 0,
    amount_remaining: total,
    attempt_count: 0,
    attempted: false,
    billing_reason: 'manual',
    charge: null,
    currency: lines[0]?.currency ?? (typeof sent.currency === 'string' ? sent.currency : 'usd'),
    hosted_invoice_url: null,
    invoice_pdf: null,
    lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `${INVOICES}/${id}/lines` },
    number: null,
    paid: false,
    payment_intent: null,
    period_end: now,
    period_start: now,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subscription: null,
    subtotal: total,
    total,
  });
  return undefined;
}
