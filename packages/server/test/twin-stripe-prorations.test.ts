// Prorations of a Subscription's item change on the Stripe twin (docs/twins.md, "Subscriptions";
// #72), through stripe-node 23 against the built daemon on memory and LevelDB, on a test clock so
// that the rest of the period is known (by the calendar: February's 28 days, April's 30): an
// upgrade halfway through a month credits the unused half
// of the old price and debits the rest of the new as pending invoice items, billed on the renewal's
// invoice; `always_invoice` bills them at once; `none` makes none; another value is Stripe's 400.
import Stripe from 'stripe-23';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';

useDaemons();

const FEBRUARY = 1_769_904_000; // 2026-02-01T00:00:00Z: a month of 28 days
const APRIL = 1_775_001_600; // 2026-04-01T00:00:00Z: a month of 30 days
const DAY = 86_400;

/** A twin, and a customer on a clock at `start` subscribed monthly to `amount` (pm_card_visa). */
async function subscribed(store: 'memory' | 'level', amount: number, start: number) {
  const { port } = await twinDaemon('stripe', store);
  const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
  const customer = await stripe.customers.create({ email: 'prorate@example.com', test_clock: clock.id });
  const product = await stripe.products.create({ name: 'Seat' });
  const monthly = (unit: number) =>
    stripe.prices.create({ product: product.id, unit_amount: unit, currency: 'usd', recurring: { interval: 'month' } });
  const price = await monthly(amount);
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    default_payment_method: 'pm_card_visa',
  });
  const item = (subscription.items.data[0] as Stripe.SubscriptionItem).id;
  return { stripe, clock, customer, subscription, item, monthly };
}

describe.each(['memory', 'level'] as const)('prorations on the Stripe twin (%s)', (store) => {
  it('credits the unused half and debits the rest as pending items, billed on the renewal', async () => {
    const T0 = FEBRUARY;
    const { stripe, clock, customer, subscription, item, monthly } = await subscribed(store, 3000, T0);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 14 * DAY });
    const bigger = await monthly(6000);
    await stripe.subscriptions.update(subscription.id, { items: [{ id: item, price: bigger.id }] });
    const pending = (await stripe.invoiceItems.list({ customer: customer.id })).data;
    expect(
      pending
        .map((one) => [one.amount, one.proration, one.description, one.invoice])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [-1500, true, 'Unused time on Seat after 15 Feb 2026', null],
      [3000, true, 'Remaining time on Seat after 15 Feb 2026', null],
    ]);
    expect(pending.every((one) => one.period.start === T0 + 14 * DAY && one.period.end === T0 + 28 * DAY)).toBe(true);
    // The renewal's invoice bills the new price for the next month and the prorations: 6000 + 1500.
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 29 * DAY });
    const renewed = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    const invoice = renewed.latest_invoice as Stripe.Invoice;
    expect([invoice.billing_reason, invoice.amount_due, invoice.status]).toEqual(['subscription_cycle', 7500, 'paid']);
    expect(invoice.lines.data.map((line) => line.amount).sort((a, b) => a - b)).toEqual([-1500, 3000, 6000]);
    const billed = (await stripe.invoiceItems.list({ customer: customer.id })).data;
    expect(billed.map((one) => one.invoice)).toEqual([invoice.id, invoice.id]);
  });

  it('bills them at once with always_invoice, makes none with none, and refuses another value', async () => {
    const { stripe, clock, customer, subscription, item } = await subscribed(store, 3000, APRIL);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: APRIL + 20 * DAY });
    // A third of the month left: two seats instead of one debit 3000 × 2 / 3, credit 3000 / 3.
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item, quantity: 2 }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect([invoice.billing_reason, invoice.amount_due, invoice.status]).toEqual(['subscription_update', 1000, 'paid']);
    expect(invoice.lines.data.map((line) => line.amount).sort((a, b) => a - b)).toEqual([-1000, 2000]);
    expect((updated.items.data[0] as Stripe.SubscriptionItem).quantity).toBe(2);
    const none = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item, quantity: 3 }],
      proration_behavior: 'none',
    });
    expect((none.items.data[0] as Stripe.SubscriptionItem).quantity).toBe(3);
    expect((await stripe.invoiceItems.list({ customer: customer.id })).data).toHaveLength(2);
    const refused = await stripe.subscriptions
      .update(subscription.id, {
        items: [{ id: item, quantity: 4 }],
        proration_behavior: 'sometimes' as Stripe.SubscriptionUpdateParams.ProrationBehavior,
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 400, param: 'proration_behavior' });
    expect(
      ((await stripe.subscriptions.retrieve(subscription.id)).items.data[0] as Stripe.SubscriptionItem).quantity,
    ).toBe(3);
  });
});
