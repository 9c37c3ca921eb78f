// SEPA Direct Debit, a delayed notification payment method, through stripe-node 23 against the
// built daemon's Stripe twin (docs/twins.md; #72), on memory and LevelDB: a PaymentMethod made of a
// test IBAN, a PaymentIntent confirmed with a mandate answered `processing` and then moved as the
// IBAN says (succeeded, failed with its code, disputed, or, for a delayed one, by the twin's settle
// helper), a Checkout Session completed `unpaid` then told by `checkout.session.async_payment_*`,
// and `mockpoint trigger stripe` of those events. Every delivery is read by constructEvent.
import { createClient } from '@mockpoint/core';
import Stripe from 'stripe-23';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { hookReceiver, twinDaemon } from './helpers/twin.js';

useDaemons();

type Hooks = Awaited<ReturnType<typeof hookReceiver>>;

/** A twin on `store`, stripe-node 23 at it, and an endpoint taking every event at `hooks`. */
async function sepaTwin(store: 'memory' | 'level', hooks: Hooks) {
  const twin = await twinDaemon('stripe', store);
  const options = { host: '127.0.0.1', port: twin.port, protocol: 'http', maxNetworkRetries: 0 } as const;
  const stripe = new Stripe('sk_test_1', options);
  const endpoint = await stripe.webhookEndpoints.create({ url: hooks.url, enabled_events: ['*'] });
  /** The types of the events the twin made, oldest first, each delivered and verified. */
  const types = async (): Promise<string[]> => {
    const made = (await stripe.events.list({ limit: 100 })).data.reverse();
    await hooks.until(made.length);
    for (const { body, headers } of hooks.received) {
      stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), endpoint.secret as string);
    }
    return made.map((event) => event.type);
  };
  return { ...twin, stripe, options, types };
}

/** A SEPA PaymentMethod of test IBAN `iban`. */
function sepaMethod(stripe: Stripe, iban: string) {
  return stripe.paymentMethods.create({
    type: 'sepa_debit',
    sepa_debit: { iban },
    billing_details: { name: 'Jenny Rosen', email: 'jenny@example.com' },
  });
}

/** A €10 PaymentIntent confirmed at once with SEPA PaymentMethod `method` and an offline mandate. */
function debit(stripe: Stripe, method: string, currency = 'eur') {
  return stripe.paymentIntents.create({
    amount: 1000,
    currency,
    allowed_payment_method_types: ['sepa_debit'],
    payment_method: method,
    confirm: true,
    mandate_data: { customer_acceptance: { type: 'offline' } },
  });
}

