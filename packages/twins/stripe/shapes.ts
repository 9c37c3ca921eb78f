/**
 * Stripe's objects in the API version a request or a webhook endpoint names (docs/twins.md, "API
 * versions"; docs/design.md#twins-as-the-provider-answers). The twin keeps one canonical object — the 2024-04-10 shape its flows
 * write (a Subscription's `current_period_*`, an Invoice's `subscription` and `payment_intent`) —
 * and renders it at answer time: at `2025-03-31.basil` and newer (Stripe's basil changelog, stripe
 * 23.1.0's types) a Subscription's items carry `current_period_start`/`_end` and the Subscription
 * does not; an Invoice has `parent` (`subscription_details`) in place of `subscription`,
 * `subscription_details`, `quote`, `subscription_proration_date`, no `payment_intent`, `charge`,
 * `paid`, `paid_out_of_band` (those are its invoice payments: `payments` when expanded), and
 * `discount`, `tax`, `total_tax_amounts` give way to `discounts` and `total_taxes`; an invoice's
 * line item has `parent` and `pricing` (line-items.ts); at `2025-06-30.basil` and newer a
 * Subscription has `billing_mode`, `flexible` by default from `2025-09-30.clover`. Older versions see the old
 * shape, none of the new fields. An event's object is rendered in the event's own version.
 *
 * @module
 */

import { record } from '../src/records.js';
import { sessionAt } from './checkout-ui.js';
import { invoiceItemAt, QUANTITY_DECIMAL } from './invoice-items.js';
import { invoicePaymentOf, paymentsList } from './invoice-payments.js';
import { lineItemAt } from './line-items.js';

type Obj = Record<string, unknown>;

/** The first version of the basil changes to Subscriptions and Invoices. */
export const BASIL = '2025-03-31';
/** The first version whose Subscriptions have `billing_mode`. */
const BILLING_MODE = '2025-06-30';
/** The first version whose new Subscriptions are `flexible` unless `classic` is sent (its changelog). */
const FLEXIBLE_DEFAULT = '2025-09-30';

/** Whether `version` (`2025-03-31.basil`) is `since` (a date) or newer. */
export function since(version: string, date: string): boolean {
  return version.slice(0, 10) >= date;
}

function without(object: Obj, names: readonly string[]): Obj {
  const kept: Obj = {};
  for (const [key, value] of Object.entries(object)) if (!names.includes(key)) kept[key] = value;
  return kept;
}

/** The fields basil removed from an Invoice. */
const INVOICE_GONE = [
  'application_fee_amount',
  'charge',
  'discount',
  'paid',
  'paid_out_of_band',
  'payment_intent',
  'quote',
  'subscription',
  'subscription_details',
  'subscription_proration_date',
  'tax',
  'total_tax_amounts',
  'transfer_data',
];

/** An Invoice's `parent` as basil writes it, from its `subscription` (or `quote`). */
function parentOf(invoice: Obj): Obj | null {
  if (typeof invoice.subscription === 'string') {
    const details = record(invoice.subscription_details);
    return {
      quote_details: null,
      subscription_details: {
        metadata: details?.metadata ?? null,
        subscription: invoice.subscription,
        ...(typeof invoice.subscription_proration_date === 'number' && invoice.subscription_proration_date > 0
          ? { subscription_proration_date: invoice.subscription_proration_date }
          : {}),
      },
      type: 'subscription_details',
    };
  }
  if (typeof invoice.quote === 'string') {
    return { quote_details: { quote: invoice.quote }, subscription_details: null, type: 'quote_details' };
  }
  return null;
}

/** An Invoice's `total_taxes` from its `total_tax_amounts`. */
function totalTaxes(amounts: unknown): Obj[] {
  return (Array.isArray(amounts) ? amounts : []).map((raw) => {
    const amount = record(raw) ?? {};
    return {
      amount: amount.amount ?? 0,
      tax_behavior: amount.inclusive === true ? 'inclusive' : 'exclusive',
      tax_rate_details: { tax_rate: amount.tax_rate ?? null },
      taxability_reason: amount.taxability_reason ?? 'standard_rated',
      taxable_amount: amount.taxable_amount ?? null,
      type: 'tax_rate_details',
    };
  });
}

