/**
 * A customer's invoicing as Stripe keeps it: an `invoice_prefix` of its own (sent, or 8 letters
 * and digits), `next_invoice_sequence` starting at 1 and moved by each invoice it numbers
 * (`PREFIX-0001`, `PREFIX-0002`, …), and `delinquent`, `true` after an automatic payment failed
 * and `false` again once an invoice is paid. The customers one request reads are held for it
 * (its "book", by the kit's `write`, which a clock's kit shares) so that several invoices of one
 * request take one number after the other.
 *
 * @module
 */
import type { FlowKit } from '@mockpoint/core/internal';

type Obj = Record<string, unknown>;

const CUSTOMERS = '/v1/customers';
const PREFIX = /^[0-9A-Z]{3,12}$/;

/** The customers a request has read, by the kit's `write` (one per request). */
const BOOKS = new WeakMap<object, Map<string, Obj>>();

function bookOf(kit: FlowKit): Map<string, Obj> {
  let book = BOOKS.get(kit.write);
  if (book === undefined) {
    book = new Map();
    BOOKS.set(kit.write, book);
  }
  return book;
}

/** A new customer's invoicing: its prefix (the one sent, else a new one), sequence 1, not delinquent. */
export function createdCustomer(customer: Obj, sent: Obj, kit: FlowKit): void {
  const given = typeof sent.invoice_prefix === 'string' && PREFIX.test(sent.invoice_prefix) ? sent.invoice_prefix : '';
  customer.invoice_prefix =
    given ||
    kit
      .newId('')
      .replace(/[^0-9a-z]/gi, '')
      .slice(-8)
      .toUpperCase();
  customer.next_invoice_sequence = 1;
  customer.delinquent = false;
}

/** Reads `customer` into the request's book, before its invoices are numbered. */
export async function openBook(customer: unknown, kit: FlowKit): Promise<void> {
  const book = bookOf(kit);
  if (typeof customer !== 'string' || book.has(customer)) return;
  const found = await kit.find(customer);
  if (found?.object === 'customer' && typeof found.invoice_prefix === 'string') book.set(customer, { ...found });
}

/**
 * The next number of `customer`'s invoices (`PREFIX-0001`), its sequence moved on and the customer
 * written (no event); `undefined` for a customer not in the request's book.
 */
export function nextNumber(customer: unknown, kit: FlowKit): string | undefined {
  const held = typeof customer === 'string' ? bookOf(kit).get(customer) : undefined;
  if (held === undefined) return undefined;
  const sequence = Number(held.next_invoice_sequence) || 1;
  held.next_invoice_sequence = sequence + 1;
  kit.write({ kind: 'updated', template: CUSTOMERS, object: { ...held }, events: [], after: true });
  return `${String(held.invoice_prefix)}-${String(sequence).padStart(4, '0')}`;
}

/** Marks `customer` delinquent (an automatic payment failed) or not (an invoice paid): `customer.updated` when it changes. */
export function delinquent(customer: unknown, now: boolean, kit: FlowKit): void {
  const held = typeof customer === 'string' ? bookOf(kit).get(customer) : undefined;
  if (held === undefined || held.delinquent === now) return;
  held.delinquent = now;
  kit.write({ kind: 'updated', template: CUSTOMERS, object: { ...held }, after: true });
}