describe.each(['memory', 'level'] as const)('SEPA Direct Debit on the Stripe twin (%s)', (store) => {
  it('makes a debit processing, then succeeded, with its pending charge, mandate and events in order', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, types } = await sepaTwin(store, hooks);
      const method = await sepaMethod(stripe, 'AT61 1904 3002 3457 3201');
      expect(method).toMatchObject({
        type: 'sepa_debit',
        sepa_debit: { country: 'AT', last4: '3201', bank_code: '19043' },
        billing_details: { name: 'Jenny Rosen', email: 'jenny@example.com' },
      });
      expect(method.sepa_debit?.fingerprint).toMatch(/^[A-Za-z0-9]{16}$/);
      const intent = await debit(stripe, method.id);
      // Stripe answers the confirm `processing`: the funds are not there yet.
      expect(intent.status).toBe('processing');
      const settled = await stripe.paymentIntents.retrieve(intent.id);
      expect([settled.status, settled.amount_received]).toEqual(['succeeded', 1000]);
      const charge = await stripe.charges.retrieve(String(settled.latest_charge));
      expect(charge).toMatchObject({ status: 'succeeded', paid: true, amount: 1000, currency: 'eur' });
      expect(charge.payment_method_details).toMatchObject({
        type: 'sepa_debit',
        sepa_debit: { country: 'AT', last4: '3201', mandate: expect.stringMatching(/^mandate_/) },
      });
      // No payment_method.created: Stripe has no such event.
      expect(await types()).toEqual([
        'payment_intent.created',
        'payment_intent.processing',
        'charge.pending',
        'payment_intent.succeeded',
        'charge.succeeded',
      ]);
    } finally {
      await hooks.close();
    }
  });

  it('fails a debit of a failing IBAN with its code, disputes a disputed one, and refuses what Stripe refuses', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, types } = await sepaTwin(store, hooks);
      const failing = await debit(stripe, (await sepaMethod(stripe, 'AT861904300235473202')).id);
      expect(failing.status).toBe('processing');
      const failed = await stripe.paymentIntents.retrieve(failing.id);
      expect([failed.status, failed.last_payment_error?.code]).toEqual([
        'requires_payment_method',
        'generic_could_not_process',
      ]);
      const failedCharge = await stripe.charges.retrieve(String(failed.latest_charge));
      expect([failedCharge.status, failedCharge.failure_code]).toEqual(['failed', 'generic_could_not_process']);
      const poor = await debit(stripe, (await sepaMethod(stripe, 'DE65370400440002222227')).id);
      expect((await stripe.paymentIntents.retrieve(poor.id)).last_payment_error?.code).toBe('insufficient_funds');
      const disputed = await debit(stripe, (await sepaMethod(stripe, 'DE35370400440532013002')).id);
      const paid = await stripe.paymentIntents.retrieve(disputed.id);
      expect(paid.status).toBe('succeeded');
      expect((await stripe.charges.retrieve(String(paid.latest_charge))).disputed).toBe(true);
      const [dispute] = (await stripe.disputes.list()).data;
      expect(dispute).toMatchObject({ charge: paid.latest_charge, status: 'lost', is_charge_refundable: false });
      const told = await types();
      expect(told.filter((type) => type === 'payment_intent.payment_failed')).toHaveLength(2);
      expect(told.filter((type) => type === 'charge.failed')).toHaveLength(2);
      expect(told).toContain('charge.dispute.created');

      // Refused as Stripe refuses: an IBAN that is none, no holder's name, not eur, no mandate.
      const refusal = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);
      expect(await refusal(sepaMethod(stripe, 'AT611904300234573200'))).toMatchObject({
        statusCode: 400,
        code: 'invalid_bank_account_iban',
        param: 'sepa_debit[iban]',
      });
      expect(
        await refusal(
          stripe.paymentMethods.create({ type: 'sepa_debit', sepa_debit: { iban: 'AT611904300234573201' } }),
        ),
      ).toMatchObject({ statusCode: 400, param: 'billing_details[name]' });
      const good = (await sepaMethod(stripe, 'AT611904300234573201')).id;
      expect(await refusal(debit(stripe, good, 'usd'))).toMatchObject({ statusCode: 400, param: 'currency' });
      const unmandated = stripe.paymentIntents.create({
        amount: 1000,
        currency: 'eur',
        payment_method: good,
        confirm: true,
      });
      expect(await refusal(unmandated)).toMatchObject({ statusCode: 400, param: 'mandate_data' });
      // A subscription is not paid by a SEPA debit here: refused, not charged as a card.
      const customer = await stripe.customers.create({ email: 'sepa@example.com' });
      const monthly = await stripe.prices.create({
        product_data: { name: 'Plan' },
        unit_amount: 900,
        currency: 'eur',
        recurring: { interval: 'month' },
      });
      const subscribing = stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: monthly.id }],
        default_payment_method: good,
      });
      expect(await refusal(subscribing)).toMatchObject({ statusCode: 400, param: 'default_payment_method' });
      expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    } finally {
      await hooks.close();
    }
  });

  it('keeps a delayed IBAN processing until the settle helper moves it; a confirm of a later intent too', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, options } = await sepaTwin(store, hooks);
      const delayed = await debit(stripe, (await sepaMethod(stripe, 'AT321904300235473204')).id);
      expect((await stripe.paymentIntents.retrieve(delayed.id)).status).toBe('processing');
      const settle = (id: string) =>
        fetch(`http://127.0.0.1:${options.port}/v1/test_helpers/payment_intents/${id}/settle`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk_test_1' },
        });
      const moved = await settle(delayed.id);
      expect([moved.status, ((await moved.json()) as { status: string }).status]).toEqual([200, 'succeeded']);
      expect((await stripe.paymentIntents.retrieve(delayed.id)).status).toBe('succeeded');
      // Only a processing SEPA payment settles; an unknown intent is Stripe's 404.
      expect((await settle(delayed.id)).status).toBe(400);
      expect((await settle('pi_never')).status).toBe(404);
      // A PaymentIntent made first and confirmed later, with a delayed failing IBAN.
      const later = await stripe.paymentIntents.create({
        amount: 500,
        currency: 'eur',
        allowed_payment_method_types: ['sepa_debit'],
      });
      const method = await sepaMethod(stripe, 'DE78370400440532013004');
      const confirmed = await stripe.paymentIntents.confirm(later.id, {
        payment_method: method.id,
        mandate_data: { customer_acceptance: { type: 'offline' } },
      });
      expect(confirmed.status).toBe('processing');
      await settle(later.id);
      expect((await stripe.paymentIntents.retrieve(later.id)).last_payment_error?.code).toBe(
        'generic_could_not_process',
      );
    } finally {
      await hooks.close();
    }
  });

  it('completes a Checkout Session unpaid and tells its outcome with async_payment_succeeded or _failed', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, options, types } = await sepaTwin(store, hooks);
      const price = await stripe.prices.create({ product_data: { name: 'Tee' }, unit_amount: 1500, currency: 'eur' });
      const complete = async (iban: string) => {
        const session = await stripe.checkout.sessions.create({
          mode: 'payment',
          allowed_payment_method_types: ['sepa_debit'],
          line_items: [{ price: price.id, quantity: 2 }],
          success_url: 'https://example.com/done',
        });
        const method = await sepaMethod(stripe, iban);
        const answer = await fetch(
          `http://127.0.0.1:${options.port}/v1/test_helpers/checkout/sessions/${session.id}/complete`,
          {
            method: 'POST',
            headers: { authorization: 'Bearer sk_test_1', 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ payment_method: method.id }),
          },
        );
        const completed = (await answer.json()) as { status: string; payment_status: string };
        expect([answer.status, completed.status, completed.payment_status]).toEqual([200, 'complete', 'unpaid']);
        return stripe.checkout.sessions.retrieve(session.id);
      };
      const paid = await complete('AT611904300234573201');
      expect([paid.status, paid.payment_status]).toEqual(['complete', 'paid']);
      const intent = await stripe.paymentIntents.retrieve(String(paid.payment_intent));
      expect([intent.status, intent.amount, intent.payment_method_types]).toEqual(['succeeded', 3000, ['sepa_debit']]);
      const unpaid = await complete('AT861904300235473202');
      expect([unpaid.status, unpaid.payment_status]).toEqual(['complete', 'unpaid']);
      const told = (await types()).filter((type) => type.startsWith('checkout.session.'));
      expect(told).toEqual([
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
        'checkout.session.completed',
        'checkout.session.async_payment_failed',
      ]);
      // A card-only session cannot be paid by a SEPA debit, nor a session by a declining card.
      const card = await stripe.checkout.sessions.create({
        mode: 'payment',
        allowed_payment_method_types: ['card'],
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: 'https://example.com/done',
      });
      const sepa = await sepaMethod(stripe, 'AT611904300234573201');
      for (const payment_method of [sepa.id, 'pm_card_chargeDeclined']) {
        const refused = await fetch(
          `http://127.0.0.1:${options.port}/v1/test_helpers/checkout/sessions/${card.id}/complete`,
          {
            method: 'POST',
            headers: { authorization: 'Bearer sk_test_1', 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ payment_method }),
          },
        );
        const { error } = (await refused.json()) as { error: { param: string } };
        expect([payment_method, refused.status, error.param]).toEqual([payment_method, 400, 'payment_method']);
      }
      expect((await stripe.checkout.sessions.retrieve(card.id)).status).toBe('open');
    } finally {
      await hooks.close();
    }
  });
});

