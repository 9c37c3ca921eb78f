// The Stripe twin's billing calendar (issue #84) through stripe-node against the built daemon, on
// memory and on LevelDB: a subscription's periods are counted by the calendar from its
// billing_cycle_anchor in UTC, as Stripe's billing-cycle guide has it — the same day of the month,
// clamped to the month's end (an anchor on Jan 31 renews Feb 28, then Mar 31), `interval_count`
// months at a time, a year by the calendar — across a year of test-clock advances; and a proration
// is the rest of the period over the period's real length (28 days in February). The expected
// dates are written out by hand, not computed. Every process listens on 127.0.0.1.
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';

import { useDaemons } from './helpers/daemon.js';
import { stripeTwin } from './helpers/stripe.js';

useDaemons({ kill: 'file' });

/** A UTC date (and time) as Unix seconds. */
const at = (date: string) => Date.parse(`${date}Z`) / 1000;
/** Unix seconds as the UTC date and time Stripe's dashboard would show. */
const when = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16);

/** A year of monthly renewals from an anchor on the 15th at noon, by the calendar. */
const FROM_15TH = [
  '2026-02-15T12:00',
  '2026-03-15T12:00',
  '2026-04-15T12:00',
  '2026-05-15T12:00',
  '2026-06-15T12:00',
  '2026-07-15T12:00',
  '2026-08-15T12:00',
  '2026-09-15T12:00',
  '2026-10-15T12:00',
  '2026-11-15T12:00',
  '2026-12-15T12:00',
  '2027-01-15T12:00',
];
/** A year of monthly renewals from an anchor on Jan 31: each month's end where it has no 31st. */
const FROM_31ST = [
  '2026-02-28T00:00',
  '2026-03-31T00:00',
  '2026-04-30T00:00',
  '2026-05-31T00:00',
  '2026-06-30T00:00',
  '2026-07-31T00:00',
  '2026-08-31T00:00',
  '2026-09-30T00:00',
  '2026-10-31T00:00',
  '2026-11-30T00:00',
  '2026-12-31T00:00',
  '2027-01-31T00:00',
];

