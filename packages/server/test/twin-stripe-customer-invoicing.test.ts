// A Stripe customer's invoicing on the twin (issue #84), through stripe-node against the built
// daemon, on memory and on LevelDB: its `invoice_prefix`, `next_invoice_sequence` and `delinquent`
// as Stripe keeps them while its invoices are numbered and paid (or not), and a subscription's
// `payment_settings.save_default_payment_method: on_subscription` saving the method that paid.
// Every process listens on 127.0.0.1.
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';

import { useDaemons } from './helpers/daemon.js';
import { monthlyPrice, stripeTwin } from './helpers/stripe.js';

useDaemons({ kill: 'file' });

const DAY = 86_400;
/** 2026-01-01T00:00:00Z. */
const T0 = 1_767_225_600;

describe.each(['memory', 'level'] as const)("a Stripe customer's invoicing on the twin (%s)", (store) => {
  let stripe: Stripe;

  beforeAll(async () => {
    ({ stripe } = await stripeTwin(store));
  });

  it('numbers its invoices from its prefix and sequence, and keeps a prefix sent', async () => {
    const customer = await stripe.customers.create({ email: 'numbers@example.com' });
    expect(customer.invoice_prefix).toMatch(/^[0-9A-Z]{8}$/);
    expect([customer.next_invoice_sequence, customer.delinquent]).toEqual([1, false]);
    const price = await monthlyPrice(stripe, 900);
    const numbers: (string | null)[] = [];
    for (let n = 0; n < 2; n++) {
      const made = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        default_payment_method: 'pm_card_visa',
        expand: ['latest_invoice'],
      });
      numbers.push((made.latest_invoice as Stripe.Invoice).number);
    }
    expect(numbers).toEqual([`${customer.invoice_prefix}-0001`, `${customer.invoice_prefix}-0002`]);
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ next_invoice_sequence: 3, delinquent: false });
    const named = await stripe.customers.create({ invoice_prefix: 'ACME42' });
    expect(named.invoice_prefix).toBe('ACME42');
  });

  it('is delinquent after a renewal fails and no longer once a retry pays it', async () => {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0 });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: (await monthlyPrice(stripe, 700)).id }],
      default_payment_method: 'pm_card_visa',
    });
    const failing = await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    await stripe.subscriptions.update(subscription.id, { default_payment_method: failing.id });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 31 * DAY + 3600 });
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ delinquent: true, next_invoice_sequence: 3 });
    const open = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data[0] as Stripe.Invoice;
    expect([open.status, open.number]).toEqual(['open', `${customer.invoice_prefix}-0002`]);
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    await stripe.subscriptions.update(subscription.id, { default_payment_method: card.id });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: T0 + 35 * DAY });
    expect((await stripe.invoices.retrieve(open.id)).status).toBe('paid');
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ delinquent: false });
  });

  it('saves the method that paid as the default with save_default_payment_method on_subscription', async () => {
    const customer = await stripe.customers.create({ email: 'saves@example.com' });
    const price = await monthlyPrice(stripe, 1100);
    const waiting = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.payment_intent'],
    });
    expect([waiting.status, waiting.default_payment_method]).toEqual(['incomplete', null]);
    const intent = (waiting.latest_invoice as Stripe.Invoice).payment_intent as Stripe.PaymentIntent;
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    expect(await stripe.subscriptions.retrieve(waiting.id)).toMatchObject({
      status: 'active',
      default_payment_method: 'pm_card_visa',
    });
    // Paid at once by the customer's default: saved on the subscription too; without the setting, not.
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    const saved = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_settings: { save_default_payment_method: 'on_subscription' },
    });
    expect([saved.status, saved.default_payment_method]).toEqual(['active', card.id]);
    const plain = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    expect([plain.status, plain.default_payment_method]).toEqual(['active', null]);
  });
});
