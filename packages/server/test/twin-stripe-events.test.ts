// The Stripe twin's events as Stripe sends them (docs/twins.md, #72), through stripe-node 15.0.0
// against the built daemon serving the twin at the root of a port of its own, in memory and on
// LevelDB: each event's object as it was when the event happened (a PaymentIntent
// `requires_confirmation` at its `payment_intent.created`, a first invoice `draft`, then `open`,
// then `paid`), `*.updated` with `previous_attributes`, and a disabled webhook endpoint that
// receives nothing. Every delivery is checked by `stripe.webhooks.constructEvent`. Every process
// listens on 127.0.0.1.
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { monthlyPrice, stripeTwin, stripeWebhooks } from './helpers/stripe.js';

useDaemons();

/** The one event of `type` about `id` among `events`. */
function eventOf(events: Stripe.Event[], type: string, id: string): Stripe.Event {
  const found = events.filter((event) => event.type === type && (event.data.object as { id?: string }).id === id);
  expect(found.map((event) => event.type)).toEqual([type]);
  return found[0] as Stripe.Event;
}

describe.each(['memory', 'level'] as const)('Stripe events as Stripe sends them (%s)', (store) => {
  it('sends each event of a PaymentIntent with the intent as it was at that event', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await stripeWebhooks(stripe, [
      'payment_intent.created',
      'payment_intent.succeeded',
      'charge.succeeded',
    ]);
    try {
      const paid = await stripe.paymentIntents.create({
        amount: 1200,
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: true,
      });
      expect(paid.status).toBe('succeeded');
      const later = await stripe.paymentIntents.create({ amount: 500, currency: 'usd' });
      await stripe.paymentIntents.confirm(later.id, { payment_method: 'pm_card_visa' });

      const events = await hooks.until(6);
      expect(events.map((event) => event.type)).toEqual([
        'payment_intent.created',
        'payment_intent.succeeded',
        'charge.succeeded',
        'payment_intent.created',
        'payment_intent.succeeded',
        'charge.succeeded',
      ]);
      // Made with a payment method and confirmed at once: created as made, then succeeded.
      expect(eventOf(events, 'payment_intent.created', paid.id).data.object).toMatchObject({
        status: 'requires_confirmation',
        payment_method: 'pm_card_visa',
        amount_received: 0,
        latest_charge: null,
      });
      expect(eventOf(events, 'payment_intent.succeeded', paid.id).data.object).toMatchObject({
        status: 'succeeded',
        amount_received: 1200,
        latest_charge: paid.latest_charge,
      });
      expect(eventOf(events, 'payment_intent.created', later.id).data.object).toMatchObject({
        status: 'requires_payment_method',
        payment_method: null,
      });
      expect(eventOf(events, 'payment_intent.succeeded', later.id).data.object).toMatchObject({
        status: 'succeeded',
        amount_received: 500,
      });
      expect(eventOf(events, 'charge.succeeded', paid.latest_charge as string).data.object).toMatchObject({
        payment_intent: paid.id,
        status: 'succeeded',
      });
      // No created or succeeded event carries previous_attributes.
      expect(events.filter((event) => 'previous_attributes' in event.data)).toEqual([]);
    } finally {
      await hooks.close();
    }
  });

  it("sends a subscription's first invoice draft, then open, then paid, and its update's previous_attributes", async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await stripeWebhooks(stripe, [
      'customer.subscription.created',
      'customer.subscription.updated',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'payment_intent.created',
      'payment_intent.succeeded',
    ]);
    try {
      const customer = await stripe.customers.create({ email: 'sub@example.com' });
      const price = await monthlyPrice(stripe, 1500, 'Pro');
      const subscription = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id, quantity: 2 }],
        metadata: { team: 'a' },
        default_payment_method: 'pm_card_visa',
      });
      const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
      expect(invoice).toMatchObject({ status: 'paid', amount_paid: 3000 });
      const intent = invoice.payment_intent as string;
      const updated = await stripe.subscriptions.update(subscription.id, {
        metadata: { plan: 'pro' },
        cancel_at_period_end: true,
      });
      expect(updated).toMatchObject({ cancel_at_period_end: true, metadata: { team: 'a', plan: 'pro' } });

      const events = await hooks.until(8);
      expect(events.map((event) => event.type).sort()).toEqual(
        [
          'customer.subscription.created',
          'payment_intent.created',
          'payment_intent.succeeded',
          'invoice.created',
          'invoice.finalized',
          'invoice.paid',
          'invoice.payment_succeeded',
          'customer.subscription.updated',
        ].sort(),
      );
      expect(eventOf(events, 'customer.subscription.created', subscription.id).data.object).toMatchObject({
        status: 'active',
        cancel_at_period_end: false,
        metadata: { team: 'a' },
      });
      const draft = eventOf(events, 'invoice.created', invoice.id).data.object;
      expect(draft).toMatchObject({
        status: 'draft',
        billing_reason: 'subscription_create',
        amount_due: 3000,
        amount_paid: 0,
        paid: false,
        attempted: false,
        payment_intent: null,
        status_transitions: { finalized_at: null, paid_at: null },
      });
      const open = eventOf(events, 'invoice.finalized', invoice.id).data.object as Stripe.Invoice;
      expect(open).toMatchObject({
        status: 'open',
        amount_paid: 0,
        amount_remaining: 3000,
        paid: false,
        payment_intent: intent,
        status_transitions: { paid_at: null },
      });
      expect(open.status_transitions.finalized_at).toEqual(expect.any(Number));
      for (const type of ['invoice.paid', 'invoice.payment_succeeded']) {
        expect(eventOf(events, type, invoice.id).data.object).toMatchObject({
          status: 'paid',
          amount_paid: 3000,
          amount_remaining: 0,
          paid: true,
        });
      }
      expect(eventOf(events, 'payment_intent.created', intent).data.object).toMatchObject({
        status: 'requires_payment_method',
        invoice: invoice.id,
        amount_received: 0,
        latest_charge: null,
      });
      expect(eventOf(events, 'payment_intent.succeeded', intent).data.object).toMatchObject({
        status: 'succeeded',
        amount_received: 3000,
      });
      const update = eventOf(events, 'customer.subscription.updated', subscription.id);
      expect(update.data.object).toMatchObject({ cancel_at_period_end: true, metadata: { team: 'a', plan: 'pro' } });
      expect(update.data.previous_attributes).toEqual({
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        cancellation_details: { reason: null },
        metadata: { plan: null },
      });
    } finally {
      await hooks.close();
    }
  });

  it('sends customer.updated with the prior values of exactly the fields that changed', async () => {
    const { stripe } = await stripeTwin(store);
    const hooks = await stripeWebhooks(stripe, ['customer.created', 'customer.updated']);
    try {
      const customer = await stripe.customers.create({
        email: 'ada@example.com',
        name: 'Ada',
        metadata: { team: 'a', plan: 'free' },
      });
      await stripe.customers.update(customer.id, {
        name: 'Ada Lovelace',
        metadata: { plan: 'pro', seats: '3' },
        address: { city: 'London', country: 'GB' },
      });
      await stripe.customers.update(customer.id, {
        address: { city: 'Paris', country: 'GB' },
        email: 'ada@example.com',
      });

      const events = await hooks.until(3);
      expect(events.map((event) => event.type)).toEqual(['customer.created', 'customer.updated', 'customer.updated']);
      expect(events[0]?.data.object).toMatchObject({ name: 'Ada', metadata: { team: 'a', plan: 'free' } });
      expect('previous_attributes' in (events[0]?.data ?? {})).toBe(false);
      expect(events[1]?.data.object).toMatchObject({
        name: 'Ada Lovelace',
        metadata: { team: 'a', plan: 'pro', seats: '3' },
        address: { city: 'London', country: 'GB' },
      });
      // Only what changed: a nested record as its changed keys, a field it did not have as null.
      expect(events[1]?.data.previous_attributes).toEqual({
        name: 'Ada',
        metadata: { plan: 'free', seats: null },
        address: customer.address,
      });
      // The email sent again is unchanged, so it is not among them.
      expect(events[2]?.data.previous_attributes).toEqual({ address: { city: 'London' } });
    } finally {
      await hooks.close();
    }
  });

  it('sends nothing to a disabled endpoint while an enabled one receives the event, and again once re-enabled', async () => {
    const { stripe } = await stripeTwin(store);
    const off = await stripeWebhooks(stripe, ['customer.created']);
    const on = await stripeWebhooks(stripe, ['customer.created']);
    try {
      const disabled = await stripe.webhookEndpoints.update(off.endpoint.id, { disabled: true });
      expect(disabled.status).toBe('disabled');
      expect((await stripe.webhookEndpoints.retrieve(off.endpoint.id)).status).toBe('disabled');
      const first = await stripe.customers.create({ email: 'first@example.com' });
      // One endpoint was to take it: the disabled one is none of its deliveries (0 once delivered).
      const firstEvent = (await stripe.events.list({ type: 'customer.created', limit: 1 })).data[0];
      expect(firstEvent).toMatchObject({ data: { object: { id: first.id } } });
      expect(firstEvent?.pending_webhooks).toBeLessThanOrEqual(1);

      const enabled = await stripe.webhookEndpoints.update(off.endpoint.id, { disabled: false });
      expect(enabled.status).toBe('enabled');
      const second = await stripe.customers.create({ email: 'second@example.com' });
      const secondEvent = (await stripe.events.list({ type: 'customer.created', limit: 1 })).data[0];
      expect(secondEvent).toMatchObject({ data: { object: { id: second.id } } });
      expect(secondEvent?.pending_webhooks).toBeLessThanOrEqual(2);

      const both = await on.until(2);
      expect(both.map((event) => (event.data.object as Stripe.Customer).id)).toEqual([first.id, second.id]);
      const after = await off.until(1);
      expect(after.map((event) => (event.data.object as Stripe.Customer).id)).toEqual([second.id]);
      // Its deliveries were handed off with the enabled one's, which have all come.
      expect(off.received().map((event) => (event.data.object as Stripe.Customer).id)).toEqual([second.id]);
      // Stripe counts pending_webhooks down as deliveries succeed: none is left of either event.
      for (const event of [firstEvent, secondEvent]) {
        await expect
          .poll(async () => (await stripe.events.retrieve(event?.id as string)).pending_webhooks, { timeout: 10_000 })
          .toBe(0);
      }
    } finally {
      await off.close();
      await on.close();
    }
  });
});