function invoiceAt(invoice: Obj, version: string, expanded: boolean): Obj {
  if (!since(version, BASIL)) return without(invoice, ['parent', 'payments', 'total_taxes']);
  const shaped = without(invoice, INVOICE_GONE);
  shaped.parent = 'parent' in invoice ? invoice.parent : parentOf(invoice);
  if (!Array.isArray(invoice.discounts)) {
    shaped.discounts = typeof invoice.discount === 'string' ? [invoice.discount] : [];
  }
  if (!('total_taxes' in invoice)) shaped.total_taxes = totalTaxes(invoice.total_tax_amounts);
  if (expanded) shaped.payments = paymentsList(invoicePaymentOf(invoice), String(invoice.id));
  return shaped;
}

function subscriptionAt(subscription: Obj, version: string): Obj {
  if (!since(version, BASIL)) {
    const old = without(subscription, ['billing_mode']);
    const items = record(subscription.items);
    if (Array.isArray(items?.data)) {
      old.items = { ...items, data: items.data.map((item) => without(record(item) ?? {}, PERIOD)) };
    }
    return old;
  }
  const shaped = without(subscription, [...PERIOD, 'discount']);
  const items = record(subscription.items);
  if (Array.isArray(items?.data)) {
    // The twin's items share their subscription's period, as a subscription of one interval's do.
    const period = {
      current_period_start: subscription.current_period_start,
      current_period_end: subscription.current_period_end,
    };
    shaped.items = { ...items, data: items.data.map((item) => ({ ...(record(item) ?? {}), ...period })) };
  }
  if (!Array.isArray(subscription.discounts)) shaped.discounts = [];
  if (since(version, BILLING_MODE)) shaped.billing_mode = billingMode(subscription.billing_mode);
  else delete shaped.billing_mode;
  return shaped;
}

const PERIOD = ['current_period_start', 'current_period_end'];

/**
 * The `billing_mode` a Subscription made in `version` keeps: the one `sent`, else `flexible` from
 * `2025-09-30.clover` (Stripe's "Makes flexible billing mode the default for new subscriptions"),
 * `classic` before it.
 */
export function billingModeMade(sent: unknown, version: string | undefined): Obj {
  const given = record(sent);
  const fallback = version !== undefined && since(version, FLEXIBLE_DEFAULT) ? 'flexible' : 'classic';
  return billingMode({ ...given, type: given?.type ?? fallback });
}

/** A Subscription's `billing_mode` as Stripe answers it: `classic` unless `flexible` is kept. */
function billingMode(sent: unknown): Obj {
  const given = record(sent);
  const type = given?.type === 'flexible' ? 'flexible' : 'classic';
  const flexible =
    type === 'flexible' ? { proration_discounts: record(given?.flexible)?.proration_discounts ?? 'included' } : null;
  return { ...given, flexible, type };
}

/**
 * The fields Stripe leaves out of an object unless `expand[]` names them (its reference: "This field
 * is not included by default"), at every version the twin answers: a Checkout Session's, a Payment
 * Link's and a Quote's `line_items`, a Customer's `sources`, `subscriptions` and `tax_ids` (since
 * 2020-08-27). A webhook's object never has them. (A Charge's `refunds` are includable too since
 * 2022-11-15; the twin still answers them, as its `charge.refunded` carries them.)
 */
const INCLUDABLE: Readonly<Record<string, readonly string[]>> = {
  'checkout.session': ['line_items'],
  payment_link: ['line_items'],
  quote: ['line_items'],
  customer: ['sources', 'subscriptions', 'tax_ids'],
};

