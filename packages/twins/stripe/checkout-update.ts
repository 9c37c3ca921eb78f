/**
 * A Checkout Session's update, `POST /v1/checkout/sessions/{session}` (Stripe's "Dynamically update
 * a Checkout Session"; the 2024-04-10 document lacks it, stripe-node 23 sends it): an open session's
 * `metadata` (merged, as every update's), `shipping_options`, `collected_information`, and
 * `line_items` — one with an `id` keeps that line at its new `quantity`, one without adds a price,
 * a line not named is removed — its amounts summed again. A session no longer open is refused.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { sessionPost } from './checkout.js';
import { invalidRequest, isFlowError } from './errors.js';
import { priceOf } from './prices.js';

type Obj = Record<string, unknown>;

const SESSION = '/v1/checkout/sessions/{session}';
/** Most line items and shipping options one update sends (Stripe's own bounds). */
const MAX_LINES = 100;
const MAX_SHIPPING = 5;

/** The update's operation, beside the document's read of a session. */
export const sessionUpdatePaths: Record<string, Obj> = {
  [SESSION]: sessionPost(
    'PostCheckoutSessionsSession',
    {
      collected_information: { type: 'object' },
      expand: { type: 'array', items: { type: 'string' } },
      line_items: { type: 'array', items: { type: 'object' } },
      metadata: {},
      payment_intent_data: { type: 'object' },
      shipping_options: {},
    },
    { 'x-mockpoint-added': ['collected_information'] },
  ),
};

/** The session's lines after `given`: named ones at their new quantity, new prices added, others gone. */
async function linesOf(session: Obj, given: unknown[], kit: FlowKit): Promise<Obj[] | FlowError> {
  const held = ((record(session.line_items)?.data ?? []) as Obj[]).filter((line) => record(line) !== undefined);
  const lines: Obj[] = [];
  for (const [index, raw] of given.slice(0, MAX_LINES).entries()) {
    const item = record(raw) ?? {};
    // The form's numbers arrive as text here (the twin's operation types no line item's members).
    const count = Number(item.quantity);
    const quantity = item.quantity !== undefined && Number.isInteger(count) && count >= 0 ? count : undefined;
    let line: Obj;
    if (typeof item.id === 'string') {
      const kept = held.find((one) => one.id === item.id);
      if (kept === undefined) {
        return invalidRequest(
          `No line item ${item.id.slice(0, 80)} on this Checkout Session.`,
          `line_items[${index}][id]`,
        );
      }
      line = { ...kept, quantity: quantity ?? kept.quantity };
    } else {
      const price = await priceOf(item, `line_items[${index}]`, kit, session.mode === 'subscription');
      if (isFlowError(price)) return price;
      line = {
        id: kit.newId('li_'),
        object: 'item',
        currency: price.currency,
        description: null,
        price,
        quantity: quantity ?? 1,
      };
    }
    const amount = (Number(record(line.price)?.unit_amount) || 0) * Number(line.quantity);
    lines.push({ ...line, amount_discount: 0, amount_subtotal: amount, amount_tax: 0, amount_total: amount });
  }
  return lines;
}

/** A shipping option as a session answers it, from `shipping_rate` (an id) or `shipping_rate_data`. */
function shippingOption(raw: unknown, kit: FlowKit): Obj {
  const option = record(raw) ?? {};
  const data = record(option.shipping_rate_data);
  return {
    shipping_amount: Number(record(data?.fixed_amount)?.amount) || 0,
    shipping_rate: typeof option.shipping_rate === 'string' ? option.shipping_rate : kit.newId('shr_'),
  };
}

/** What an update of `session` keeps (`sent` with its lines, amounts, shipping options answered as Stripe's). */
export async function amendingSession(
  session: Obj,
  sent: Obj,
  kit: FlowKit,
): Promise<{ sent: Obj } | { error: FlowError }> {
  if (session.status !== 'open') {
    return {
      error: invalidRequest(`This Checkout Session is ${String(session.status)}; only an open one can be updated.`),
    };
  }
  const next: Obj = { ...sent };
  if (sent.shipping_options !== undefined) {
    const given = Array.isArray(sent.shipping_options) ? sent.shipping_options.slice(0, MAX_SHIPPING) : [];
    next.shipping_options = given.map((option) => shippingOption(option, kit));
  }
  if (Array.isArray(sent.line_items)) {
    const lines = await linesOf(session, sent.line_items, kit);
    if (isFlowError(lines as object)) return { error: lines as FlowError };
    const data = lines as Obj[];
    const total = data.reduce((sum, line) => sum + Number(line.amount_total), 0);
    next.line_items = { ...record(session.line_items), object: 'list', data, has_more: false };
    next.amount_subtotal = total;
    next.amount_total = total;
  }
  return { sent: next };
}
