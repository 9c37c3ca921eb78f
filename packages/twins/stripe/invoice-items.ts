/**
 * Invoice Items as Stripe makes them (`POST /v1/invoiceitems`, its reference and stripe 23.1.0's
 * `InvoiceItem`): priced by a Price the twin holds (`price`, or basil's `pricing[price]`), by
 * `price_data`, or by an `amount`; `amount` is the unit amount times the quantity; `price` is the
 * Price object; `discountable` is true unless the amount is negative; no subscription. The twin keeps
 * an item in the 2024-04-10 shape and, from `2025-03-31.basil` (Stripe's "Invoicing resources now
 * specify how they were generated" and "Replaces top-level price fields"), answers it with `parent`
 * (`subscription_details`) and `pricing` (`price_details`) in place of `price`, `plan`,
 * `subscription`, `subscription_item`, `unit_amount` and `unit_amount_decimal` (shapes.ts renders
 * it). Older versions see the old shape.
 *
 * @module
 */
import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { idOf, record } from '../src/records.js';
import { invalidRequest, isFlowError, missingParam, noSuch } from './errors.js';
import { PRICES } from './paths.js';
import { priceOf } from './prices.js';

type Obj = Record<string, unknown>;

/** The fields basil moved off an Invoice Item (into `parent` and `pricing`). */
const ITEM_GONE = ['plan', 'price', 'subscription', 'subscription_item', 'unit_amount', 'unit_amount_decimal'];

/** The fields basil added to an Invoice Item, which older versions do not have. */
const ITEM_NEW = ['parent', 'pricing'];

/** A one-off Price of `unit_amount` in `currency`, as Stripe makes one for an item given an `amount`. */
function oneOffPrice(unitAmount: number, currency: unknown, kit: FlowKit): Obj {
  const price = kit.example(PRICES);
  Object.assign(price, {
    id: kit.newId('price_'),
    object: 'price',
    active: false,
    currency,
    product: kit.newId('prod_'),
    recurring: null,
    type: 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  });
  return price;
}

/** `quantity_decimal` as Stripe takes it: a non-negative decimal of at most 12 decimal places. */
const DECIMAL = /^(\d{1,15})(?:\.(\d{1,12}))?$/;

/** The first version whose invoice items and lines carry `quantity_decimal` (`2026-03-25.dahlia`). */
export const QUANTITY_DECIMAL = '2026-03-25';

/**
 * A quantity sent as `quantity` (a whole number) or dahlia's `quantity_decimal` (a decimal as text):
 * its text (`"1.5"`, trailing zeros dropped) and the whole units (`1`), or Stripe's refusal.
 */
function quantityOf(sent: Obj): { decimal: string; units: number } | FlowError {
  if (sent.quantity !== undefined && sent.quantity_decimal !== undefined) {
    return invalidRequest(
      'You may only specify one of these parameters: quantity, quantity_decimal.',
      'quantity_decimal',
      'parameters_exclusive',
    );
  }
  if (sent.quantity_decimal === undefined) {
    const units = typeof sent.quantity === 'number' && Number.isSafeInteger(sent.quantity) ? sent.quantity : 1;
    return { decimal: String(units), units };
  }
  const text = String(sent.quantity_decimal);
  if (text === '')
    return invalidRequest('Invalid decimal: an empty value.', 'quantity_decimal', 'parameter_invalid_empty');
  // Stripe's codes name no decimal of its own: a number it cannot take is `parameter_invalid_integer`.
  if (/^-\d+(?:\.\d+)?$/.test(text)) {
    return invalidRequest(
      'This value must be greater than or equal to 0.',
      'quantity_decimal',
      'parameter_invalid_integer',
    );
  }
  const parts = DECIMAL.exec(text);
  if (parts === null) {
    return invalidRequest(
      `Invalid decimal: ${text.slice(0, 40)}. quantity_decimal is a non-negative decimal with at most 12 decimal places.`,
      'quantity_decimal',
      'parameter_invalid_integer',
    );
  }
  const whole = String(BigInt(parts[1] as string));
  const fraction = (parts[2] ?? '').replace(/0+$/, '');
  return { decimal: fraction === '' ? whole : `${whole}.${fraction}`, units: Number(whole) };
}

/** `unit` (cents) times the decimal `quantity`, rounded half up to a whole cent (exact, in integers). */
function times(unit: number, quantity: string): number {
  const [whole = '0', fraction = ''] = quantity.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const product = BigInt(unit) * BigInt(whole + fraction);
  const sign = product < 0n ? -1n : 1n;
  const rounded = (sign * product * 2n + scale) / (2n * scale);
  return Number(sign * rounded);
}

/** `shaped` with dahlia's `quantity_decimal` (from `source`) when `dahlia`, and without it before. */
export function withQuantityDecimal(shaped: Obj, source: Obj, dahlia: boolean): Obj {
  if (!dahlia) {
    delete shaped.quantity_decimal;
    return shaped;
  }
  shaped.quantity_decimal ??= typeof source.quantity === 'number' ? String(source.quantity) : null;
  return shaped;
}

/** A unit amount sent as `unit_amount` (an integer) or `unit_amount_decimal` (a whole number of cents as text). */
function unitAmountOf(sent: Obj): number | undefined {
  if (typeof sent.unit_amount === 'number' && Number.isSafeInteger(sent.unit_amount)) return sent.unit_amount;
  const text = sent.unit_amount_decimal;
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  const value = Number(text);
  // The twin keeps whole amounts: a fraction of a cent is rounded, as an invoice rounds its total.
  return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? Math.round(value) : undefined;
}

