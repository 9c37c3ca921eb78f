// The Stripe twin "as Stripe is today" (#72), through stripe-node against the built daemon: new
// products and payment links `active`, a paused subscription resumed, a draft invoice updated,
// payouts paid, payment links of the twin's prices, and `mockpoint trigger` sending only the
// events its fixture's calls made. Every delivery is read with stripe.webhooks.constructEvent.
import { createClient, MockpointError } from '@mockpoint/core';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { requestJson, useDaemons } from './helpers/daemon.js';
import { aMonthOn } from './helpers/stripe.js';
import { hookReceiver, twinDaemon } from './helpers/twin.js';

useDaemons();

type Hooks = Awaited<ReturnType<typeof hookReceiver>>;

/** A twin on a memory daemon, stripe-node pointed at it and an endpoint taking every event at `hooks`. */
async function stripeTwin(hooks: Hooks, setting: { unseen?: 'missing' | 'examples' } = {}) {
  const twin = await twinDaemon('stripe', 'memory', setting);
  const stripe = new Stripe('sk_test_1', {
    host: '127.0.0.1',
    port: twin.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  const endpoint = await stripe.webhookEndpoints.create({ url: hooks.url, enabled_events: ['*'] });
  /**
   * Each delivery so far, as constructEvent reads it (its signature checked), in the order the twin
   * made their events (`GET /v1/events`, oldest first): deliveries are sent several at a time, so
   * they may arrive in another order, as Stripe warns they may.
   */
  const delivered = async (count: number) => {
    await hooks.until(count);
    const made = (await stripe.events.list({ limit: 100 })).data.map((event) => event.id).reverse();
    return hooks.received
      .map(({ body, headers }) =>
        stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), endpoint.secret as string),
      )
      .sort((one, other) => made.indexOf(one.id) - made.indexOf(other.id));
  };
  return { ...twin, stripe, delivered };
}

/** A customer with no payment method on a 7-day monthly trial that pauses when it ends without one. */
async function pausingTrial(
  stripe: Stripe,
  email: string,
  unitAmount: number,
  clock?: string,
): Promise<{ customer: Stripe.Customer; trial: Stripe.Subscription }> {
  const customer = await stripe.customers.create({ email, ...(clock === undefined ? {} : { test_clock: clock }) });
  const product = await stripe.products.create({ name: 'Plan' });
  const price = await stripe.prices.create({
    product: product.id,
    unit_amount: unitAmount,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  const trial = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    trial_period_days: 7,
    trial_settings: { end_behavior: { missing_payment_method: 'pause' } },
  });
  return { customer, trial };
}

/**
 * How many events the twin has listed (`GET /v1/events`) that the endpoint takes, for waiting on
 * their deliveries: stripe-node 15's endpoint (2024-04-10) takes no invoice payments (basil).
 */
async function eventCount(stripe: Stripe): Promise<number> {
  const listed = (await stripe.events.list({ limit: 100 })).data;
  return listed.filter((event) => !event.type.startsWith('invoice_payment.')).length;
}

