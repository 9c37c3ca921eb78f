// The Stripe twin's Test Clocks (docs/twins.md "Test clocks", issue #72) through stripe-node against
// the built daemon, on memory and on LevelDB, one daemon per store: a customer on a clock has its
// subscriptions made at the clock's time, and an advance renews them, ends trials (with
// `trial_will_end` three days before), fails and retries a declining card's renewal, and cancels
// at period end. Every delivered event is checked by `stripe.webhooks.constructEvent`; time moves
// only by the clock. Every process listens on 127.0.0.1.
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';

import { useDaemons } from './helpers/daemon.js';
import { monthlyPrice, type StripeWebhooks, stripeTwin, stripeWebhooks } from './helpers/stripe.js';

// One daemon per store, shared by the cases: stopped after the file's last test.
useDaemons({ kill: 'file' });

const DAY = 86_400;
/** 2026-01-01T00:00:00Z: the clocks' start, far from the wall clock. */
const T0 = 1_767_225_600;
/** January's 31 days: the first period of a monthly subscription made at T0 (Stripe's calendar months). */
const MONTH = 31 * DAY;
/** 2026-03-01T00:00:00Z: the end of the second period, February's 28 days after the first. */
const MARCH = T0 + 59 * DAY;

const CLOCK_EVENTS = ['test_helpers.test_clock.advancing', 'test_helpers.test_clock.ready'];
/** A paid renewal's events, in the order the twin sends them. */
const RENEWAL_EVENTS = [
  'customer.subscription.updated',
  'invoice.created',
  'invoice.finalized',
  'charge.succeeded',
  'invoice.paid',
  'invoice.payment_succeeded',
];

