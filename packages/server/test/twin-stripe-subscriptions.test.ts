// The Stripe twin's Subscription lifecycles as Stripe's subscription guides run them (docs/twins.md,
// issue #72), through stripe-node against the built daemon, on LevelDB and on a real redis-server:
// item updates, `default_incomplete` paid by confirming its PaymentIntent, a customer without a
// payment method, a declined card, trials and cancel at period end. Every delivered event is
// checked by `stripe.webhooks.constructEvent`. Every process listens on 127.0.0.1.
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';

import { monthlyPrice, stripeTwin as twinOn, stripeWebhooks as webhooks } from './helpers/stripe.js';
import { useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

async function stripeTwin(store: 'level' | 'redis'): Promise<{ stripe: Stripe; root: string }> {
  return twinOn(await twinRedis.store(store));
}

describe.each(['level', 'redis'] as const)('Stripe twin subscriptions through stripe-node (%s)', (store) => {
  it('lists by status as Stripe does: none leaves canceled out, all lists every status, ended the canceled', async () => {
    const { stripe } = await stripeTwin(store);
    const customer = await stripe.customers.create({ email: 'lists@example.com' });
    const price = await monthlyPrice(stripe, 1200);
    const made = (params: Partial<Stripe.SubscriptionCreateParams> = {}) =>
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        default_payment_method: 'pm_card_visa',
        ...params,
      });
    const active = await made();
    const canceled = await stripe.subscriptions.cancel((await made()).id);
    const incomplete = await made({ payment_behavior: 'default_incomplete' });
    expect([active.status, canceled.status, incomplete.status]).toEqual(['active', 'canceled', 'incomplete']);
    const ids = async (params: Stripe.SubscriptionListParams = {}) =>
      (await stripe.subscriptions.list({ customer: customer.id, ...params })).data.map((one) => one.id).sort();
    expect(await ids()).toEqual([active.id, incomplete.id].sort());
    expect(await ids({ status: 'all' })).toEqual([active.id, canceled.id, incomplete.id].sort());
    expect(await ids({ status: 'ended' })).toEqual([canceled.id]);
    expect(await ids({ status: 'canceled' })).toEqual([canceled.id]);
    expect(await ids({ status: 'incomplete' })).toEqual([incomplete.id]);
    expect(await ids({ status: 'all', limit: 2 })).toHaveLength(2);
  });

  it('updates, adds and removes items, keeping items a list, with customer.subscription.updated', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, ['customer.subscription.updated']);
    try {
      const customer = await stripe.customers.create({ email: 'items@example.com' });
      const [basic, pro, seats] = [
        await monthlyPrice(stripe, 1000),
        await monthlyPrice(stripe, 2500),
        await monthlyPrice(stripe, 300),
      ];
      const made = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: basic.id }],
        default_payment_method: 'pm_card_visa',
      });
      const first = made.items.data[0] as Stripe.SubscriptionItem;

      const upgraded = await stripe.subscriptions.update(made.id, {
        items: [
          { id: first.id, price: pro.id },
          { price: seats.id, quantity: 3 },
        ],
        metadata: { plan: 'pro' },
      });
      expect(upgraded.items).toMatchObject({ object: 'list', has_more: false, total_count: 2 });
      expect(upgraded.items.url).toBe(`/v1/subscription_items?subscription=${made.id}`);
      expect(upgraded.items.data.map((item) => [item.id === first.id, item.price.id, item.quantity])).toEqual([
        [true, pro.id, 1],
        [false, seats.id, 3],
      ]);
      expect(upgraded.metadata).toEqual({ plan: 'pro' });
      const added = upgraded.items.data[1] as Stripe.SubscriptionItem;
      expect(added).toMatchObject({ object: 'subscription_item', subscription: made.id });
      expect(added.id).toMatch(/^si_/);

      const fewer = await stripe.subscriptions.update(made.id, {
        items: [
          { id: first.id, quantity: 2 },
          { id: added.id, deleted: true },
        ],
      });
      expect(fewer.items.data.map((item) => [item.id, item.price.id, item.quantity])).toEqual([[first.id, pro.id, 2]]);
      const read = await stripe.subscriptions.retrieve(made.id);
      expect(read.items.data.map((item) => item.quantity)).toEqual([2]);
      expect(read.items).toMatchObject({ total_count: 1 });

      const unknown = await stripe.subscriptions
        .update(made.id, { items: [{ id: 'si_nothere', quantity: 1 }] })
        .catch((e) => e);
      expect([unknown.statusCode, unknown.param]).toEqual([400, 'items[0][id]']);

      const events = await hooks.until(2);
      expect(events.map((event) => event.type)).toEqual([
        'customer.subscription.updated',
        'customer.subscription.updated',
      ]);
      const [one, two] = events as [Stripe.Event, Stripe.Event];
      expect((one.data.object as Stripe.Subscription).items.data).toHaveLength(2);
      const before = one.data.previous_attributes as { items: Stripe.ApiList<Stripe.SubscriptionItem> };
      expect(before.items.data.map((item) => [item.id, item.price.id])).toEqual([[first.id, basic.id]]);
      const was = two.data.previous_attributes as { items: Stripe.ApiList<Stripe.SubscriptionItem> };
      expect(was.items.data.map((item) => item.quantity)).toEqual([1, 3]);
    } finally {
      await hooks.close();
    }
  });

  it('leaves a default_incomplete subscription incomplete until its PaymentIntent is confirmed', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, [
      'customer.subscription.created',
      'customer.subscription.updated',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    try {
      const customer = await stripe.customers.create({ email: 'guide@example.com' });
      const price = await monthlyPrice(stripe, 1200);
      const made = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.payment_intent'],
      });
      expect(made.status).toBe('incomplete');
      const invoice = made.latest_invoice as Stripe.Invoice;
      expect(invoice).toMatchObject({ status: 'open', paid: false, amount_due: 1200, amount_paid: 0 });
      const intent = invoice.payment_intent as Stripe.PaymentIntent;
      expect(intent).toMatchObject({
        object: 'payment_intent',
        status: 'requires_payment_method',
        amount: 1200,
        invoice: invoice.id,
      });
      expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
      const secret = await stripe.subscriptions.retrieve(made.id, { expand: ['latest_invoice.confirmation_secret'] });
      expect((secret.latest_invoice as unknown as { confirmation_secret: unknown }).confirmation_secret).toEqual({
        client_secret: intent.client_secret,
        type: 'payment_intent',
      });

      const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
      expect(confirmed.status).toBe('succeeded');
      expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({
        status: 'paid',
        paid: true,
        amount_paid: 1200,
      });
      expect((await stripe.subscriptions.retrieve(made.id)).status).toBe('active');

      const events = await hooks.until(5);
      expect(events.map((event) => event.type)).toEqual([
        'customer.subscription.created',
        'invoice.finalized',
        'invoice.paid',
        'invoice.payment_succeeded',
        'customer.subscription.updated',
      ]);
      expect(events[0]?.data.object).toMatchObject({ status: 'incomplete' });
      expect(events[1]?.data.object).toMatchObject({ status: 'open', paid: false });
      expect(events[2]?.data.object).toMatchObject({ id: invoice.id, status: 'paid' });
      expect(events[4]?.data).toMatchObject({
        object: { id: made.id, status: 'active' },
        previous_attributes: { status: 'incomplete' },
      });
    } finally {
      await hooks.close();
    }
  });

  it("charges the customer's default payment method, and leaves one without or declined incomplete", async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, ['invoice.paid', 'invoice.payment_failed']);
    try {
      const price = await monthlyPrice(stripe, 800);
      const bare = await stripe.customers.create({ email: 'bare@example.com' });
      const none = await stripe.subscriptions.create({
        customer: bare.id,
        items: [{ price: price.id }],
        expand: ['latest_invoice.payment_intent'],
      });
      expect(none.status).toBe('incomplete');
      const open = none.latest_invoice as Stripe.Invoice;
      expect(open).toMatchObject({ status: 'open', paid: false });
      expect((open.payment_intent as Stripe.PaymentIntent).status).toBe('requires_payment_method');

      const saved = await stripe.customers.create({ email: 'saved@example.com' });
      const method = await stripe.paymentMethods.attach('pm_card_visa', { customer: saved.id });
      await stripe.customers.update(saved.id, { invoice_settings: { default_payment_method: method.id } });
      const charged = await stripe.subscriptions.create({
        customer: saved.id,
        items: [{ price: price.id }],
        expand: ['latest_invoice'],
      });
      expect(charged.status).toBe('active');
      expect(charged.latest_invoice).toMatchObject({ status: 'paid', amount_paid: 800 });

      const declined = await stripe.subscriptions.create({
        customer: bare.id,
        items: [{ price: price.id }],
        default_payment_method: 'pm_card_chargeDeclined',
        expand: ['latest_invoice.payment_intent'],
      });
      expect(declined.status).toBe('incomplete');
      const unpaid = declined.latest_invoice as Stripe.Invoice;
      expect(unpaid).toMatchObject({ status: 'open', paid: false, attempted: true });
      const failed = unpaid.payment_intent as Stripe.PaymentIntent;
      expect(failed.status).toBe('requires_payment_method');
      expect(failed.last_payment_error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });

      const events = await hooks.until(2);
      expect(events.map((event) => event.type)).toEqual(['invoice.paid', 'invoice.payment_failed']);
      expect(events[1]?.data.object).toMatchObject({ id: unpaid.id, status: 'open', attempt_count: 1 });
    } finally {
      await hooks.close();
    }
  });

  it('starts a trial as trialing, its first invoice paid at 0, charging nothing until the trial ends', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, ['customer.subscription.created', 'invoice.paid', 'payment_intent.created']);
    try {
      const customer = await stripe.customers.create({ email: 'trial@example.com' });
      const price = await monthlyPrice(stripe, 2000);
      const days = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        trial_period_days: 14,
        expand: ['latest_invoice'],
      });
      expect(days.status).toBe('trialing');
      expect(days.trial_start).toEqual(days.start_date);
      expect(days.trial_end).toBe((days.trial_start as number) + 14 * 86_400);
      expect(days.current_period_end).toBe(days.trial_end);
      expect(days.latest_invoice).toMatchObject({
        status: 'paid',
        paid: true,
        amount_due: 0,
        amount_paid: 0,
        payment_intent: null,
      });

      const at = Math.floor(Date.now() / 1000) + 7 * 86_400;
      const until = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        trial_end: at,
        default_payment_method: 'pm_card_visa',
      });
      expect(until).toMatchObject({ status: 'trialing', trial_end: at, current_period_end: at });
      const past = await stripe.subscriptions
        .create({ customer: customer.id, items: [{ price: price.id }], trial_end: 1_000_000 })
        .catch((e) => e);
      expect([past.statusCode, past.param]).toEqual([400, 'trial_end']);

      const events = await hooks.until(4);
      expect(events.map((event) => event.type)).toEqual([
        'customer.subscription.created',
        'invoice.paid',
        'customer.subscription.created',
        'invoice.paid',
      ]);
      expect(events[0]?.data.object).toMatchObject({ id: days.id, status: 'trialing' });
      expect(events[1]?.data.object).toMatchObject({ amount_paid: 0, status: 'paid' });
    } finally {
      await hooks.close();
    }
  });

  it('cancels at period end: still active, cancel_at its period end, and takes it back', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, ['customer.subscription.updated', 'customer.subscription.deleted']);
    try {
      const customer = await stripe.customers.create({ email: 'leaving@example.com' });
      const price = await monthlyPrice(stripe, 900);
      const made = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        default_payment_method: 'pm_card_visa',
      });
      const ending = await stripe.subscriptions.update(made.id, { cancel_at_period_end: true });
      expect(ending).toMatchObject({
        status: 'active',
        cancel_at_period_end: true,
        cancel_at: made.current_period_end,
        ended_at: null,
        cancellation_details: { reason: 'cancellation_requested' },
      });
      expect(ending.canceled_at).toEqual(expect.any(Number));
      expect(await stripe.subscriptions.retrieve(made.id)).toMatchObject({
        status: 'active',
        cancel_at: made.current_period_end,
      });
      const kept = await stripe.subscriptions.update(made.id, { cancel_at_period_end: false });
      expect(kept).toMatchObject({ status: 'active', cancel_at_period_end: false, cancel_at: null, canceled_at: null });

      const events = await hooks.until(2);
      expect(events.map((event) => event.type)).toEqual([
        'customer.subscription.updated',
        'customer.subscription.updated',
      ]);
      expect(events[0]?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
      expect(events[1]?.data.previous_attributes).toMatchObject({
        cancel_at_period_end: true,
        cancel_at: made.current_period_end,
      });
    } finally {
      await hooks.close();
    }
  });
});
