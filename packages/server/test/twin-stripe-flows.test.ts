// The Stripe twin's flows beyond PaymentIntents (docs/twins.md), through stripe-node 15.0.0 (API
// 2024-04-10) against the built daemon serving the twin at the root of a port of its own, on
// LevelDB and on a real redis-server: Checkout Sessions completed through the twin's test helper,
// Subscriptions with their first invoice, Refunds, and the parameters the document requires. Every
// delivered event is checked by `stripe.webhooks.constructEvent`. Every process listens on 127.0.0.1.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';

import { monthlyPrice, stripeTwin as twinOn, stripeWebhooks as webhooks } from './helpers/stripe.js';
import { useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** A daemon with a Stripe twin on LevelDB or the file's redis-server, and a stripe-node client for it. */
async function stripeTwin(store: 'level' | 'redis'): Promise<{ stripe: Stripe; root: string }> {
  return twinOn(await twinRedis.store(store));
}

/** The twin's test helper that completes a Checkout Session, as a paying customer would. */
async function complete(root: string, id: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${root}/v1/test_helpers/checkout/sessions/${id}/complete`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_123' },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(['level', 'redis'] as const)('the Stripe twin flows through stripe-node (%s)', (store) => {
  it('opens a payment Checkout Session, completes it through the test helper, and sends its events in order', async () => {
    const { stripe, root } = await stripeTwin(store);
    const hooks = await webhooks(stripe, [
      'checkout.session.completed',
      'checkout.session.expired',
      'payment_intent.created',
      'payment_intent.succeeded',
      'charge.succeeded',
    ]);
    try {
      const product = await stripe.products.create({ name: 'T-shirt' });
      const price = await stripe.prices.create({ product: product.id, unit_amount: 2000, currency: 'usd' });
      expect([price.type, price.recurring]).toEqual(['one_time', null]);
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          { price: price.id, quantity: 2 },
          { price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Sticker' } }, quantity: 1 },
        ],
        success_url: 'https://example.com/success',
        client_reference_id: 'order-17',
        customer_email: 'buyer@example.com',
        metadata: { order: '17' },
      });
      expect(session.id).toMatch(/^cs_test_/);
      expect(session).toMatchObject({
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: 4500,
        currency: 'usd',
        payment_intent: null,
        client_reference_id: 'order-17',
      });
      expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
      const lines = await stripe.checkout.sessions.listLineItems(session.id);
      expect(lines.data.map((line) => [line.quantity, line.amount_total])).toEqual([
        [2, 4000],
        [1, 500],
      ]);

      const done = await complete(root, session.id);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ status: 'complete', payment_status: 'paid' });
      const read = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
      expect(read.payment_intent).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 4500 });
      // A session completes once.
      expect((await complete(root, session.id)).status).toBe(400);

      const left = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: 'https://example.com/success',
      });
      expect((await stripe.checkout.sessions.expire(left.id)).status).toBe('expired');
      expect((await complete(root, left.id)).status).toBe(400);

      const events = await hooks.until(5);
      // The payment's events come first (the session completes once it is paid), then the session's.
      expect(events.map((event) => event.type)).toEqual([
        'payment_intent.created',
        'payment_intent.succeeded',
        'charge.succeeded',
        'checkout.session.completed',
        'checkout.session.expired',
      ]);
      const completed = events[3]?.data.object as Stripe.Checkout.Session;
      expect(completed).toMatchObject({ id: session.id, status: 'complete', metadata: { order: '17' } });
      // What the payer gave on the page: the prefilled email, a US card's country and postal code.
      expect(completed.customer_details).toMatchObject({
        email: 'buyer@example.com',
        address: { country: 'US', postal_code: '42424' },
        tax_exempt: 'none',
      });
      expect(events[2]?.data.object).toMatchObject({
        object: 'charge',
        amount: 4500,
        payment_intent: completed.payment_intent,
      });
    } finally {
      await hooks.close();
    }
  });

  it('starts a Subscription with its first invoice paid, expands latest_invoice, and cancels it', async () => {
    const { stripe, root } = await stripeTwin(store);
    const hooks = await webhooks(stripe, [
      'customer.subscription.created',
      'customer.subscription.deleted',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    try {
      const customer = await stripe.customers.create({ email: 'sub@example.com' });
      const price = await monthlyPrice(stripe, 1500, 'Pro');
      expect([price.type, price.recurring?.interval]).toEqual(['recurring', 'month']);
      const subscription = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id, quantity: 2 }],
        // Charged to it: a customer without a payment method would leave it `incomplete`.
        default_payment_method: 'pm_card_visa',
        expand: ['latest_invoice'],
      });
      expect(subscription.id).toMatch(/^sub_/);
      expect(subscription).toMatchObject({ status: 'active', customer: customer.id });
      expect(subscription.items.data[0]).toMatchObject({ quantity: 2, price: { id: price.id } });
      const invoice = subscription.latest_invoice as Stripe.Invoice;
      expect(invoice).toMatchObject({
        object: 'invoice',
        status: 'paid',
        paid: true,
        amount_paid: 3000,
        customer: customer.id,
        subscription: subscription.id,
      });
      expect((await stripe.invoices.retrieve(invoice.id)).amount_paid).toBe(3000);

      const canceled = await stripe.subscriptions.cancel(subscription.id);
      expect(canceled).toMatchObject({ id: subscription.id, status: 'canceled' });
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');

      // A one-time price cannot start a subscription.
      const once = await stripe.prices.create({ product_data: { name: 'Once' }, unit_amount: 100, currency: 'usd' });
      const refused = await stripe.subscriptions
        .create({ customer: customer.id, items: [{ price: once.id }] })
        .catch((e) => e);
      expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);

      // A subscription Checkout Session starts one when completed.
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: 'https://example.com/success',
      });
      expect((await complete(root, session.id)).body).toMatchObject({ status: 'complete', payment_status: 'paid' });
      const started = await stripe.checkout.sessions.retrieve(session.id);
      const second = await stripe.subscriptions.retrieve(started.subscription as string, {
        expand: ['latest_invoice'],
      });
      expect(second).toMatchObject({ status: 'active', customer: customer.id });
      expect(second.latest_invoice).toMatchObject({ status: 'paid', amount_paid: 1500 });

      const events = await hooks.until(10);
      expect(events.map((event) => event.type)).toEqual([
        'customer.subscription.created',
        'invoice.created',
        'invoice.finalized',
        'invoice.paid',
        'customer.subscription.deleted',
        'customer.subscription.created',
        'invoice.created',
        'invoice.finalized',
        'invoice.paid',
        'checkout.session.completed',
      ]);
      expect(events[4]?.data.object).toMatchObject({ id: subscription.id, status: 'canceled' });
    } finally {
      await hooks.close();
    }
  });

  it('refunds a succeeded PaymentIntent in part and whole, and refuses more than is left as Stripe does', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, ['charge.refunded', 'refund.created']);
    try {
      const paid = await stripe.paymentIntents.create({
        amount: 2000,
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: true,
      });
      const charge = paid.latest_charge as string;
      expect(await stripe.charges.retrieve(charge)).toMatchObject({
        amount: 2000,
        amount_refunded: 0,
        refunded: false,
      });

      const part = await stripe.refunds.create({ payment_intent: paid.id, amount: 500 });
      expect(part.id).toMatch(/^re_/);
      expect(part).toMatchObject({ amount: 500, charge, payment_intent: paid.id, status: 'succeeded' });
      expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 500, refunded: false });

      const over = await stripe.refunds.create({ charge, amount: 1600 }).catch((e) => e);
      expect(over).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect([over.statusCode, over.code, over.param, over.message]).toEqual([
        400,
        'amount_too_large',
        'amount',
        'Refund amount ($16.00) is greater than unrefunded amount on charge ($15.00)',
      ]);

      const rest = await stripe.refunds.create({ charge });
      expect(rest.amount).toBe(1500);
      expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 2000, refunded: true });
      const again = await stripe.refunds.create({ payment_intent: paid.id }).catch((e) => e);
      expect([again.statusCode, again.code]).toEqual([400, 'charge_already_refunded']);

      const unpaid = await stripe.paymentIntents.create({ amount: 300, currency: 'usd' });
      const none = await stripe.refunds.create({ payment_intent: unpaid.id }).catch((e) => e);
      expect([none.statusCode, none.param]).toEqual([400, 'payment_intent']);

      const events = await hooks.until(4);
      expect(events.map((event) => event.type)).toEqual([
        'charge.refunded',
        'refund.created',
        'charge.refunded',
        'refund.created',
      ]);
      expect(events[0]?.data.object).toMatchObject({ object: 'charge', id: charge, amount_refunded: 500 });
      expect(events[3]?.data.object).toMatchObject({ object: 'refund', amount: 1500 });
      // Each charge.refunded names its refunds, the newest first.
      const refundsOf = (at: number) =>
        (events[at]?.data.object as { refunds?: { data: { id: string }[]; total_count: number } } | undefined)?.refunds;
      expect(refundsOf(0)?.data.map((one) => one.id)).toEqual([part.id]);
      expect([refundsOf(2)?.data.map((one) => one.id), refundsOf(2)?.total_count]).toEqual([[rest.id, part.id], 2]);
    } finally {
      await hooks.close();
    }
  });

  it("refuses a create without a parameter the document requires, as Stripe's parameter_missing", async () => {
    const { stripe } = await stripeTwin(store);
    const missing = async (made: Promise<unknown>) => {
      const error = (await made.catch((e) => e)) as Stripe.errors.StripeError;
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      return [error.statusCode, error.code, error.param, error.message];
    };
    expect(
      await missing(stripe.paymentIntents.create({ currency: 'usd' } as Stripe.PaymentIntentCreateParams)),
    ).toEqual([400, 'parameter_missing', 'amount', 'Missing required param: amount.']);
    expect(await missing(stripe.paymentIntents.create({ amount: 100 } as Stripe.PaymentIntentCreateParams))).toEqual([
      400,
      'parameter_missing',
      'currency',
      'Missing required param: currency.',
    ]);
    expect(await missing(stripe.subscriptions.create({} as Stripe.SubscriptionCreateParams))).toEqual([
      400,
      'parameter_missing',
      'customer',
      'Missing required param: customer.',
    ]);
    expect(
      await missing(
        stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ price_data: { unit_amount: 100, product_data: { name: 'x' } } as never, quantity: 1 }],
          success_url: 'https://example.com/success',
        }),
      ),
    ).toEqual([
      400,
      'parameter_missing',
      'line_items[0][price_data][currency]',
      'Missing required param: line_items[0][price_data][currency].',
    ]);
    expect(await missing(stripe.checkout.sessions.create({ success_url: 'https://example.com/success' }))).toEqual([
      400,
      'parameter_missing',
      'mode',
      'Missing required param: mode.',
    ]);
    // Nothing was kept of the refused creates.
    const kept = await stripe.paymentIntents.create({ amount: 100, currency: 'usd' });
    expect((await stripe.paymentIntents.list()).data.map((intent) => intent.id)).toEqual([kept.id]);
  });

  it("makes a payment Checkout Session without line items, as stripe-node's own example does", async () => {
    const { stripe } = await stripeTwin(store);
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://example.com/success',
      shipping_options: [{ shipping_rate: 'shr_standard' }],
    });
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', amount_total: 0 });
  });
});