/** The Price `sent` names (`price` or basil's `pricing[price]`), one it makes of `price_data`, or none. */
async function pricedBy(sent: Obj, kit: FlowKit): Promise<Obj | FlowError | undefined> {
  const named = typeof sent.price === 'string' ? sent.price : record(sent.pricing)?.price;
  const param = typeof sent.price === 'string' ? 'price' : 'pricing[price]';
  if (typeof named === 'string') {
    const held = await kit.find(named);
    if (held?.object !== 'price' && !kit.examples) return { ...noSuch('price', named, param), status: 400 };
    return priceOf({ price: named }, param, kit, false);
  }
  if (record(sent.price_data) !== undefined) return priceOf({ price_data: sent.price_data }, 'price_data', kit, false);
  return undefined;
}

/** A new Invoice Item's price, amounts and links from what was sent and the Prices the twin holds. */
export async function creatingInvoiceItem(item: Obj, sent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  // A unit amount (`unit_amount`, `unit_amount_decimal`) is one way of pricing, with `currency`.
  const unitGiven = sent.unit_amount !== undefined || sent.unit_amount_decimal !== undefined;
  const given = ['amount', 'price', 'price_data', 'pricing', ...(unitGiven ? ['unit_amount'] : [])].filter(
    (field) => field === 'unit_amount' || sent[field] !== undefined,
  );
  if (given.length > 1) {
    return invalidRequest(`You may only specify one of these parameters: ${given.join(', ')}.`, given[1]);
  }
  // `quantity_decimal` came with 2026-03-25.dahlia: an older version does not know it.
  if (sent.quantity_decimal !== undefined && kit.version !== undefined && kit.version.slice(0, 10) < QUANTITY_DECIMAL) {
    return invalidRequest('Received unknown parameter: quantity_decimal', 'quantity_decimal', 'parameter_unknown');
  }
  const quantity = quantityOf(sent);
  if (isFlowError(quantity)) return quantity;
  let priced = await pricedBy(sent, kit);
  if (priced !== undefined && isFlowError(priced)) return priced;
  let price: Obj;
  if (priced !== undefined) {
    price = priced;
  } else if (typeof sent.amount === 'number') {
    if (typeof sent.currency !== 'string') return missingParam('currency');
    price = oneOffPrice(sent.amount, sent.currency, kit);
  } else if (unitGiven) {
    if (typeof sent.currency !== 'string') return missingParam('currency');
    const unit = unitAmountOf(sent);
    if (unit === undefined) return invalidRequest('Invalid decimal: unit_amount_decimal', 'unit_amount_decimal');
    price = oneOffPrice(unit, sent.currency, kit);
    priced = price;
  } else if (kit.examples) {
    // stripe-mock's way, for an SDK's own generated tests (`unseen: "examples"`): the example's amounts.
    return undefined;
  } else {
    return invalidRequest(
      'You must specify either `amount`, `price`, `price_data` or `pricing` to create an invoice item.',
      'amount',
    );
  }
  const unit = typeof price.unit_amount === 'number' ? price.unit_amount : 0;
  const amount = priced === undefined ? (sent.amount as number) : times(unit, quantity.decimal);
  Object.assign(item, {
    amount,
    currency: price.currency ?? sent.currency ?? item.currency,
    discountable: typeof sent.discountable === 'boolean' ? sent.discountable : amount >= 0,
    plan: null,
    price,
    quantity: priced === undefined ? 1 : quantity.units,
    quantity_decimal: priced === undefined ? '1' : quantity.decimal,
    subscription: typeof sent.subscription === 'string' ? sent.subscription : null,
    subscription_item: null,
    unit_amount: unit,
    unit_amount_decimal: typeof price.unit_amount_decimal === 'string' ? price.unit_amount_decimal : String(unit),
  });
  // Kept in the 2024 shape: basil's members are rendered from it (invoiceItemAt).
  for (const field of ITEM_NEW) delete item[field];
  return undefined;
}

/**
 * `item` (an `invoiceitem`) in the version answered: `basil` whether it is `2025-03-31` or newer,
 * `dahlia` whether `2026-03-25` or newer (`quantity_decimal`).
 */
export function invoiceItemAt(item: Obj, basil: boolean, dahlia: boolean): Obj {
  const shaped: Obj = {};
  const gone = basil ? ITEM_GONE : ITEM_NEW;
  for (const [key, value] of Object.entries(item)) if (!gone.includes(key)) shaped[key] = value;
  withQuantityDecimal(shaped, item, dahlia);
  if (!basil || 'parent' in item) return shaped;
  const subscription = idOf(item.subscription);
  shaped.parent =
    subscription === null
      ? null
      : {
          subscription_details: {
            subscription,
            ...(idOf(item.subscription_item) === null ? {} : { subscription_item: idOf(item.subscription_item) }),
          },
          type: 'subscription_details',
        };
  const price = record(item.price);
  const priceId = idOf(item.price);
  shaped.pricing =
    priceId === null
      ? null
      : {
          price_details: { price: priceId, product: idOf(price?.product) ?? '' },
          type: 'price_details',
          unit_amount_decimal:
            typeof item.unit_amount_decimal === 'string'
              ? item.unit_amount_decimal
              : typeof item.unit_amount === 'number'
                ? String(item.unit_amount)
                : null,
        };
  return shaped;
}
