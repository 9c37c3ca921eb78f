/**
 * Payment Links (`POST /v1/payment_links`): each line item's `price` one the twin holds (an id it
 * never made is `404 resource_missing`, as Stripe answers; with `unseen: "examples"` the
 * document's example price, as stripe-mock answers), `active` unless `active=false` is sent
 * (flows.ts), a `url` of Stripe's form, its `line_items` a list as Stripe answers them when
 * expanded (shapes.ts).
 *
 * @module
 */

import type { FlowError, FlowKit } from '@mockpoint/core/internal';
import { lineItem } from './checkout.js';
import { isFlowError, missingParam, noSuch } from './errors.js';
import { priceOf } from './prices.js';

export const PAYMENT_LINKS = '/v1/payment_links';

type Obj = Record<string, unknown>;

/** A new payment link of the prices the twin holds. */
export async function creatingLink(link: Obj, sent: Obj, kit: FlowKit): Promise<FlowError | undefined> {
  const given = Array.isArray(sent.line_items) ? sent.line_items.slice(0, 20) : [];
  if (given.length === 0) return missingParam('line_items');
  const data: Obj[] = [];
  for (const [index, raw] of given.entries()) {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Obj;
    const at = `line_items[${index}][price]`;
    if (typeof item.price !== 'string') return missingParam(at);
    const held = await kit.find(item.price);
    if (held?.object !== 'price' && !kit.examples) return { ...noSuch('price', item.price, at), status: 400 };
    const price = await priceOf(item, at, kit, false);
    if (isFlowError(price)) return price;
    data.push(lineItem(price, item.quantity, kit));
  }
  const id = String(link.id);
  link.currency = data[0]?.currency ?? link.currency;
  link.line_items = { object: 'list', data, has_more: false, url: `${PAYMENT_LINKS}/${id}/line_items` };
  link.url = `https://buy.stripe.com/test_${kit.newId('').slice(0, 14)}`;
  return undefined;
}
