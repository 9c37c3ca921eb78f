// The Stripe twin's object shapes by API version (docs/twins.md, "API versions"; #72) against the
// built daemon: stripe-node 23.1.0 (2026-10-28.endive) reads a subscription item's
// `current_period_end`, an invoice's `parent` and its invoice payments (`invoicePayments.list`,
// `expand: ['latest_invoice.payments']`, `invoice_payment.paid`); the same objects asked for at
// 2024-06-20 (and by stripe-node 15) keep the old shape; a webhook endpoint made at 2024-06-20 is
// sent the old shape while one at the newest is sent the new, each verified by constructEvent; a
// customer's payment methods are listed and read at `/v1/customers/{customer}/payment_methods`.
// Every process listens on 127.0.0.1.
import Stripe15 from 'stripe';
import Stripe23 from 'stripe-23';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { aMonthOn } from './helpers/stripe.js';
import { hookReceiver, twinDaemon } from './helpers/twin.js';

useDaemons();

/** A daemon with a Stripe twin and stripe-node 23 clients of it: at its pin, at 2024-06-20, and stripe-node 15. */
async function twins(store: 'memory' | 'level' = 'memory') {
  const { port } = await twinDaemon('stripe', store);
  const options = { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 } as const;
  return {
    options,
    today: new Stripe23('sk_test_123', options),
    older: new Stripe23('sk_test_123', { ...options, apiVersion: '2024-06-20' as Stripe23.LatestApiVersion }),
    oldest: new Stripe15('sk_test_123', options),
  };
}

/** A customer with `pm_card_visa` as its default and a monthly subscription of 1500 paid at once. */
async function subscribed(stripe: Stripe23) {
  const customer = await stripe.customers.create({ email: 'shapes@example.com' });
  const method = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: method.id } });
  const price = await stripe.prices.create({
    product_data: { name: 'Pro' },
    unit_amount: 1500,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    metadata: { plan: 'pro' },
    expand: ['latest_invoice.payments'],
  });
  return { customer, method, subscription };
}