describe('the Stripe twin as Stripe is today (#72)', () => {
  it('makes a product and a price active unless active=false is sent (payment links: below)', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe } = await stripeTwin(hooks);
      const product = await stripe.products.create({ name: 'T-shirt' });
      expect(product.active).toBe(true);
      expect((await stripe.products.create({ name: 'Old', active: false })).active).toBe(false);
      const price = await stripe.prices.create({ product: product.id, unit_amount: 1500, currency: 'usd' });
      expect(price.active).toBe(true);
      expect((await stripe.products.retrieve(product.id)).active).toBe(true);
    } finally {
      await hooks.close();
    }
  });

  it('resumes a paused subscription: active for a new period, its invoice paid, resumed and updated sent', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, delivered } = await stripeTwin(hooks);
      const { customer, trial } = await pausingTrial(stripe, 'ada@example.com', 1500);
      // An active subscription is not resumed: Stripe's 400.
      const early = await stripe.subscriptions.resume(trial.id).catch((error: unknown) => error);
      expect(early).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect([(early as Stripe.errors.StripeError).statusCode, (early as Error).message]).toEqual([
        400,
        expect.stringContaining('only a subscription with status `paused` can be resumed'),
      ]);
      const paused = await stripe.subscriptions.update(trial.id, { trial_end: 'now' });
      expect(paused.status).toBe('paused');
      const method = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
      await stripe.subscriptions.update(trial.id, { default_payment_method: method.id });
      const before = await eventCount(stripe);

      const resumed = await stripe.subscriptions.resume(trial.id, { expand: ['latest_invoice'] });
      expect(resumed.status).toBe('active');
      expect(resumed.billing_cycle_anchor).toBe(resumed.current_period_start);
      expect(resumed.current_period_end).toBe(aMonthOn(resumed.current_period_start));
      const invoice = resumed.latest_invoice as Stripe.Invoice;
      expect(invoice).toMatchObject({
        status: 'paid',
        amount_paid: 1500,
        billing_reason: 'subscription_update',
        subscription: trial.id,
        customer: customer.id,
      });
      // Its PaymentIntent charged the default payment method, as a client reads them back.
      const intent = await stripe.paymentIntents.retrieve(String(invoice.payment_intent));
      expect([intent.status, intent.payment_method]).toEqual(['succeeded', method.id]);

      const events = (await delivered(await eventCount(stripe))).slice(before);
      const types = events.map((event) => event.type);
      expect(types.slice(0, 2)).toEqual(['customer.subscription.resumed', 'customer.subscription.updated']);
      expect(types).toEqual(expect.arrayContaining(['invoice.created', 'invoice.finalized', 'invoice.paid']));
      const updated = events[1] as Stripe.Event;
      expect((updated.data.object as Stripe.Subscription).status).toBe('active');
      expect(updated.data.previous_attributes).toMatchObject({
        status: 'paused',
        latest_invoice: paused.latest_invoice,
      });
      expect((events[0]?.data.object as Stripe.Subscription | undefined)?.id).toBe(trial.id);
      // Resumed once: a second resume is refused.
      expect(
        await stripe.subscriptions.resume(trial.id).catch((error: { statusCode?: number }) => error.statusCode),
      ).toBe(400);
    } finally {
      await hooks.close();
    }
  });

  it('resumes a subscription with no payment method past_due, active once its invoice is paid', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe } = await stripeTwin(hooks);
      const { trial } = await pausingTrial(stripe, 'bo@example.com', 900);
      await stripe.subscriptions.update(trial.id, { trial_end: 'now' });
      const waiting = await stripe.subscriptions.resume(trial.id, { expand: ['latest_invoice.payment_intent'] });
      // Stripe: "if payment fails the subscription will be past_due".
      expect(waiting.status).toBe('past_due');
      const invoice = waiting.latest_invoice as Stripe.Invoice;
      expect([invoice.status, invoice.amount_due]).toEqual(['open', 900]);
      const intent = invoice.payment_intent as Stripe.PaymentIntent;
      expect(intent.status).toBe('requires_payment_method');
      await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
      const active = await stripe.subscriptions.retrieve(trial.id);
      expect(active.status).toBe('active');
      expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('paid');
      const types = (await stripe.events.list({ limit: 100 })).data.map((event) => event.type);
      expect(types).toContain('customer.subscription.resumed');
    } finally {
      await hooks.close();
    }
  });

  it('unpauses a subscription whose resumption invoice is marked uncollectible; voided by hand, it is paused', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe } = await stripeTwin(hooks);
      const resumed = async (email: string) => {
        const { trial } = await pausingTrial(stripe, email, 600);
        await stripe.subscriptions.update(trial.id, { trial_end: 'now' });
        const waiting = await stripe.subscriptions.resume(trial.id);
        expect(waiting.status).toBe('past_due');
        return { id: trial.id, invoice: String(waiting.latest_invoice) };
      };
      // "It must be paid or marked uncollectible before the subscription will be unpaused."
      const forgiven = await resumed('forgiven@example.com');
      await stripe.invoices.markUncollectible(forgiven.invoice);
      expect((await stripe.subscriptions.retrieve(forgiven.id)).status).toBe('active');
      const dropped = await resumed('dropped@example.com');
      await stripe.invoices.voidInvoice(dropped.invoice);
      expect((await stripe.subscriptions.retrieve(dropped.id)).status).toBe('paused');
    } finally {
      await hooks.close();
    }
  });

  it('voids an unpaid resumption invoice when it expires (23 hours on the clock), the subscription paused again', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe } = await stripeTwin(hooks);
      const start = 1_767_225_600; // 2026-01-01T00:00:00Z
      const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
      const { trial } = await pausingTrial(stripe, 'void@example.com', 800, clock.id);
      await stripe.subscriptions.update(trial.id, { trial_end: 'now' });
      const waiting = await stripe.subscriptions.resume(trial.id, { expand: ['latest_invoice'] });
      const invoice = waiting.latest_invoice as Stripe.Invoice;
      expect([waiting.status, invoice.status]).toEqual(['past_due', 'open']);
      // Not yet: 22 hours on, the invoice is still payable.
      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 22 * 3600 });
      expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('open');
      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 24 * 3600 });
      const voided = await stripe.invoices.retrieve(invoice.id);
      expect([voided.status, voided.status_transitions.voided_at]).toEqual(['void', start + 23 * 3600]);
      const intent = await stripe.paymentIntents.retrieve(String(voided.payment_intent));
      expect([intent.status, intent.cancellation_reason]).toEqual(['canceled', 'void_invoice']);
      const paused = await stripe.subscriptions.retrieve(trial.id);
      expect([paused.status, paused.latest_invoice]).toEqual(['paused', invoice.id]);
      const types = (await stripe.events.list({ limit: 100 })).data.map((event) => event.type);
      for (const type of ['invoice.voided', 'payment_intent.canceled', 'customer.subscription.paused']) {
        expect(types).toContain(type);
      }
      // Voided, it can no longer be paid: its PaymentIntent is canceled.
      const late = await stripe.paymentIntents
        .confirm(intent.id, { payment_method: 'pm_card_visa' })
        .catch((error: unknown) => error);
      expect(late).toMatchObject({ statusCode: 400 });
    } finally {
      await hooks.close();
    }
  });

  it('updates a draft invoice of pending invoice items with invoice.updated and its previous_attributes', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, delivered } = await stripeTwin(hooks);
      const customer = await stripe.customers.create({ email: 'cy@example.com' });
      const item = await stripe.invoiceItems.create({ customer: customer.id, amount: 2000, currency: 'usd' });
      const draft = await stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include' });
      expect(draft).toMatchObject({ status: 'draft', amount_due: 2000, total: 2000, customer: customer.id });
      expect(draft.lines.data.map((line) => line.invoice_item)).toEqual([item.id]);
      expect((await stripe.invoiceItems.retrieve(item.id)).invoice).toBe(draft.id);
      const updated = await stripe.invoices.update(draft.id, { description: 'May', metadata: { order: '6735' } });
      expect([updated.description, updated.metadata]).toEqual(['May', { order: '6735' }]);
      const events = await delivered(await eventCount(stripe));
      const event = events.find((one) => one.type === 'invoice.updated');
      expect((event?.data.object as Stripe.Invoice | undefined)?.description).toBe('May');
      expect(event?.data.previous_attributes).toEqual({ description: null, metadata: { order: null } });
    } finally {
      await hooks.close();
    }
  });

  it('pays out a payout at once: payout.created pending, payout.paid paid, one po_ the twin holds', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, delivered } = await stripeTwin(hooks);
      const payout = await stripe.payouts.create({ amount: 1100, currency: 'usd' });
      expect(payout.id).toMatch(/^po_/);
      expect([payout.status, payout.amount, payout.method, payout.type]).toEqual([
        'paid',
        1100,
        'standard',
        'bank_account',
      ]);
      const events = await delivered(2);
      expect(events.map((event) => [event.type, (event.data.object as Stripe.Payout).status])).toEqual([
        ['payout.created', 'pending'],
        ['payout.paid', 'paid'],
      ]);
      expect((await stripe.payouts.retrieve(payout.id)).status).toBe('paid');
    } finally {
      await hooks.close();
    }
  });

  it("makes payment links of the twin's prices, refuses a price it does not hold, and updates them", async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, delivered } = await stripeTwin(hooks);
      const product = await stripe.products.create({ name: 'Ebook' });
      const price = await stripe.prices.create({ product: product.id, unit_amount: 700, currency: 'usd' });
      const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 2 }] });
      expect([link.id, link.active, link.url]).toEqual([
        expect.stringMatching(/^plink_/),
        true,
        expect.stringMatching(/^https:\/\/buy\.stripe\.com\/test_/),
      ]);
      const read = await stripe.paymentLinks.retrieve(link.id, { expand: ['line_items'] });
      const items = read.line_items?.data ?? [];
      expect(items.map((line) => [line.price?.id, line.quantity, line.amount_total])).toEqual([[price.id, 2, 1400]]);
      const missing = (await stripe.paymentLinks
        .create({ line_items: [{ price: 'price_never', quantity: 1 }] })
        .catch((error: unknown) => error)) as Stripe.errors.StripeError;
      expect([missing.statusCode, missing.code, missing.param, missing.message]).toEqual([
        400,
        'resource_missing',
        'line_items[0][price]',
        "No such price: 'price_never'",
      ]);
      await stripe.paymentLinks.update(link.id, { active: false });
      const events = await delivered(4);
      const types = events.map((event) => event.type);
      expect(types).toEqual(['product.created', 'price.created', 'payment_link.created', 'payment_link.updated']);
      expect(events[3]?.data.previous_attributes).toEqual({ active: true });
    } finally {
      await hooks.close();
    }
  });

  it('triggers the new fixtures through the flows, each event about an object the twin holds', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, daemon, name, delivered } = await stripeTwin(hooks);
      const client = createClient({ baseUrl: daemon.url });
      const wanted: [string, (id: string) => Promise<{ id: string }>, Record<string, unknown>][] = [
        ['customer.subscription.resumed', (id) => stripe.subscriptions.retrieve(id), { status: 'active' }],
        ['invoice.updated', (id) => stripe.invoices.retrieve(id), { status: 'draft', metadata: { foo: 'bar' } }],
        ['payout.created', (id) => stripe.payouts.retrieve(id), { status: 'pending' }],
        ['payout.paid', (id) => stripe.payouts.retrieve(id), { status: 'paid' }],
        ['payout.updated', (id) => stripe.payouts.retrieve(id), { metadata: { foo: 'bar' } }],
        ['payment_link.created', (id) => stripe.paymentLinks.retrieve(id), { active: true }],
        ['payment_link.updated', (id) => stripe.paymentLinks.retrieve(id), { allow_promotion_codes: true }],
      ];
      const asked = new Map<string, string>();
      for (const [type] of wanted) {
        const sent = await client.triggerTwin(name, { event: type });
        asked.set(type, String(sent.events.find((one) => one.type === type)?.event.id));
      }
      const events = await delivered(await eventCount(stripe));
      for (const [type, read, shape] of wanted) {
        const event = events.find((one) => one.id === asked.get(type));
        const object = event?.data.object as unknown as { id: string };
        expect(object, type).toMatchObject(shape);
        // The object is the twin's: read back through stripe-node.
        expect((await read(object.id)).id, type).toBe(object.id);
      }
    } finally {
      await hooks.close();
    }
  });

  it('sends nothing when a fixture did not make its event: TWIN_EVENT_NOT_MADE, naming the refused calls', async () => {
    const twin = await twinDaemon('stripe', 'memory');
    const limited = `${twin.name}lim`;
    const put = await requestJson(`${twin.daemon.url}/api/endpoints/${limited}/twin`, {
      method: 'PUT',
      body: { provider: 'stripe', profile: { rateLimit: { limit: 2, per: '1h', style: 'ietf', status: 429 } } },
    });
    expect(put.status).toBe(200);
    const client = createClient({ baseUrl: twin.daemon.url });
    const refused = await client
      .triggerTwin(limited, { event: 'customer.subscription.updated' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockpointError);
    expect([(refused as MockpointError).code, (refused as MockpointError).message]).toEqual([
      'TWIN_EVENT_NOT_MADE',
      expect.stringMatching(
        /^event: the calls that make "customer\.subscription\.updated" \(\d+ calls, refused: POST \/v1\/prices 429[,)]/,
      ),
    ]);
    // A few calls named, not every one: the message stays short.
    expect((refused as MockpointError).message.length).toBeLessThan(600);
    // Only what the calls made was kept: no subscription event about anything.
    const listed = await requestJson(`${twin.daemon.url}/endpoint/${limited}/v1/events`, {
      headers: { authorization: 'Bearer sk_test_other' },
    });
    const types = (listed.body as { data: { type: string }[] }).data.map((event) => event.type);
    expect(types.sort()).toEqual(['customer.created', 'product.created']);
    const answer = await requestJson(`${twin.daemon.url}/api/endpoints/${limited}/twin/trigger`, {
      method: 'POST',
      body: { event: 'customer.subscription.updated' },
    });
    expect(answer.status).toBe(409);
  });
});
