/**
 * Stripe's Prices for billing: a Price's `recurring` as Stripe fills it, a new Price one-time or
 * recurring, and the Price a line item names (`price`, or `price_data` inline) as the twin holds
 * it; a create's `items` each with its price.
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { isFlowError, missingParam } from './errors.js';
import { PRICES } from './paths.js';

type Obj = Record<string, unknown>;

/** A Price's `recurring` as Stripe fills it (`null` for a one-time price). */
export function recurringOf(sent: unknown): Obj | null {
  const given = record(sent);
  if (given === undefined || typeof given.interval !== 'string') return null;
  return {
    aggregate_usage: null,
    interval: given.interval,
    interval_count: typeof given.interval_count === 'number' ? given.interval_count : 1,
    meter: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

/** A new Price: one-time or recurring by what was sent. */
export function createdPrice(price: Obj, sent: Obj, kit: FlowKit): void {
  price.recurring = recurringOf(sent.recurring);
  price.type = price.recurring === null ? 'one_time' : 'recurring';
  price.active = sent.active !== false;
  if (typeof sent.product !== 'string') price.product = kit.newId('prod_');
}

/**
 * The Price a line item names (`price`, or `price_data` inline), as the twin
 * holds it; an id the twin never saw is the document's example price with that
 * id (as stripe-mock answers one), recurring monthly where `recurring` is wanted.
 */
export async function priceOf(item: Obj, at: string, kit: FlowKit, recurring: boolean): Promise<Obj | FlowError> {
  if (typeof item.price === 'string') {
    const found = await kit.find(item.price);
    if (found !== undefined && found.object === 'price') return found;
    const example = kit.example(PRICES);
    example.id = item.price;
    if (recurring && recurringOf(example.recurring) === null) {
      example.recurring = recurringOf({ interval: 'month' });
      example.type = 'recurring';
    }
    return example;
  }
  const data = record(item.price_data);
  if (data === undefined) return missingParam(`${at}[price]`);
  const price = kit.example(PRICES);
  Object.assign(price, {
    id: kit.newId('price_'),
    object: 'price',
    currency: data.currency,
    unit_amount:
      typeof data.unit_amount === 'number'
        ? data.unit_amount
        : Number.isFinite(Number(data.unit_amount_decimal))
          ? Math.round(Number(data.unit_amount_decimal))
          : 0,
    product: typeof data.product === 'string' ? data.product : kit.newId('prod_'),
  });
  createdPrice(price, { recurring: data.recurring }, kit);
  return price;
}

/** The items of a create (`items[][price]`, `items[][price_data]`, `quantity`), each price recurring. */
export async function itemsOf(
  sent: unknown,
  param: string,
  kit: FlowKit,
): Promise<{ price: Obj; quantity: number }[] | FlowError> {
  const given = Array.isArray(sent) ? sent.slice(0, 20) : [];
  if (given.length === 0) return missingParam(param);
  const items: { price: Obj; quantity: number }[] = [];
  for (const [index, raw] of given.entries()) {
    const item = record(raw) ?? {};
    const price = await priceOf(item, `${param}[${index}]`, kit, true);
    if (isFlowError(price)) return price;
    items.push({ price, quantity: typeof item.quantity === 'number' ? item.quantity : 1 });
  }
  return items;
}
