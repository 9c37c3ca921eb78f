/**
 * An Invoice's line items by API version (shapes.ts renders them). The twin keeps a line in
 * the 2024-04-10 shape — its `price`, `type`, `subscription_item` or `invoice_item`, `proration`
 * at the top — and from `2025-03-31.basil` (Stripe's "Invoicing resources now specify how they were
 * generated" and "Replaces top-level price fields", stripe 23.1.0's `InvoiceLineItem`) answers it
 * with `parent` (`subscription_item_details` or `invoice_item_details`) and `pricing`
 * (`price_details`) in their place, its `tax_amounts` as `taxes`. Older versions see the old shape.
 *
 * @module
 */
import { idOf, record } from '../src/records.js';
import { withQuantityDecimal } from './invoice-items.js';

type Obj = Record<string, unknown>;

/** The fields basil moved off a line item (into `parent`, `pricing`, `taxes`). */
const LINE_GONE = [
  'amount_excluding_tax',
  'invoice_item',
  'plan',
  'price',
  'proration',
  'proration_details',
  'subscription_item',
  'tax_amounts',
  'tax_rates',
  'type',
  'unit_amount_excluding_tax',
];

/** The fields basil added to a line item, which older versions do not have. */
const LINE_NEW = ['parent', 'pretax_credit_amounts', 'pricing', 'taxes'];

/** A line's `parent`: the subscription item or invoice item it bills. */
function parentOf(line: Obj): Obj | null {
  const common = {
    proration: line.proration === true,
    proration_details: record(line.proration_details) ?? { credited_items: null },
    subscription: idOf(line.subscription),
  };
  const subscriptionItem = idOf(line.subscription_item);
  const invoiceItem = idOf(line.invoice_item);
  if (line.type === 'subscription' || (subscriptionItem !== null && line.type !== 'invoiceitem')) {
    return {
      invoice_item_details: null,
      subscription_item_details: { invoice_item: invoiceItem, ...common, subscription_item: subscriptionItem },
      type: 'subscription_item_details',
    };
  }
  if (invoiceItem !== null) {
    return {
      invoice_item_details: { invoice_item: invoiceItem, ...common },
      subscription_item_details: null,
      type: 'invoice_item_details',
    };
  }
  return null;
}

/** A line's `pricing` from its `price` (`null` for a line of no price). */
function pricingOf(price: unknown): Obj | null {
  const id = idOf(price);
  if (id === null) return null;
  const full = record(price);
  const amount = full?.unit_amount_decimal ?? (typeof full?.unit_amount === 'number' ? String(full.unit_amount) : null);
  return {
    price_details: { price: id, product: idOf(full?.product) ?? '' },
    type: 'price_details',
    unit_amount_decimal: amount,
  };
}

/** A line's `taxes` from its `tax_amounts`. */
function taxesOf(amounts: unknown): Obj[] {
  return (Array.isArray(amounts) ? amounts : []).map((raw) => {
    const amount = record(raw) ?? {};
    return {
      amount: amount.amount ?? 0,
      tax_behavior: amount.inclusive === true ? 'inclusive' : 'exclusive',
      tax_rate_details: { tax_rate: idOf(amount.tax_rate) },
      taxability_reason: amount.taxability_reason ?? 'standard_rated',
      taxable_amount: amount.taxable_amount ?? null,
      type: 'tax_rate_details',
    };
  });
}

/**
 * `line` (an invoice's `line_item`) in `version`: `basil` whether it is `2025-03-31` or newer,
 * `dahlia` whether `2026-03-25` or newer (`quantity_decimal`).
 */
export function lineItemAt(line: Obj, basil: boolean, dahlia: boolean): Obj {
  const shaped: Obj = {};
  const gone = basil ? LINE_GONE : LINE_NEW;
  for (const [key, value] of Object.entries(line)) if (!gone.includes(key)) shaped[key] = value;
  withQuantityDecimal(shaped, line, dahlia);
  if (!basil || 'parent' in line) return shaped;
  shaped.parent = parentOf(line);
  shaped.pricing = pricingOf(line.price);
  shaped.taxes = taxesOf(line.tax_amounts);
  shaped.pretax_credit_amounts = [];
  shaped.subtotal ??= typeof line.amount_excluding_tax === 'number' ? line.amount_excluding_tax : line.amount;
  return shaped;
}
