/**
 * Saving cards with the Stripe twin through stripe-node against the real daemon (#72): payment
 * methods attached and detached, SetupIntents confirmed as their test cards say, and a saved card
 * paying later as its test card does.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

async function stripeTwin(store: 'level' | 'redis'): Promise<Stripe> {
  const { port } = await twinDaemon('stripe', await twinRedis.store(store));
  return new Stripe('sk_test_123', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
}

/** What stripe-node throws for `call`. */
async function thrown(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Stripe.errors.StripeError);
  return error as Stripe.errors.StripeError;
}

describe.each(['level', 'redis'] as const)('saving cards through stripe-node (%s)', (store) => {
  it('attaches a test card as a new PaymentMethod of the customer, refuses a declining one, detaches', async () => {
    const stripe = await stripeTwin(store);
    const customer = await stripe.customers.create({ email: 'saves@example.com' });
    const attached = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    expect(attached.id).toMatch(/^pm_(?!card_)/);
    expect([attached.customer, attached.type, attached.card?.brand, attached.card?.last4]).toEqual([
      customer.id,
      'card',
      'mastercard',
      '4444',
    ]);
    expect((await stripe.paymentMethods.retrieve(attached.id)).customer).toBe(customer.id);
    const listed = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(listed.data.map((one) => one.id)).toEqual([attached.id]);

    const declined = await thrown(stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: customer.id }));
    expect([declined.statusCode, declined.type, declined.code]).toEqual([402, 'StripeCardError', 'card_declined']);

    const other = await stripe.customers.create({ email: 'other@example.com' });
    const taken = await thrown(stripe.paymentMethods.attach(attached.id, { customer: other.id }));
    expect(taken.statusCode).toBe(400);

    const detached = await stripe.paymentMethods.detach(attached.id);
    expect(detached.customer).toBeNull();
    expect((await thrown(stripe.paymentMethods.detach(attached.id))).statusCode).toBe(400);

    const made = await stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_amex' } });
    expect([made.type, made.card?.brand, made.card?.last4, made.customer]).toEqual(['card', 'amex', '0005', null]);

    // A PaymentMethod made sends nothing: Stripe has no payment_method.created.
    const types = (await stripe.events.list({ limit: 100 })).data.map((event) => event.type);
    expect(types.filter((type) => type.startsWith('payment_method.')).sort()).toEqual([
      'payment_method.attached',
      'payment_method.detached',
    ]);
  });

  it('confirms SetupIntents as their cards say, and a saved card pays as its test card', async () => {
    const stripe = await stripeTwin(store);
    const customer = await stripe.customers.create({ email: 'setup@example.com' });
    const open = await stripe.setupIntents.create({ customer: customer.id });
    expect(open.status).toBe('requires_payment_method');
    expect(open.client_secret).toMatch(new RegExp(`^${open.id}_secret_`));

    const saved = await stripe.setupIntents.confirm(open.id, { payment_method: 'pm_card_chargeCustomerFail' });
    expect(saved.status).toBe('succeeded');
    const method = await stripe.paymentMethods.retrieve(saved.payment_method as string);
    expect([method.customer, method.card?.last4]).toEqual([customer.id, '0341']);

    const failing = await thrown(
      stripe.setupIntents.create({
        customer: customer.id,
        payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
        confirm: true,
      }),
    );
    expect([failing.statusCode, failing.code, failing.decline_code]).toEqual([
      402,
      'card_declined',
      'insufficient_funds',
    ]);
    const kept = (failing.raw as { setup_intent: Stripe.SetupIntent }).setup_intent;
    expect(kept.status).toBe('requires_payment_method');
    expect(kept.last_setup_error?.decline_code).toBe('insufficient_funds');

    const secure = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      confirm: true,
    });
    expect([secure.status, secure.next_action?.type]).toEqual(['requires_action', 'use_stripe_sdk']);
    expect((await stripe.setupIntents.cancel(secure.id)).status).toBe('canceled');
    expect((await thrown(stripe.setupIntents.confirm(secure.id))).code).toBe('setup_intent_unexpected_state');

    // The saved card attaches, then declines each charge (pm_card_chargeCustomerFail).
    const charged = await thrown(
      stripe.paymentIntents.create({
        amount: 900,
        currency: 'usd',
        customer: customer.id,
        payment_method: method.id,
        confirm: true,
        off_session: true,
      }),
    );
    expect([charged.statusCode, charged.code]).toEqual([402, 'card_declined']);
    const visa = await stripe.paymentMethods.attach('pm_card_visa_debit', { customer: customer.id });
    const paid = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      customer: customer.id,
      payment_method: visa.id,
      confirm: true,
    });
    expect(paid.status).toBe('succeeded');
    const charge = await stripe.charges.retrieve(paid.latest_charge as string);
    expect([charge.payment_method, charge.payment_method_details?.card?.last4]).toEqual([visa.id, '5556']);

    const types = (await stripe.events.list({ limit: 100 })).data.map((event) => event.type);
    for (const type of [
      'setup_intent.created',
      'setup_intent.succeeded',
      'setup_intent.setup_failed',
      'setup_intent.requires_action',
      'setup_intent.canceled',
      'payment_method.attached',
    ]) {
      expect(types, type).toContain(type);
    }
  });
});