describe.each(['memory', 'level'] as const)('Stripe twin test clocks through stripe-node (%s)', (store) => {
  let stripe: Stripe;

  beforeAll(async () => {
    ({ stripe } = await stripeTwin(store));
  });

  /** A customer on a new clock at T0, and a monthly subscription of `amount` paid by `pm_card_visa`. */
  async function subscribed(amount: number, params: Partial<Stripe.SubscriptionCreateParams> = {}) {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0, name: 'billing' });
    const customer = await stripe.customers.create({ email: 'clock@example.com', test_clock: clock.id });
    const price = await monthlyPrice(stripe, amount);
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: 'pm_card_visa',
      ...params,
    });
    return { clock, customer, subscription };
  }

  /** Webhooks of `events`, the endpoint deleted after `run`. */
  async function listening<T>(events: string[], run: (hooks: StripeWebhooks) => Promise<T>): Promise<T> {
    const hooks = await stripeWebhooks(stripe, events);
    try {
      return await run(hooks);
    } finally {
      await stripe.webhookEndpoints.del(hooks.endpoint.id);
      await hooks.close();
    }
  }

  it('renews a monthly subscription once when its clock moves a month and a day, refusing to go back', async () => {
    const { clock, customer, subscription } = await subscribed(1500);
    expect(clock).toMatchObject({ object: 'test_helpers.test_clock', status: 'ready', frozen_time: T0 });
    expect(clock.id).toMatch(/^clock_/);
    expect(customer).toMatchObject({ test_clock: clock.id, created: T0 });
    expect(subscription).toMatchObject({
      status: 'active',
      created: T0,
      current_period_start: T0,
      current_period_end: T0 + MONTH,
    });
    const events = await listening([...CLOCK_EVENTS, ...RENEWAL_EVENTS], async (hooks) => {
      const advancing = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + MONTH + DAY });
      expect(advancing).toMatchObject({ id: clock.id, status: 'advancing', frozen_time: T0 });
      return hooks.until(8);
    });
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({
      status: 'ready',
      frozen_time: T0 + MONTH + DAY,
    });
    expect(events.map((event) => event.type)).toEqual([
      'test_helpers.test_clock.advancing',
      ...RENEWAL_EVENTS,
      'test_helpers.test_clock.ready',
    ]);
    const invoices = (await stripe.invoices.list({ customer: customer.id })).data;
    expect(invoices.map((invoice) => invoice.billing_reason)).toEqual(['subscription_cycle', 'subscription_create']);
    const [renewal] = invoices as [Stripe.Invoice];
    expect(renewal).toMatchObject({
      status: 'paid',
      amount_paid: 1500,
      created: T0 + MONTH,
      subscription: subscription.id,
      period_start: T0,
      period_end: T0 + MONTH,
    });
    expect(renewal.lines.data[0]?.period).toEqual({ start: T0 + MONTH, end: MARCH });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'active',
      current_period_start: T0 + MONTH,
      current_period_end: MARCH,
      latest_invoice: renewal.id,
    });
    const updated = events[1] as Stripe.Event;
    expect(updated.data.previous_attributes).toMatchObject({
      current_period_start: T0,
      current_period_end: T0 + MONTH,
      latest_invoice: subscription.latest_invoice,
    });
    expect(events[2]?.data.object).toMatchObject({ id: renewal.id, status: 'draft' });
    const charge = events[4]?.data.object as Stripe.Charge;
    expect([charge.amount, charge.invoice, charge.customer]).toEqual([1500, renewal.id, customer.id]);

    const back = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 }).catch((e) => e);
    expect([back.statusCode, back.type, back.param]).toEqual([400, 'StripeInvalidRequestError', 'frozen_time']);
    const far = await stripe.testHelpers.testClocks
      .advance(clock.id, { frozen_time: T0 + MONTH + DAY + 3 * MONTH })
      .catch((e) => e);
    expect([far.statusCode, far.param]).toEqual([400, 'frozen_time']);
    expect(far.message).toMatch(/two intervals/);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(2);
  });

  it('renews 16 subscriptions due at one instant in one advance: the bound counts instants, not steps', async () => {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0 });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const price = await monthlyPrice(stripe, 500);
    const made: Stripe.Subscription[] = [];
    for (let n = 0; n < 16; n++) {
      const one = { customer: customer.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa' };
      made.push(await stripe.subscriptions.create(one));
    }
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + MONTH + DAY });
    expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({
      status: 'ready',
      frozen_time: T0 + MONTH + DAY,
    });
    for (const one of made) {
      expect(await stripe.subscriptions.retrieve(one.id)).toMatchObject({
        current_period_start: T0 + MONTH,
        current_period_end: MARCH,
      });
    }
    const invoices = await stripe.invoices.list({ customer: customer.id, limit: 100 });
    expect(invoices.data.filter((invoice) => invoice.billing_reason === 'subscription_cycle')).toHaveLength(16);
    // Still bounded: 16 subscriptions made an hour apart renew at 16 instants, past what one advance runs.
    const other = await stripe.testHelpers.testClocks.create({ frozen_time: T0 });
    const someone = await stripe.customers.create({ test_clock: other.id });
    for (let n = 0; n < 16; n++) {
      if (n > 0) await stripe.testHelpers.testClocks.advance(other.id, { frozen_time: T0 + n * 3600 });
      const one = { customer: someone.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa' };
      await stripe.subscriptions.create(one);
    }
    const refused = await stripe.testHelpers.testClocks
      .advance(other.id, { frozen_time: T0 + MONTH + DAY })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 400, param: 'frozen_time' });
    expect((await stripe.testHelpers.testClocks.retrieve(other.id)).frozen_time).toBe(T0 + 15 * 3600);
  });

  it('refuses a customer on a clock it does not hold, and a fourth customer on one clock', async () => {
    const unknown = await stripe.customers.create({ test_clock: 'clock_nothere' }).catch((e) => e);
    expect([unknown.statusCode, unknown.code, unknown.param]).toEqual([400, 'resource_missing', 'test_clock']);
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0 });
    for (let n = 0; n < 3; n++) await stripe.customers.create({ test_clock: clock.id });
    const fourth = await stripe.customers.create({ test_clock: clock.id }).catch((e) => e);
    expect([fourth.statusCode, fourth.param]).toEqual([400, 'test_clock']);
    expect((await stripe.customers.create({ email: 'wall@example.com' })).test_clock).toBeNull();
  });

  it('sends trial_will_end three days before a trial ends, then bills the first paid period', async () => {
    const { clock, customer, subscription } = await subscribed(2000, { trial_period_days: 7 });
    expect(subscription).toMatchObject({ status: 'trialing', trial_start: T0, trial_end: T0 + 7 * DAY });
    const events = await listening(
      ['customer.subscription.trial_will_end', 'customer.subscription.updated', 'invoice.paid'],
      async (hooks) => {
        await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 5 * DAY });
        expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'trialing' });
        await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 8 * DAY });
        return hooks.until(3);
      },
    );
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.trial_will_end',
      'customer.subscription.updated',
      'invoice.paid',
    ]);
    expect(events[0]?.data.object).toMatchObject({ id: subscription.id, status: 'trialing' });
    expect(events[1]?.data.previous_attributes).toMatchObject({ status: 'trialing' });
    expect(events[2]?.data.object).toMatchObject({
      billing_reason: 'subscription_cycle',
      amount_paid: 2000,
      subscription: subscription.id,
    });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'active',
      current_period_start: T0 + 7 * DAY,
      current_period_end: T0 + 7 * DAY + MONTH,
    });
    const invoices = (await stripe.invoices.list({ customer: customer.id })).data;
    expect(invoices.map((invoice) => [invoice.billing_reason, invoice.amount_paid])).toEqual([
      ['subscription_cycle', 2000],
      ['subscription_create', 0],
    ]);
  });

  it('fails a renewal charged to pm_card_chargeCustomerFail: past_due, the invoice open, retried later', async () => {
    const { clock, customer, subscription } = await subscribed(900);
    const failing = await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    await stripe.subscriptions.update(subscription.id, { default_payment_method: failing.id });
    const events = await listening(
      ['customer.subscription.updated', 'invoice.payment_failed', 'invoice.paid'],
      async (hooks) => {
        await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + MONTH + DAY });
        const open = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data[0] as Stripe.Invoice;
        expect(open).toMatchObject({
          billing_reason: 'subscription_cycle',
          status: 'open',
          paid: false,
          attempt_count: 1,
          amount_remaining: 900,
          next_payment_attempt: T0 + MONTH + 3 * DAY,
        });
        expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'past_due' });
        await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + MONTH + 4 * DAY });
        return hooks.until(4);
      },
    );
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.updated',
      'invoice.payment_failed',
      'customer.subscription.updated',
      'invoice.payment_failed',
    ]);
    expect(events[2]?.data.previous_attributes).toMatchObject({ status: 'active' });
    expect(events[3]?.data.object).toMatchObject({
      status: 'open',
      attempt_count: 2,
      next_payment_attempt: T0 + MONTH + 5 * DAY,
    });
    const retried = events[3]?.data.object as Stripe.Invoice;
    const intent = await stripe.paymentIntents.retrieve(retried.payment_intent as string);
    expect(intent).toMatchObject({ status: 'requires_payment_method', invoice: retried.id });
    expect(intent.last_payment_error).toMatchObject({ code: 'card_declined' });
  });

  it('cancels a subscription set to cancel at period end when its clock passes the end', async () => {
    const { clock, customer, subscription } = await subscribed(700);
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const events = await listening(['customer.subscription.deleted', 'invoice.created'], async (hooks) => {
      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + MONTH + DAY });
      return hooks.until(1);
    });
    expect(events.map((event) => event.type)).toEqual(['customer.subscription.deleted']);
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'canceled',
      ended_at: T0 + MONTH,
      cancel_at_period_end: true,
    });
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
  });
});
