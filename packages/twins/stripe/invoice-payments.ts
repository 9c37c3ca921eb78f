/**
 * Stripe's invoice payments (API 2025-03-31.basil and newer; stripe-node's `invoicePayments`): an
 * Invoice's payment by its PaymentIntent, kept beside the Invoice whenever a flow writes one —
 * `open` while it waits, `paid` with `invoice_payment.paid` when the PaymentIntent pays it, its id
 * the invoice's (`in_X` → `inpay_X`) — and listed at `GET /v1/invoice_payments` (`invoice`,
 * `status`, `payment[payment_intent]`) and read at `GET /v1/invoice_payments/{invoice_payment}`,
 * operations the twin adds to the 2024-04-10 document. An invoice with nothing to pay has none.
 *
 * @module
 */
import type { FlowKit, ListOutcome } from '@mockpoint/core/internal';
import { record } from '../src/records.js';

export const INVOICE_PAYMENTS = '/v1/invoice_payments';
const INVOICES = '/v1/invoices';

type Obj = Record<string, unknown>;

/** An invoice's status as its payment's (`undefined`: a draft, no payment yet). */
const STATUS: Record<string, string> = { open: 'open', paid: 'paid', void: 'canceled', uncollectible: 'open' };

/** The invoice payment of `invoice` by its PaymentIntent, as Stripe answers it; `undefined`: none. */
export function invoicePaymentOf(invoice: Obj): Obj | undefined {
  const intent = invoice.payment_intent;
  // An invoice paid out of band did not use its PaymentIntent: that payment is canceled.
  const status = invoice.paid_out_of_band === true ? 'canceled' : STATUS[String(invoice.status)];
  if (typeof intent !== 'string' || status === undefined) return undefined;
  const id = String(invoice.id);
  const transitions = record(invoice.status_transitions) ?? {};
  return {
    id: `inpay_${id.startsWith('in_') ? id.slice(3) : id}`,
    object: 'invoice_payment',
    amount_paid: status === 'paid' ? invoice.amount_paid : null,
    amount_requested: invoice.amount_due,
    created: transitions.finalized_at ?? invoice.created,
    currency: invoice.currency,
    invoice: id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intent },
    status,
    status_transitions: {
      canceled_at: status === 'canceled' ? (transitions.voided_at ?? null) : null,
      paid_at: status === 'paid' ? (transitions.paid_at ?? null) : null,
    },
  };
}

/** An invoice's `payments` list (its expansion), of its one payment or none. */
export function paymentsList(payment: Obj | undefined, invoice: string): Obj {
  const data = payment === undefined ? [] : [payment];
  return {
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: `${INVOICE_PAYMENTS}?invoice=${invoice}`,
  };
}

/**
 * Writes `invoice` (`kind`, with `events`, `after` the request's own change or not) and its invoice
 * payment: made with it, moved with it, `invoice_payment.paid` when it becomes paid.
 */
export function writeInvoice(
  kind: 'created' | 'updated',
  invoice: Obj,
  events: string[],
  kit: FlowKit,
  after = true,
): void {
  kit.write({ kind, template: INVOICES, object: invoice, events, after });
  writePaymentOf(invoice, events, kit, after);
}

/** Writes the invoice payment of `invoice` (none without a PaymentIntent), `invoice_payment.paid` when `events` pay it. */
export function writePaymentOf(invoice: Obj, events: readonly string[], kit: FlowKit, after = true): void {
  const payment = invoicePaymentOf(invoice);
  if (payment === undefined) return;
  const paid = payment.status === 'paid' && events.includes('invoice.paid');
  kit.write({
    kind: 'updated',
    template: INVOICE_PAYMENTS,
    object: payment,
    events: paid ? ['invoice_payment.paid'] : [],
    after,
  });
}

/** `GET /v1/invoice_payments`'s `payment[payment_intent]` (and `payment[type]`), the other filters the plain fields'. */
export function listPayments(items: Obj[], query: Obj): ListOutcome {
  const wanted = record(query.payment);
  if (wanted === undefined) return { items, used: [] };
  const picked = items.filter((item) => {
    const payment = record(item.payment) ?? {};
    return Object.entries(wanted).every(([key, value]) => typeof value !== 'string' || payment[key] === value);
  });
  return { items: picked, used: ['payment'] };
}

/** The invoice payment's schema, as stripe 23.1.0's `InvoicePayment` type has it. */
const INVOICE_PAYMENT_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    object: { type: 'string', enum: ['invoice_payment'] },
    amount_paid: { type: 'integer', nullable: true },
    amount_requested: { type: 'integer' },
    created: { type: 'integer' },
    currency: { type: 'string' },
    invoice: { type: 'string' },
    is_default: { type: 'boolean' },
    livemode: { type: 'boolean' },
    payment: {
      type: 'object',
      properties: { type: { type: 'string', enum: ['payment_intent'] }, payment_intent: { type: 'string' } },
    },
    status: { type: 'string', enum: ['paid', 'open', 'canceled'] },
    status_transitions: {
      type: 'object',
      properties: {
        canceled_at: { type: 'integer', nullable: true },
        paid_at: { type: 'integer', nullable: true },
      },
    },
  },
};

const LIST_SCHEMA = {
  type: 'object',
  properties: {
    object: { type: 'string', enum: ['list'] },
    data: { type: 'array', items: INVOICE_PAYMENT_SCHEMA },
    has_more: { type: 'boolean' },
    url: { type: 'string' },
  },
};

const QUERY = ['invoice', 'status', 'limit', 'starting_after', 'ending_before'].map((name) => ({
  in: 'query',
  name,
  required: false,
  schema: name === 'limit' ? { type: 'integer' } : { type: 'string', maxLength: 5000 },
}));

const EXPAND = { in: 'query', name: 'expand', required: false, schema: { type: 'array', items: { type: 'string' } } };

function answer(schema: Obj): Obj {
  return { '200': { content: { 'application/json': { schema } } } };
}

/** The twin-only operations of invoice payments (the 2024-04-10 document has none; stripe-node 23's paths). */
export const invoicePaymentPaths: Record<string, Obj> = {
  [INVOICE_PAYMENTS]: {
    get: {
      operationId: 'GetInvoicePayments',
      parameters: [
        ...QUERY,
        EXPAND,
        { in: 'query', name: 'payment', required: false, schema: { type: 'object', additionalProperties: true } },
      ],
      responses: answer(LIST_SCHEMA),
    },
  },
  [`${INVOICE_PAYMENTS}/{invoice_payment}`]: {
    get: {
      operationId: 'GetInvoicePaymentsInvoicePayment',
      parameters: [{ in: 'path', name: 'invoice_payment', required: true, schema: { type: 'string' } }, EXPAND],
      responses: answer(INVOICE_PAYMENT_SCHEMA),
    },
  },
};