/** `object` without the fields of {@link INCLUDABLE} that `expand` (the paths asked for) does not name at `path`. */
function included(object: Obj, expand: ReadonlySet<string>, path: string): Obj {
  const fields = typeof object.object === 'string' ? INCLUDABLE[object.object] : undefined;
  if (fields === undefined) return object;
  const hidden = fields.filter((field) => field in object && !expand.has(path === '' ? field : `${path}.${field}`));
  return hidden.length === 0 ? object : without(object, hidden);
}

/** `object` in `version`, its own fields only (its members are rendered by {@link renderStripe}). */
function shapeOf(object: Obj, version: string, expanded: boolean): Obj {
  // A deleted object's stub (`{ id, object, deleted: true }`) has nothing of a version to render.
  if (object.deleted === true) return object;
  if (object.object === 'subscription') return subscriptionAt(object, version);
  if (object.object === 'invoice') return invoiceAt(object, version, expanded);
  if (object.object === 'line_item') {
    return lineItemAt(object, since(version, BASIL), since(version, QUANTITY_DECIMAL));
  }
  if (object.object === 'invoiceitem') {
    return invoiceItemAt(object, since(version, BASIL), since(version, QUANTITY_DECIMAL));
  }
  if (object.object === 'checkout.session') return sessionAt(object, version);
  return object;
}

/**
 * Whether an answer's text (written by `JSON.stringify`, so without spaces) holds an object
 * {@link renderStripe} changes; others are answered as written. A Customer is not among them: the
 * twin keeps none of its includable `sources`, `subscriptions`, `tax_ids` (so a list of 16 MB of
 * customers is not parsed again); it still answers the example's `cash_balance`.
 */
export function rendersStripe(text: string): boolean {
  return RENDERED.some((kind) => text.includes(`"object":"${kind}"`));
}

/** The objects {@link renderStripe} changes: by version, or by what is included. */
const RENDERED = [
  'subscription',
  'invoice',
  'line_item',
  'invoiceitem',
  'event',
  'checkout.session',
  'payment_link',
  'quote',
];

/** The most levels an answer is walked down (Stripe's objects nest far less). */
const MAX_DEPTH = 24;

/**
 * `value` (an answer, an event) with every Subscription and Invoice in it in `version`: an event's
 * `data` in the event's own `api_version`; `expand` the answer's `expand[]` paths (an Invoice
 * at a path `P` whose `P.payments` is asked for gets its `payments`). Copies what it changes.
 */
export function renderStripe(value: unknown, version: string, expand: readonly string[] = []): unknown {
  return walk(value, version, new Set(expand), '', 0);
}

function walk(value: unknown, version: string, expand: ReadonlySet<string>, path: string, depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((member) => walk(member, version, expand, path, depth + 1));
  let object = value as Obj;
  if (object.object === 'event')
    return eventAt(object, typeof object.api_version === 'string' ? object.api_version : version);
  object = included(shapeOf(object, version, expand.has(path === '' ? 'payments' : `${path}.payments`)), expand, path);
  const out: Obj = {};
  for (const [key, member] of Object.entries(object)) {
    out[key] = walk(member, version, expand, path === '' ? key : `${path}.${key}`, depth + 1);
  }
  return out;
}

/**
 * An `event` in `version` (a webhook endpoint's `api_version`): its `api_version` that one, its
 * `data.object` and `previous_attributes` shaped in it (a field the version lacks left out).
 */
export function eventAt(event: Obj, version: string): Obj {
  const data = record(event.data);
  if (data === undefined) return { ...event, api_version: version };
  const object = walk(data.object, version, new Set(), '', 1) as Obj;
  const previous = record(data.previous_attributes);
  const shaped: Obj = { ...data, object };
  if (previous !== undefined) {
    const kind = record(data.object)?.object;
    const full = shapeOf({ ...previous, object: kind }, version, false);
    shaped.previous_attributes = without(
      Object.fromEntries(Object.entries(full).filter(([key]) => key in previous || key === 'object')),
      ['object'],
    );
  }
  return { ...event, api_version: version, data: shaped };
}