describe('Stripe object shapes by API version', () => {
  it.each(['memory', 'level'] as const)(
    'answers stripe-node 23 in basil shapes: item periods, invoice.parent, billing_mode, invoice payments (%s)',
    async (store) => {
      const { today } = await twins(store);
      const { subscription } = await subscribed(today);
      expect(subscription.status).toBe('active');
      const item = subscription.items.data[0] as Stripe23.SubscriptionItem;
      expect(item.current_period_end).toBe(aMonthOn(item.current_period_start));
      expect(subscription).not.toHaveProperty('current_period_end');
      // Made at stripe-node 23's pin (clover and newer): flexible unless classic is sent.
      expect(subscription.billing_mode).toEqual({ flexible: { proration_discounts: 'included' }, type: 'flexible' });

      const invoice = subscription.latest_invoice as Stripe23.Invoice;
      expect(invoice.parent).toEqual({
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: { plan: 'pro' } },
        quote_details: null,
      });
      for (const gone of ['subscription', 'subscription_details', 'payment_intent', 'charge', 'paid']) {
        expect(invoice).not.toHaveProperty(gone);
      }
      const payment = invoice.payments?.data[0] as Stripe23.InvoicePayment;
      expect(payment).toMatchObject({
        object: 'invoice_payment',
        amount_paid: 1500,
        amount_requested: 1500,
        currency: 'usd',
        invoice: invoice.id,
        is_default: true,
        status: 'paid',
        payment: { type: 'payment_intent' },
      });
      expect(payment.id).toMatch(/^inpay_/);
      expect(payment.status_transitions.paid_at).toBe(invoice.status_transitions.paid_at);
      // Not expanded: no `payments`, as Stripe includes them only when asked.
      expect(await today.invoices.retrieve(invoice.id)).not.toHaveProperty('payments');

      const listed = await today.invoicePayments.list({ invoice: invoice.id });
      expect(listed.data.map((one) => one.id)).toEqual([payment.id]);
      const intent = payment.payment.payment_intent as string;
      const byIntent = await today.invoicePayments.list({
        payment: { type: 'payment_intent', payment_intent: intent },
      });
      expect(byIntent.data.map((one) => one.id)).toEqual([payment.id]);
      expect((await today.invoicePayments.list({ status: 'open' })).data).toEqual([]);
      expect(await today.invoicePayments.retrieve(payment.id)).toEqual(payment);
      // An invoice expand[] adds to an answer that held none is shaped too (it kept 2024-04-10's).
      const withInvoice = await today.invoicePayments.retrieve(payment.id, { expand: ['invoice'] });
      expect(withInvoice.invoice).toMatchObject({ id: invoice.id, parent: invoice.parent });
      expect(withInvoice.invoice).not.toHaveProperty('subscription');
      const missing = await today.invoicePayments.retrieve('inpay_nothing').catch((error: unknown) => error);
      expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });
      const paidEvents = await today.events.list({ type: 'invoice_payment.paid' });
      expect(paidEvents.data.map((event) => (event.data.object as { id: string }).id)).toEqual([payment.id]);
    },
  );

  it('answers the same objects at 2024-06-20 and to stripe-node 15 in the old shapes', async () => {
    const { today, older, oldest } = await twins();
    const { subscription } = await subscribed(today);
    for (const stripe of [older, oldest] as unknown as Stripe15[]) {
      const old = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
      const item = old.items.data[0] as Stripe15.SubscriptionItem;
      expect(old.current_period_end).toBe(aMonthOn(old.current_period_start));
      expect(item).not.toHaveProperty('current_period_end');
      expect(old).not.toHaveProperty('billing_mode');
      const invoice = old.latest_invoice as Stripe15.Invoice;
      expect(invoice).toMatchObject({ subscription: subscription.id, paid: true, status: 'paid' });
      expect(invoice.payment_intent).toMatch(/^pi_/);
      expect(invoice).not.toHaveProperty('parent');
    }
    // A flexible billing mode asked for is answered as it was asked.
    const customer = await today.customers.create({ email: 'flexible@example.com' });
    const flexible = await today.subscriptions.create({
      customer: customer.id,
      items: [{ price: (subscription.items.data[0] as Stripe23.SubscriptionItem).price.id }],
      billing_mode: { type: 'flexible' },
      default_payment_method: 'pm_card_visa',
    });
    expect(flexible.billing_mode).toMatchObject({ type: 'flexible', flexible: { proration_discounts: 'included' } });
  });

  it('makes a subscription flexible by default from 2025-09-30.clover, classic before, and keeps it', async () => {
    const { today, options } = await twins();
    const { subscription } = await subscribed(today);
    const price = (subscription.items.data[0] as Stripe23.SubscriptionItem).price.id;
    const at = (apiVersion: string) =>
      new Stripe23('sk_test_123', { ...options, apiVersion: apiVersion as Stripe23.LatestApiVersion });
    const made = async (stripe: Stripe23, extra: Partial<Stripe23.SubscriptionCreateParams> = {}) =>
      stripe.subscriptions.create({
        customer: subscription.customer as string,
        items: [{ price }],
        default_payment_method: 'pm_card_visa',
        ...extra,
      });
    const basil = await made(at('2025-08-27.basil'));
    expect(basil.billing_mode).toEqual({ flexible: null, type: 'classic' });
    const clover = await made(at('2025-09-30.clover'));
    expect(clover.billing_mode).toEqual({ flexible: { proration_discounts: 'included' }, type: 'flexible' });
    const classic = await made(today, { billing_mode: { type: 'classic' } });
    expect(classic.billing_mode).toEqual({ flexible: null, type: 'classic' });
    // Kept as made: the basil subscription read at the newest version is still classic, the clover one
    // read at 2025-08-27 still flexible.
    expect((await today.subscriptions.retrieve(basil.id)).billing_mode.type).toBe('classic');
    expect((await at('2025-08-27.basil').subscriptions.retrieve(clover.id)).billing_mode.type).toBe('flexible');
  });

  it("refuses prices of two currencies, and of two intervals (classic: Stripe's words; flexible: the twin's)", async () => {
    const { today, options } = await twins();
    const { subscription } = await subscribed(today);
    const monthly = (subscription.items.data[0] as Stripe23.SubscriptionItem).price.id;
    const price = (extra: Partial<Stripe23.PriceCreateParams>) =>
      today.prices.create({
        product_data: { name: 'Add-on' },
        unit_amount: 500,
        currency: 'usd',
        recurring: { interval: 'month' },
        ...extra,
      });
    const yearly = (await price({ recurring: { interval: 'year' } })).id;
    const euros = (await price({ currency: 'eur' })).id;
    const basil = new Stripe23('sk_test_123', {
      ...options,
      apiVersion: '2025-08-27.basil' as Stripe23.LatestApiVersion,
    });
    const refused = (stripe: Stripe23, items: string[], extra: Partial<Stripe23.SubscriptionCreateParams> = {}) =>
      stripe.subscriptions
        .create({
          customer: subscription.customer as string,
          items: items.map((one) => ({ price: one })),
          default_payment_method: 'pm_card_visa',
          ...extra,
        })
        .catch((error: unknown) => error);
    expect(await refused(basil, [monthly, yearly])).toMatchObject({
      statusCode: 400,
      param: 'items',
      message:
        'Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.',
    });
    expect(await refused(today, [monthly, euros])).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('Found mismatch in currency field.'),
    });
    // Flexible (today's default) takes mixed intervals on Stripe; the twin says it does not model them.
    expect(await refused(today, [monthly, yearly])).toMatchObject({
      statusCode: 400,
      param: 'items',
      message: expect.stringContaining('does not model a flexible subscription of mixed intervals'),
    });
    // An update that adds a price of another interval, too; nothing changed.
    const adding = await today.subscriptions
      .update(subscription.id, { items: [{ price: yearly }] })
      .catch((error: unknown) => error);
    expect(adding).toMatchObject({ statusCode: 400, param: 'items' });
    expect((await today.subscriptions.retrieve(subscription.id)).items.data).toHaveLength(1);
    // A Checkout Session of a subscription, too.
    const session = await today.checkout.sessions
      .create({
        mode: 'subscription',
        line_items: [
          { price: monthly, quantity: 1 },
          { price: yearly, quantity: 1 },
        ],
        success_url: 'https://example.com/done',
      })
      .catch((error: unknown) => error);
    expect(session).toMatchObject({ statusCode: 400, param: 'line_items' });
  });

  it("makes a Checkout Session's subscription in subscription_data[billing_mode], else its version's default when made", async () => {
    const { options, today } = await twins();
    const at = (apiVersion: string) =>
      new Stripe23('sk_test_123', { ...options, apiVersion: apiVersion as Stripe23.LatestApiVersion });
    const customer = await today.customers.create({ email: 'mode@example.com' });
    const price = await today.prices.create({
      product_data: { name: 'Plan' },
      unit_amount: 900,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    /** A subscription session made by `stripe`, completed by the twin's test helper, its subscription read at the newest. */
    const completed = async (stripe: Stripe23, extra: Partial<Stripe23.Checkout.SessionCreateParams> = {}) => {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        success_url: 'https://example.com/done',
        line_items: [{ price: price.id, quantity: 1 }],
        ...extra,
      });
      // The kept mode is the twin's own: no answer carries it.
      expect(JSON.stringify(session)).not.toContain('twin_');
      const done = await fetch(
        `http://127.0.0.1:${options.port}/v1/test_helpers/checkout/sessions/${session.id}/complete`,
        { method: 'POST', headers: { authorization: 'Bearer sk_test_123' } },
      );
      const body = (await done.json()) as { subscription: string };
      expect(JSON.stringify(body)).not.toContain('twin_');
      return today.subscriptions.retrieve(body.subscription);
    };
    const classic = await completed(at('2025-09-30.clover'), {
      subscription_data: { billing_mode: { type: 'classic' } },
    });
    expect(classic.billing_mode.type).toBe('classic');
    // Made at basil, completed through a helper that names no version (the newest): classic, as made.
    expect((await completed(at('2025-08-27.basil'))).billing_mode.type).toBe('classic');
    expect((await completed(today)).billing_mode).toEqual({
      flexible: { proration_discounts: 'included' },
      type: 'flexible',
    });
  });

  it("answers an invoice's line items with parent and pricing from basil, the old shape to stripe-node 15", async () => {
    const { today, oldest } = await twins();
    const { subscription } = await subscribed(today);
    const item = subscription.items.data[0] as Stripe23.SubscriptionItem;
    const invoice = subscription.latest_invoice as Stripe23.Invoice;
    const lines = await today.invoices.listLineItems(invoice.id);
    expect(lines.data).toHaveLength(1);
    const line = lines.data[0] as Stripe23.InvoiceLineItem;
    expect(line).toMatchObject({
      object: 'line_item',
      amount: 1500,
      invoice: invoice.id,
      parent: {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          subscription: subscription.id,
          subscription_item: item.id,
          proration: false,
          invoice_item: null,
        },
      },
      pricing: {
        type: 'price_details',
        price_details: { price: item.price.id, product: item.price.product as string },
      },
      taxes: [],
      subtotal: 1500,
    });
    // stripe-node 23 reads the decimal string as its Decimal.
    expect(String(line.pricing?.unit_amount_decimal)).toBe('1500');
    for (const gone of ['price', 'type', 'proration', 'subscription_item', 'plan']) {
      expect(line).not.toHaveProperty(gone);
    }
    // The same line inside the invoice, and to stripe-node 15 (2024-04-10) in the old shape.
    expect(invoice.lines.data[0]).toMatchObject({ id: line.id, parent: line.parent, taxes: [] });
    expect(invoice.lines.data[0]).not.toHaveProperty('price');
    const old = (await oldest.invoices.listLineItems(invoice.id)).data[0] as Stripe15.InvoiceLineItem;
    expect(old).toMatchObject({
      id: line.id,
      type: 'subscription',
      subscription: subscription.id,
      subscription_item: item.id,
      proration: false,
      price: { id: item.price.id, unit_amount: 1500 },
    });
    for (const added of ['parent', 'pricing', 'taxes']) expect(old).not.toHaveProperty(added);
  });

  it('sends each webhook endpoint the shapes of its own api_version, checked by constructEvent', async () => {
    const { today } = await twins();
    const newest = await hookReceiver();
    const pinned = await hookReceiver();
    try {
      const enabled_events: Stripe23.WebhookEndpointCreateParams.EnabledEvent[] = [
        'customer.subscription.created',
        'invoice.paid',
        'invoice_payment.paid',
      ];
      const a = await today.webhookEndpoints.create({ url: newest.url, enabled_events });
      const b = await today.webhookEndpoints.create({ url: pinned.url, enabled_events, api_version: '2024-06-20' });
      const { subscription } = await subscribed(today);
      // The newest takes invoice_payment.paid too; 2024-06-20 has no invoice payments.
      await Promise.all([newest.until(3), pinned.until(2)]);
      const events = (receiver: typeof newest, secret: string) =>
        new Map(
          receiver.received.map(({ body, headers }) => {
            const event = today.webhooks.constructEvent(body, String(headers['stripe-signature']), secret);
            return [event.type, event] as const;
          }),
        );
      const now = events(newest, a.secret as string);
      const then = events(pinned, b.secret as string);
      expect([...now.keys()].sort()).toEqual(['customer.subscription.created', 'invoice.paid', 'invoice_payment.paid']);
      expect([...then.keys()].sort()).toEqual(['customer.subscription.created', 'invoice.paid']);

      const made = now.get('customer.subscription.created')?.data.object as Stripe23.Subscription;
      expect(now.get('customer.subscription.created')?.api_version).toBe('2026-10-28.endive');
      expect(made.items.data[0]?.current_period_end).toBeTypeOf('number');
      expect(made).not.toHaveProperty('current_period_end');
      const old = then.get('customer.subscription.created')?.data.object as unknown as Stripe15.Subscription;
      expect(then.get('customer.subscription.created')?.api_version).toBe('2024-06-20');
      expect(old.current_period_end).toBeTypeOf('number');
      expect(old.items.data[0]).not.toHaveProperty('current_period_end');

      const paid = now.get('invoice.paid')?.data.object as Stripe23.Invoice;
      expect(paid.parent?.subscription_details?.subscription).toBe(subscription.id);
      expect(paid).not.toHaveProperty('subscription');
      const paidThen = then.get('invoice.paid')?.data.object as unknown as Stripe15.Invoice;
      expect(paidThen).toMatchObject({ subscription: subscription.id, paid: true });
      expect(paidThen).not.toHaveProperty('parent');
      expect(now.get('invoice_payment.paid')?.data.object).toMatchObject({ invoice: paid.id, status: 'paid' });
    } finally {
      await Promise.all([newest.close(), pinned.close()]);
    }
  });

  it("lists and reads a customer's attached payment methods at /v1/customers/{customer}/payment_methods", async () => {
    const { today } = await twins();
    const customer = await today.customers.create({ email: 'methods@example.com' });
    const other = await today.customers.create({ email: 'other@example.com' });
    const made: string[] = [];
    for (const test of ['pm_card_visa', 'pm_card_mastercard', 'pm_card_amex']) {
      made.push((await today.paymentMethods.attach(test, { customer: customer.id })).id);
    }
    const elsewhere = await today.paymentMethods.attach('pm_card_visa', { customer: other.id });
    const listed = await today.customers.listPaymentMethods(customer.id);
    expect(listed.object).toBe('list');
    expect(listed.url).toBe(`/v1/customers/${customer.id}/payment_methods`);
    // Newest first, as Stripe lists.
    expect(listed.data.map((one) => one.id)).toEqual([...made].reverse());
    expect((await today.customers.listPaymentMethods(customer.id, { type: 'card' })).data).toHaveLength(3);
    expect((await today.customers.listPaymentMethods(customer.id, { type: 'sepa_debit' })).data).toEqual([]);
    const first = await today.customers.listPaymentMethods(customer.id, { limit: 2 });
    expect(first.has_more).toBe(true);
    const next = await today.customers.listPaymentMethods(customer.id, {
      limit: 2,
      starting_after: first.data[1]?.id as string,
    });
    expect(next.data.map((one) => one.id)).toEqual([made[0]]);
    const back = await today.customers.listPaymentMethods(customer.id, { ending_before: made[0] as string });
    expect(back.data.map((one) => one.id)).toEqual([made[2], made[1]]);

    const read = await today.customers.retrievePaymentMethod(customer.id, made[1] as string);
    expect(read).toMatchObject({ id: made[1], customer: customer.id, object: 'payment_method' });
    const refused = await today.customers
      .retrievePaymentMethod(customer.id, elsewhere.id)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    // Of a customer never made: Stripe's 404 (it listed nothing).
    const nobody = await today.customers.listPaymentMethods('cus_doesnotexist123').catch((error: unknown) => error);
    expect(nobody).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: expect.stringContaining('customer'),
    });
  });

  it('prices invoice items as Stripe does, with parent and pricing from basil, the old shape to stripe-node 15', async () => {
    const { today, oldest, options } = await twins();
    const customer = await today.customers.create({ email: 'items@example.com' });
    const price = await today.prices.create({ product_data: { name: 'Seat' }, unit_amount: 700, currency: 'usd' });
    // basil's way: `pricing[price]`; the amount is the unit amount times the quantity.
    const item = await today.invoiceItems.create({ customer: customer.id, pricing: { price: price.id }, quantity: 3 });
    expect(item).toMatchObject({
      object: 'invoiceitem',
      amount: 2100,
      currency: 'usd',
      quantity: 3,
      discountable: true,
      parent: null,
      pricing: { type: 'price_details', price_details: { price: price.id, product: price.product } },
    });
    // stripe-node 23 reads a decimal string as its Decimal.
    expect(String(item.pricing?.unit_amount_decimal)).toBe('700');
    for (const gone of ['price', 'plan', 'subscription', 'subscription_item', 'unit_amount', 'unit_amount_decimal']) {
      expect(item).not.toHaveProperty(gone);
    }
    // The same item to stripe-node 15 (2024-04-10): the Price object, its unit amount, no parent.
    const old = await oldest.invoiceItems.retrieve(item.id);
    expect(old).toMatchObject({ amount: 2100, quantity: 3, unit_amount: 700, unit_amount_decimal: '700' });
    expect(old.price).toMatchObject({ id: price.id, object: 'price', unit_amount: 700 });
    expect([old.subscription, old.subscription_item, old.plan]).toEqual([null, null, null]);
    expect(old).not.toHaveProperty('pricing');
    expect(old).not.toHaveProperty('parent');
    // An amount: a one-off price of it; a negative one is not discountable.
    const credit = await oldest.invoiceItems.create({ customer: customer.id, amount: -500, currency: 'usd' });
    expect(credit).toMatchObject({ amount: -500, quantity: 1, unit_amount: -500, discountable: false });
    expect(credit.price).toMatchObject({ object: 'price', type: 'one_time', unit_amount: -500, currency: 'usd' });
    // A unit amount with a currency (stripe 23's `unit_amount_decimal`): times the quantity.
    const decimal = await today.invoiceItems.create({
      customer: customer.id,
      currency: 'usd',
      unit_amount_decimal: Stripe23.Decimal.from('250'),
      quantity: 4,
    });
    expect([decimal.amount, decimal.quantity, String(decimal.pricing?.unit_amount_decimal)]).toEqual([1000, 4, '250']);
    // `price_data` by its decimal unit amount.
    const data = await oldest.invoiceItems.create({
      customer: customer.id,
      price_data: { currency: 'usd', product: String(price.product), unit_amount_decimal: '300' },
      quantity: 2,
    });
    expect([data.amount, data.unit_amount]).toEqual([600, 300]);
    // dahlia's `quantity_decimal`: 2.5 × 700, rounded half up to the cent (1.005 × 700 = 703.5 → 704);
    // `quantity` its whole units; stripe-node 15 (2024-04-10) sees no quantity_decimal.
    const half = await today.invoiceItems.create({
      customer: customer.id,
      pricing: { price: price.id },
      quantity_decimal: Stripe23.Decimal.from('2.50'),
    });
    expect([half.amount, half.quantity, String(half.quantity_decimal)]).toEqual([1750, 2, '2.5']);
    const fine = await today.invoiceItems.create({
      customer: customer.id,
      pricing: { price: price.id },
      quantity_decimal: Stripe23.Decimal.from('1.005'),
    });
    expect([fine.amount, fine.quantity, String(fine.quantity_decimal)]).toEqual([704, 1, '1.005']);
    expect(String(item.quantity_decimal)).toBe('3');
    expect(String((await today.invoiceItems.retrieve(item.id)).quantity_decimal)).toBe('3');
    expect(await oldest.invoiceItems.retrieve(half.id)).not.toHaveProperty('quantity_decimal');
    const clover = new Stripe23('sk_test_123', {
      ...options,
      apiVersion: '2025-09-30.clover' as Stripe23.LatestApiVersion,
    });
    expect(await clover.invoiceItems.retrieve(half.id)).not.toHaveProperty('quantity_decimal');
    // Both quantities, or a quantity that is no decimal of at most 12 places: Stripe's 400s.
    const twice = await today.invoiceItems
      .create({
        customer: customer.id,
        pricing: { price: price.id },
        quantity: 2,
        quantity_decimal: Stripe23.Decimal.from('2'),
      })
      .catch((error: unknown) => error);
    expect(twice).toMatchObject({
      statusCode: 400,
      param: 'quantity_decimal',
      message: 'You may only specify one of these parameters: quantity, quantity_decimal.',
    });
    for (const bad of ['-1', '1.0000000000001', 'abc', '1e3']) {
      const refusal = await fetch(`http://127.0.0.1:${options.port}/v1/invoiceitems`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ customer: customer.id, 'pricing[price]': price.id, quantity_decimal: bad }),
      });
      const { error } = (await refusal.json()) as { error: { param?: string } };
      expect([bad, refusal.status, error.param]).toEqual([bad, 400, 'quantity_decimal']);
    }
    // Refusals: a price never made, two ways of pricing, none.
    const refused = (params: Stripe23.InvoiceItemCreateParams) =>
      today.invoiceItems.create(params).catch((error: unknown) => error);
    expect(await refused({ customer: customer.id, pricing: { price: 'price_doesnotexist1' } })).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'pricing[price]',
    });
    expect(
      await refused({ customer: customer.id, amount: 5, currency: 'usd', pricing: { price: price.id } }),
    ).toMatchObject({
      statusCode: 400,
      message: 'You may only specify one of these parameters: amount, pricing.',
    });
    expect(await refused({ customer: customer.id })).toMatchObject({ statusCode: 400, param: 'amount' });
    // Its invoice's line: priced by the same Price, in basil's shape too.
    const draft = await today.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' });
    expect(draft.total).toBe(3200 + 1750 + 704);
    expect(draft.lines.data.map((line) => String(line.quantity_decimal)).sort()).toEqual([
      '1',
      '1.005',
      '2',
      '2.5',
      '3',
      '4',
    ]);
    expect(draft.lines.data.map((line) => line.pricing?.price_details?.price ?? null)).toEqual(
      expect.arrayContaining([price.id]),
    );
  });

  it("answers a Checkout Session's line_items only when expanded, as Stripe does, at every version", async () => {
    const { today, oldest } = await twins();
    const session = await today.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://example.com/done',
      line_items: [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Tee' } }, quantity: 2 }],
    });
    // A handler that forgets `expand` meets undefined here as in production (it met the items before).
    expect(session.line_items).toBeUndefined();
    expect((await oldest.checkout.sessions.retrieve(session.id)).line_items).toBeUndefined();
    const expanded = await today.checkout.sessions.retrieve(session.id, { expand: ['line_items'] });
    expect(expanded.line_items?.data.map((item) => item.quantity)).toEqual([2]);
    const listed = await today.checkout.sessions.list({ expand: ['data.line_items'] });
    expect(listed.data[0]?.line_items?.data).toHaveLength(1);
    expect((await today.checkout.sessions.list()).data[0]).not.toHaveProperty('line_items');
    expect((await today.checkout.sessions.listLineItems(session.id)).data.map((item) => item.quantity)).toEqual([2]);
  });
});
