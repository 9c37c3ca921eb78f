/**
 * Stripe's declining test payment methods through stripe-node against the real daemon (#72):
 * each declines as Stripe's testing page says (error code, decline code, words), with the failed
 * Charge Stripe keeps (`charge.failed` carries a Charge, not the intent) and `err.raw.payment_intent`.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** Each method, the error's code and decline code, and the card's last four digits. */
const DECLINES: [string, string, string | undefined, string][] = [
  ['pm_card_visa_chargeDeclined', 'card_declined', 'generic_decline', '0002'],
  ['pm_card_chargeDeclinedInsufficientFunds', 'card_declined', 'insufficient_funds', '9995'],
  ['pm_card_visa_chargeDeclinedLostCard', 'card_declined', 'lost_card', '9987'],
  ['pm_card_visa_chargeDeclinedStolenCard', 'card_declined', 'stolen_card', '9979'],
  ['pm_card_chargeDeclinedExpiredCard', 'expired_card', undefined, '0069'],
  ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', undefined, '0127'],
  ['pm_card_chargeDeclinedProcessingError', 'processing_error', undefined, '0119'],
  ['pm_card_visa_chargeDeclinedVelocityLimitExceeded', 'card_declined', 'card_velocity_exceeded', '6975'],
  ['pm_card_radarBlock', 'card_declined', 'fraudulent', '0019'],
];

describe.each(['level', 'redis'] as const)('declining test cards through stripe-node (%s)', (store) => {
  it('each declines with its own code and reason, a failed Charge kept, the intent back for a new method', async () => {
    const { port } = await twinDaemon('stripe', await twinRedis.store(store));
    const stripe = new Stripe('sk_test_123', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    const customer = await stripe.customers.create({ email: 'declines@example.com' });
    for (const [method, code, reason, last4] of DECLINES) {
      const error = await stripe.paymentIntents
        .create({ amount: 1200, currency: 'usd', customer: customer.id, payment_method: method, confirm: true })
        .catch((e: unknown) => e);
      expect(error, method).toBeInstanceOf(Stripe.errors.StripeCardError);
      const card = error as Stripe.errors.StripeCardError;
      expect([card.statusCode, card.code, card.decline_code], method).toEqual([402, code, reason]);
      const raw = card.raw as {
        doc_url?: string;
        payment_intent: Stripe.PaymentIntent;
        payment_method?: Stripe.PaymentMethod;
        charge?: string;
      };
      expect(raw.doc_url).toBe(`https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`);
      const intent = raw.payment_intent;
      expect(intent.status, method).toBe('requires_payment_method');
      expect(raw.payment_method?.card?.last4, method).toBe(last4);
      const chargeId = intent.latest_charge as string;
      expect(raw.charge, method).toBe(chargeId);
      expect(intent.last_payment_error).toMatchObject({ type: 'card_error', code, charge: chargeId });

      const charge = await stripe.charges.retrieve(chargeId);
      expect(charge, method).toMatchObject({
        status: 'failed',
        paid: false,
        captured: false,
        failure_code: code,
        failure_message: card.message,
        payment_intent: intent.id,
        customer: customer.id,
        outcome: { reason: reason ?? code },
      });
      expect(charge.payment_method_details?.card?.last4).toBe(last4);
      // The intent as kept: a new payment method pays it.
      const retried = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
      expect(retried.status, method).toBe('succeeded');
    }
    const messages = new Set<string>();
    for (const [method] of DECLINES.slice(0, 2)) {
      const e = (await stripe.paymentIntents
        .create({ amount: 100, currency: 'usd', payment_method: method, confirm: true })
        .catch((x: unknown) => x)) as Stripe.errors.StripeCardError;
      messages.add(e.message);
    }
    expect(messages).toEqual(new Set(['Your card was declined.', 'Your card has insufficient funds.']));

    // `charge.failed` is about the failed Charge; `payment_intent.payment_failed` about the intent.
    const failed = await stripe.events.list({ type: 'charge.failed', limit: 100 });
    expect(failed.data.length).toBe(DECLINES.length + 2);
    for (const event of failed.data) {
      expect((event.data.object as { object: string; status: string }).object).toBe('charge');
      expect((event.data.object as { status: string }).status).toBe('failed');
    }
    const intentsFailed = await stripe.events.list({ type: 'payment_intent.payment_failed', limit: 100 });
    expect(intentsFailed.data.length).toBe(DECLINES.length + 2);
    expect(
      intentsFailed.data.every((event) => (event.data.object as { object: string }).object === 'payment_intent'),
    ).toBe(true);
  });
});