describe('payment_method_types, which endive took away', () => {
  it("is refused from 2026-09-30.endive with its changelog's code, and taken by an older version", async () => {
    const hooks = await hookReceiver();
    const { options } = await sepaTwin('memory', hooks);
    await hooks.close();
    const create = (version: string, form: Record<string, string>) =>
      fetch(`http://127.0.0.1:${options.port}/v1/payment_intents`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk_test_1',
          'content-type': 'application/x-www-form-urlencoded',
          'stripe-version': version,
        },
        body: new URLSearchParams({ amount: '1000', currency: 'eur', ...form }),
      });
    const refused = await create('2026-10-28.endive', { 'payment_method_types[0]': 'sepa_debit' });
    expect([refused.status, ((await refused.json()) as { error: unknown }).error]).toEqual([
      400,
      expect.objectContaining({ code: 'payment_method_types_no_longer_supported', param: 'payment_method_types' }),
    ]);
    const older = await create('2026-08-26.dahlia', { 'payment_method_types[0]': 'sepa_debit' });
    expect([older.status, ((await older.json()) as { payment_method_types: unknown }).payment_method_types]).toEqual([
      200,
      ['sepa_debit'],
    ]);
    const today = await create('2026-10-28.endive', { 'allowed_payment_method_types[0]': 'sepa_debit' });
    expect([today.status, ((await today.json()) as { payment_method_types: unknown }).payment_method_types]).toEqual([
      200,
      ['sepa_debit'],
    ]);
  });
});

describe('mockpoint trigger stripe of the SEPA events', () => {
  it('sends payment_intent.processing, charge.pending and checkout.session.async_payment_* made through the flows', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, daemon, name, types } = await sepaTwin('memory', hooks);
      const client = createClient({ baseUrl: daemon.url });
      for (const event of [
        'payment_intent.processing',
        'charge.pending',
        'checkout.session.async_payment_succeeded',
        'checkout.session.async_payment_failed',
      ]) {
        const sent = await client.triggerTwin(name, { event });
        expect(
          sent.events.map((one) => one.type),
          event,
        ).toContain(event);
      }
      const told = await types();
      expect(told).toEqual(
        expect.arrayContaining([
          'payment_intent.processing',
          'charge.pending',
          'checkout.session.async_payment_succeeded',
          'checkout.session.async_payment_failed',
        ]),
      );
      // The processing one stays so (the Stripe CLI's IBAN settles only after three minutes).
      const intents = (await stripe.paymentIntents.list({ limit: 10 })).data;
      expect(intents.map((one) => one.status)).toContain('processing');
    } finally {
      await hooks.close();
    }
  });
});
