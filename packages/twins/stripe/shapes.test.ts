import { describe, expect, it } from 'vitest';
import { billingModeMade, eventAt, renderStripe, rendersStripe } from './shapes.js';

/** A subscription and its invoice as the twin keeps them (the 2024-04-10 shape). */
const subscription = {
  id: 'sub_1',
  object: 'subscription',
  current_period_start: 100,
  current_period_end: 200,
  items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item' }] },
  latest_invoice: {
    id: 'in_1',
    object: 'invoice',
    status: 'paid',
    amount_due: 500,
    amount_paid: 500,
    currency: 'usd',
    paid: true,
    payment_intent: 'pi_1',
    charge: 'ch_1',
    subscription: 'sub_1',
    subscription_details: { metadata: { plan: 'pro' } },
    status_transitions: { finalized_at: 90, paid_at: 95 },
  },
};

describe("Stripe's objects by API version", () => {
  it('moves the period to the items, the subscription to parent, the payment to invoice payments at basil', () => {
    const shaped = renderStripe(subscription, '2025-03-31.basil', ['latest_invoice.payments']) as typeof subscription;
    expect(shaped).not.toHaveProperty('current_period_end');
    expect(shaped).not.toHaveProperty('billing_mode');
    expect(shaped.items.data[0]).toMatchObject({ current_period_start: 100, current_period_end: 200 });
    const invoice = shaped.latest_invoice as Record<string, unknown>;
    expect(invoice.parent).toEqual({
      type: 'subscription_details',
      subscription_details: { metadata: { plan: 'pro' }, subscription: 'sub_1' },
      quote_details: null,
    });
    for (const gone of ['paid', 'payment_intent', 'charge', 'subscription', 'subscription_details']) {
      expect(invoice).not.toHaveProperty(gone);
    }
    expect(invoice.payments).toMatchObject({
      data: [{ id: 'inpay_1', invoice: 'in_1', status: 'paid', amount_paid: 500, payment: { payment_intent: 'pi_1' } }],
    });
    // The kept object is left as it was.
    expect(subscription.latest_invoice.subscription).toBe('sub_1');
  });

  it('keeps the old shape before basil, and billing_mode from 2025-06-30 (flexible by default from clover)', () => {
    expect(renderStripe(subscription, '2024-06-20')).toEqual(subscription);
    expect(renderStripe(subscription, '2025-06-30.basil')).toMatchObject({
      billing_mode: { type: 'classic', flexible: null },
    });
    expect(billingModeMade(undefined, '2025-08-27.basil')).toEqual({ type: 'classic', flexible: null });
    expect(billingModeMade(undefined, '2025-09-30.clover')).toEqual({
      type: 'flexible',
      flexible: { proration_discounts: 'included' },
    });
    expect(billingModeMade({ type: 'classic' }, '2026-10-28.endive')).toEqual({ type: 'classic', flexible: null });
  });

  it("answers an invoice item's line with invoice_item_details and pricing at basil, as kept before", () => {
    const line = {
      id: 'il_1',
      object: 'line_item',
      amount: 2000,
      invoice_item: 'ii_1',
      price: { id: 'price_1', object: 'price', product: 'prod_1', unit_amount: 2000, unit_amount_decimal: '2000' },
      proration: false,
      subscription: null,
      tax_amounts: [{ amount: 100, inclusive: false, tax_rate: 'txr_1', taxable_amount: 2000 }],
      type: 'invoiceitem',
    };
    const invoice = { id: 'in_1', object: 'invoice', lines: { object: 'list', data: [line] } };
    const shaped = renderStripe(invoice, '2025-03-31.basil') as { lines: { data: Record<string, unknown>[] } };
    expect(shaped.lines.data[0]).toEqual({
      id: 'il_1',
      object: 'line_item',
      amount: 2000,
      parent: {
        type: 'invoice_item_details',
        invoice_item_details: {
          invoice_item: 'ii_1',
          proration: false,
          proration_details: { credited_items: null },
          subscription: null,
        },
        subscription_item_details: null,
      },
      pretax_credit_amounts: [],
      pricing: {
        type: 'price_details',
        price_details: { price: 'price_1', product: 'prod_1' },
        unit_amount_decimal: '2000',
      },
      subscription: null,
      subtotal: 2000,
      taxes: [
        {
          amount: 100,
          tax_behavior: 'exclusive',
          tax_rate_details: { tax_rate: 'txr_1' },
          taxability_reason: 'standard_rated',
          taxable_amount: 2000,
          type: 'tax_rate_details',
        },
      ],
    });
    expect(renderStripe(invoice, '2025-02-24.acacia')).toEqual(invoice);
    expect(rendersStripe(JSON.stringify({ object: 'list', data: [line] }))).toBe(true);
  });

  it("renders an event's object and previous_attributes in the version asked for", () => {
    const event = {
      object: 'event',
      api_version: '2026-10-28.endive',
      data: { object: subscription, previous_attributes: { current_period_end: 100, status: 'incomplete' } },
    };
    const old = eventAt(event, '2024-06-20');
    expect(old.api_version).toBe('2024-06-20');
    expect(old.data).toEqual({ object: subscription, previous_attributes: event.data.previous_attributes });
    // A listed event in its own version, whatever the request's.
    const listed = renderStripe({ object: 'list', data: [event] }, '2024-04-10') as { data: (typeof event)[] };
    expect(listed.data[0]?.data.object).not.toHaveProperty('current_period_end');
    expect(listed.data[0]?.data.previous_attributes).toEqual({ status: 'incomplete' });
  });

  it('tells from the text alone which answers hold an object it renders', () => {
    expect(rendersStripe(JSON.stringify(subscription))).toBe(true);
    expect(
      rendersStripe(JSON.stringify({ id: 'pi_1', object: 'payment_intent', invoice: subscription.latest_invoice })),
    ).toBe(true);
    expect(rendersStripe(JSON.stringify({ object: 'list', data: [{ id: 'evt_1', object: 'event' }] }))).toBe(true);
    // A list of customers is answered as written, not parsed again (its `description` may say "invoice").
    const customers = { object: 'list', data: [{ id: 'cus_1', object: 'customer', description: '"object":"invoice' }] };
    expect(rendersStripe(JSON.stringify(customers))).toBe(false);
  });

  it("leaves out a Checkout Session's line_items unless expand[] names them, and from every event", () => {
    const session = { id: 'cs_1', object: 'checkout.session', line_items: { object: 'list', data: [] } };
    expect(renderStripe(session, '2024-04-10')).not.toHaveProperty('line_items');
    expect(renderStripe(session, '2026-10-28.endive', ['line_items'])).toHaveProperty('line_items');
    const listed = renderStripe({ object: 'list', data: [session] }, '2024-04-10', ['data.line_items']) as {
      data: Record<string, unknown>[];
    };
    expect(listed.data[0]).toHaveProperty('line_items');
    const event = { id: 'evt_1', object: 'event', api_version: '2024-04-10', data: { object: session } };
    expect((eventAt(event, '2024-04-10').data as { object: object }).object).not.toHaveProperty('line_items');
    expect(rendersStripe(JSON.stringify(session))).toBe(true);
  });
});