describe.each(['memory', 'level'] as const)("Stripe twin's billing calendar through stripe-node (%s)", (store) => {
  let stripe: Stripe;

  beforeAll(async () => {
    ({ stripe } = await stripeTwin(store));
  });

  /**
   * A clock at `start`, one customer on it paying by `pm_card_visa`, and its subscriptions to a
   * monthly, an every-3-months and a yearly price.
   */
  async function subscribedAt(start: string) {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: at(start) });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const subscribe = async (interval: 'month' | 'year', interval_count: number, unit_amount: number) => {
      const price = await stripe.prices.create({
        product_data: { name: `Every ${interval_count} ${interval}` },
        unit_amount,
        currency: 'usd',
        recurring: { interval, interval_count },
      });
      return stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        default_payment_method: 'pm_card_visa',
      });
    };
    const subscriptions = {
      monthly: await subscribe('month', 1, 1000),
      quarterly: await subscribe('month', 3, 2700),
      yearly: await subscribe('year', 1, 10000),
    };
    return { clock, subscriptions };
  }

  /**
   * Advances `clock` an hour past each of `renewals` in turn, and answers the period ends each
   * subscription went through, its first one included, checking that each period begins where
   * the one before it ended.
   */
  async function aYearOf(
    clock: Stripe.TestHelpers.TestClock,
    subscriptions: Record<string, Stripe.Subscription>,
    renewals: string[],
  ): Promise<Record<string, string[]>> {
    const ends: Record<string, string[]> = {};
    const record = async () => {
      for (const [name, made] of Object.entries(subscriptions)) {
        const now = await stripe.subscriptions.retrieve(made.id);
        const seen = ends[name] ?? [];
        ends[name] = seen;
        const end = when(now.current_period_end);
        if (seen.at(-1) !== end) seen.push(end);
        if (seen.length > 1) expect(when(now.current_period_start)).toBe(seen.at(-2));
      }
    };
    await record();
    for (const renewal of renewals) {
      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at(renewal) + 3600 });
      await record();
    }
    return ends;
  }

  it('renews on the 15th of each month, every 3 months and yearly from an anchor on the 15th', async () => {
    const { clock, subscriptions } = await subscribedAt('2026-01-15T12:00');
    expect(subscriptions.monthly).toMatchObject({
      billing_cycle_anchor: at('2026-01-15T12:00'),
      current_period_start: at('2026-01-15T12:00'),
      current_period_end: at('2026-02-15T12:00'),
    });
    const ends = await aYearOf(clock, subscriptions, FROM_15TH);
    expect(ends.monthly).toEqual([...FROM_15TH, '2027-02-15T12:00']);
    expect(ends.quarterly).toEqual([
      '2026-04-15T12:00',
      '2026-07-15T12:00',
      '2026-10-15T12:00',
      '2027-01-15T12:00',
      '2027-04-15T12:00',
    ]);
    expect(ends.yearly).toEqual(['2027-01-15T12:00', '2028-01-15T12:00']);
    // Each renewal's invoice bills the period that ended (period_*) and its lines the new one.
    const invoices = (await stripe.invoices.list({ subscription: subscriptions.quarterly.id, limit: 100 })).data;
    expect(
      invoices.map((invoice) => [invoice.billing_reason, when(invoice.period_start), invoice.amount_paid]),
    ).toEqual([
      ['subscription_cycle', '2026-10-15T12:00', 2700],
      ['subscription_cycle', '2026-07-15T12:00', 2700],
      ['subscription_cycle', '2026-04-15T12:00', 2700],
      ['subscription_cycle', '2026-01-15T12:00', 2700],
      ['subscription_create', '2026-01-15T12:00', 2700],
    ]);
    expect(invoices[0]?.lines.data[0]?.period).toEqual({ start: at('2027-01-15T12:00'), end: at('2027-04-15T12:00') });
    const monthly = await stripe.invoices.list({ subscription: subscriptions.monthly.id, limit: 100 });
    expect(monthly.data).toHaveLength(13);
  });

  it("clamps an anchor on Jan 31 to each month's end and keeps returning to the 31st", async () => {
    const { clock, subscriptions } = await subscribedAt('2026-01-31T00:00');
    const ends = await aYearOf(clock, subscriptions, FROM_31ST);
    expect(ends.monthly).toEqual([...FROM_31ST, '2027-02-28T00:00']);
    expect(ends.quarterly).toEqual([
      '2026-04-30T00:00',
      '2026-07-31T00:00',
      '2026-10-31T00:00',
      '2027-01-31T00:00',
      '2027-04-30T00:00',
    ]);
    expect(ends.yearly).toEqual(['2027-01-31T00:00', '2028-01-31T00:00']);
    // The clock may move two intervals of its shortest subscription by the calendar: to Mar 31, not Apr 1.
    const far = await stripe.testHelpers.testClocks
      .advance(clock.id, { frozen_time: at('2027-03-31T01:00') + 1 })
      .catch((error: unknown) => error);
    expect(far).toMatchObject({ statusCode: 400, param: 'frozen_time' });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at('2027-03-31T01:00') });
    expect(when((await stripe.subscriptions.retrieve(subscriptions.monthly.id)).current_period_end)).toBe(
      '2027-04-30T00:00',
    );
  });

  it("prorates over the period's real length: half of February is 14 of its 28 days", async () => {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: at('2026-02-01T00:00') });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const product = await stripe.products.create({ name: 'Seat' });
    const monthly = (unit_amount: number) =>
      stripe.prices.create({ product: product.id, unit_amount, currency: 'usd', recurring: { interval: 'month' } });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: (await monthly(2800)).id }],
      default_payment_method: 'pm_card_visa',
    });
    expect(when(subscription.current_period_end)).toBe('2026-03-01T00:00');
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at('2026-02-15T00:00') });
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    await stripe.subscriptions.update(subscription.id, { items: [{ id: item.id, price: (await monthly(5600)).id }] });
    const pending = (await stripe.invoiceItems.list({ customer: customer.id })).data;
    expect(pending.map((one) => one.amount).sort((a, b) => a - b)).toEqual([-1400, 2800]);
    expect(pending.map((one) => one.period)).toEqual([
      { start: at('2026-02-15T00:00'), end: at('2026-03-01T00:00') },
      { start: at('2026-02-15T00:00'), end: at('2026-03-01T00:00') },
    ]);
  });
});
