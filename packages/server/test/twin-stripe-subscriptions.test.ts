// The Stripe twin's Subscription lifecycles as Stripe's subscription guides run them (docs/twins.md,
// issue #72), through stripe-node against the built daemon, on LevelDB and on a real redis-server:
// item updates, `default_incomplete` paid by confirming its PaymentIntent, a customer without a
// payment method, a declined card, trials and cancel at period end. Every delivered event is
// checked by `stripe.webhooks.constructEvent`. Every process listens on 127.0.0.1.
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';

import { stripeTwin as twinOn, stripeWebhooks as webhooks } from './helpers/stripe.js';
import { useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

async function stripeTwin(store: 'level' | 'redis'): Promise<{ stripe: Stripe; root: string }> {
  return twinOn(await twinRedis.store(store));
}

/** A monthly price of `amount` cents. */
function monthly(stripe: Stripe, amount: number): Promise<Stripe.Price> {
  return stripe.prices.create({
    product_data: { name: `Plan ${amount}` },
    unit_amount: amount,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
}

describe.each(['level', 'redis'] as const)('Stripe twin subscriptions through stripe-node (%s)', (store) => {
  it('updates, adds and removes items, keeping items a list, with customer.subscription.updated', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await webhooks(stripe, ['customer.subscription.updated']);
    try {
      const customer = await stripe.customers.create({ email: 'items@example.com' });
      const [basic, pro, seats] = [
        await monthly(stripe, 1000),
        await monthly(stripe, 2500),
        await monthly(stripe, 300),
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
});
