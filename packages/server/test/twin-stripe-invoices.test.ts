// An Invoice's life after its draft on the Stripe twin (docs/twins.md, "Invoices"; #72), through
// stripe-node 23 against the built daemon on memory and LevelDB: finalize (a number, its pages, a
// PaymentIntent; nothing due: paid at once), pay (by the customer's default, a declining card's 402,
// 3-D Secure's, out of band), void, mark uncollectible, send (send_invoice only), delete (drafts
// only), each refused as Stripe refuses it in another status, and the events each sends, delivered
// and verified by constructEvent; a subscription's open invoice paid makes it active.
import { createClient } from '@mockpoint/core';
import Stripe from 'stripe-23';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { hookReceiver, twinDaemon } from './helpers/twin.js';

useDaemons();

type Hooks = Awaited<ReturnType<typeof hookReceiver>>;

async function invoicing(store: 'memory' | 'level', hooks: Hooks) {
  const { port, daemon, name } = await twinDaemon('stripe', store);
  const stripe = new Stripe('sk_test_1', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  const endpoint = await stripe.webhookEndpoints.create({ url: hooks.url, enabled_events: ['*'] });
  const customer = await stripe.customers.create({ email: 'bills@example.com' });
  const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
  /** A draft of one pending item of `amount` (none: nothing due). */
  const draft = async (amount?: number, extra: Partial<Stripe.InvoiceCreateParams> = {}) => {
    if (amount !== undefined) await stripe.invoiceItems.create({ customer: customer.id, amount, currency: 'usd' });
    return stripe.invoices.create({ customer: customer.id, pending_invoice_items_behavior: 'include', ...extra });
  };
  /** The types of the events made so far, oldest first, each delivered and verified. */
  const types = async (): Promise<string[]> => {
    const made = (await stripe.events.list({ limit: 100 })).data.reverse();
    await hooks.until(made.length);
    for (const { body, headers } of hooks.received) {
      stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), endpoint.secret as string);
    }
    return made.map((event) => event.type);
  };
  return { stripe, customer, draft, types, daemon, name };
}

const refusal = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);

describe.each(['memory', 'level'] as const)('an invoice after its draft (%s)', (store) => {
  it('finalizes, pays by the default card, and sends each event; refuses what a status forbids', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, draft, types } = await invoicing(store, hooks);
      const made = await draft(2000);
      const open = await stripe.invoices.finalizeInvoice(made.id);
      expect(open).toMatchObject({ status: 'open', amount_due: 2000, amount_paid: 0 });
      expect(open.number).toMatch(/^[A-Z0-9]{8}-0001$/);
      expect(open.hosted_invoice_url).toMatch(/^https:\/\/invoice\.stripe\.com\/i\//);
      expect(open.status_transitions.finalized_at).toBeTypeOf('number');
      expect(await refusal(stripe.invoices.finalizeInvoice(made.id))).toMatchObject({ statusCode: 400 });
      const paid = await stripe.invoices.pay(made.id);
      expect(paid).toMatchObject({ status: 'paid', amount_paid: 2000, amount_remaining: 0 });
      const [payment] = (await stripe.invoicePayments.list({ invoice: made.id })).data;
      const intent = await stripe.paymentIntents.retrieve(String(payment?.payment.payment_intent));
      expect([intent.status, intent.amount]).toEqual(['succeeded', 2000]);
      expect(await refusal(stripe.invoices.pay(made.id))).toMatchObject({ statusCode: 400 });
      expect(await refusal(stripe.invoices.voidInvoice(made.id))).toMatchObject({ statusCode: 400 });
      expect(await refusal(stripe.invoices.del(made.id))).toMatchObject({ statusCode: 400 });
      const told = await types();
      const at = (type: string) => told.indexOf(type);
      expect(at('invoice.finalized')).toBeGreaterThan(at('invoice.created'));
      expect(at('invoice.paid')).toBeGreaterThan(at('invoice.finalized'));
      expect(told).toContain('invoice.payment_succeeded');
      expect(told).toContain('charge.succeeded');
    } finally {
      await hooks.close();
    }
  });

  it('declines, asks for 3-D Secure, voids, marks uncollectible, pays out of band, sends and deletes', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, draft, types } = await invoicing(store, hooks);
      // A declining card: Stripe's 402, the invoice still open, attempted once.
      const declined = await stripe.invoices.finalizeInvoice((await draft(1500)).id);
      const error = await refusal(stripe.invoices.pay(declined.id, { payment_method: 'pm_card_chargeDeclined' }));
      expect(error).toMatchObject({ statusCode: 402, code: 'card_declined' });
      expect(await stripe.invoices.retrieve(declined.id)).toMatchObject({ status: 'open', attempt_count: 1 });
      // 3-D Secure: 402 invoice_payment_intent_requires_action, its PaymentIntent requires_action.
      const secure = await refusal(
        stripe.invoices.pay(declined.id, { payment_method: 'pm_card_authenticationRequired' }),
      );
      expect(secure).toMatchObject({ statusCode: 402, code: 'invoice_payment_intent_requires_action' });
      // Voided: its PaymentIntent canceled; then nothing more.
      const voided = await stripe.invoices.voidInvoice(declined.id);
      expect([voided.status, voided.status_transitions.voided_at]).toEqual(['void', expect.any(Number)]);
      const [payment] = (await stripe.invoicePayments.list({ invoice: declined.id })).data;
      const intent = await stripe.paymentIntents.retrieve(String(payment?.payment.payment_intent));
      expect([intent.status, intent.cancellation_reason]).toEqual(['canceled', 'void_invoice']);
      expect(await refusal(stripe.invoices.pay(declined.id))).toMatchObject({ statusCode: 400 });
      // Uncollectible, and voided after.
      const doubtful = await stripe.invoices.finalizeInvoice((await draft(900)).id);
      const written = await stripe.invoices.markUncollectible(doubtful.id);
      expect([written.status, written.status_transitions.marked_uncollectible_at]).toEqual([
        'uncollectible',
        expect.any(Number),
      ]);
      expect((await stripe.invoices.voidInvoice(doubtful.id)).status).toBe('void');
      // An uncollectible one can still be paid, and a paid one sent (no reference to the payment).
      const late = await stripe.invoices.finalizeInvoice(
        (await draft(500, { collection_method: 'send_invoice', days_until_due: 30 })).id,
      );
      await stripe.invoices.markUncollectible(late.id);
      expect((await stripe.invoices.pay(late.id)).status).toBe('paid');
      expect((await stripe.invoices.sendInvoice(late.id)).status).toBe('paid');
      // Paid out of band: no charge, its PaymentIntent and invoice payment canceled (basil has no
      // paid_out_of_band on the invoice; stripe-node 15 reads it).
      const cash = await stripe.invoices.finalizeInvoice((await draft(700)).id);
      expect(await stripe.invoices.pay(cash.id, { paid_out_of_band: true })).toMatchObject({
        status: 'paid',
        amount_paid: 700,
      });
      const [outside] = (await stripe.invoicePayments.list({ invoice: cash.id })).data;
      expect(outside?.status).toBe('canceled');
      const unused = await stripe.paymentIntents.retrieve(String(outside?.payment.payment_intent));
      expect([unused.status, unused.latest_charge]).toEqual(['canceled', null]);
      // Sent: only an open send_invoice one.
      const automatic = await stripe.invoices.finalizeInvoice((await draft(300)).id);
      expect(await refusal(stripe.invoices.sendInvoice(automatic.id))).toMatchObject({ statusCode: 400 });
      const emailed = await stripe.invoices.finalizeInvoice(
        (await draft(400, { collection_method: 'send_invoice', days_until_due: 30 })).id,
      );
      expect((await stripe.invoices.sendInvoice(emailed.id)).status).toBe('open');
      // Nothing due: paid when finalized.
      const nothing = await stripe.invoices.finalizeInvoice((await draft()).id);
      expect([nothing.status, nothing.amount_due]).toEqual(['paid', 0]);
      // A draft is deleted; it is gone.
      const dropped = await draft(100);
      expect(await stripe.invoices.del(dropped.id)).toMatchObject({ id: dropped.id, deleted: true });
      // Read after, the same stub (as the twin answers any deleted object), nothing of basil added.
      expect(await stripe.invoices.retrieve(dropped.id)).toEqual(
        expect.objectContaining({ id: dropped.id, object: 'invoice', deleted: true }),
      );
      expect(await stripe.invoices.retrieve(dropped.id)).not.toHaveProperty('parent');
      const told = await types();
      for (const type of [
        'invoice.payment_failed',
        'invoice.payment_action_required',
        'invoice.voided',
        'payment_intent.canceled',
        'invoice.marked_uncollectible',
        'invoice.sent',
        'invoice.deleted',
      ]) {
        expect(told, type).toContain(type);
      }
    } finally {
      await hooks.close();
    }
  });
});

/**
 * Triggers each event of `wanted` on the twin and checks its object has the shape given and is one
 * the twin holds (or held: a deleted one reads as its stub), read back with `read`; then that each
 * was delivered and verified.
 */
async function triggerEach(
  wanted: readonly [string, (stripe: Stripe, id: string) => Promise<{ id: string }>, Record<string, unknown>][],
): Promise<void> {
  const hooks = await hookReceiver();
  try {
    const { stripe, daemon, name, types } = await invoicing('memory', hooks);
    const client = createClient({ baseUrl: daemon.url });
    for (const [type, read, shape] of wanted) {
      const sent = await client.triggerTwin(name, { event: type });
      const event = sent.events.find((one) => one.type === type)?.event as { data: { object: { id: string } } };
      expect(event?.data.object, type).toMatchObject(shape);
      expect((await read(stripe, event.data.object.id)).id, type).toBe(event.data.object.id);
    }
    const told = await types();
    for (const [type] of wanted) expect(told, type).toContain(type);
  } finally {
    await hooks.close();
  }
}

describe('mockpoint trigger stripe, made through the flows', () => {
  const invoice = (stripe: Stripe, id: string) => stripe.invoices.retrieve(id);
  const item = (stripe: Stripe, id: string) => stripe.invoiceItems.retrieve(id);

  it('sends the invoice events about an invoice or item the twin holds', () =>
    triggerEach([
      ['invoice.voided', invoice, { object: 'invoice', status: 'void' }],
      ['invoice.marked_uncollectible', invoice, { object: 'invoice', status: 'uncollectible' }],
      ['invoice.sent', invoice, { object: 'invoice', status: 'open', collection_method: 'send_invoice' }],
      ['invoice.deleted', invoice, { object: 'invoice' }],
      ['invoice.payment_action_required', invoice, { object: 'invoice', status: 'open', attempted: true }],
      ['invoiceitem.created', item, { object: 'invoiceitem', amount: 2000 }],
      ['invoiceitem.updated', item, { object: 'invoiceitem', metadata: { foo: 'bar' } }],
      ['invoiceitem.deleted', item, { object: 'invoiceitem' }],
    ]));

  it('makes coupons, plans, promotion codes, tax rates and portal configurations, each one the twin holds', () =>
    triggerEach([
      ['coupon.created', (stripe, id) => stripe.coupons.retrieve(id), { percent_off: 25, duration: 'once' }],
      ['coupon.updated', (stripe, id) => stripe.coupons.retrieve(id), { metadata: { foo: 'bar' } }],
      ['coupon.deleted', (stripe, id) => stripe.coupons.retrieve(id), { object: 'coupon' }],
      ['plan.created', (stripe, id) => stripe.plans.retrieve(id), { amount: 2000, interval: 'month' }],
      ['plan.updated', (stripe, id) => stripe.plans.retrieve(id), { metadata: { foo: 'bar' } }],
      ['plan.deleted', (stripe, id) => stripe.plans.retrieve(id), { object: 'plan' }],
      ['promotion_code.created', (stripe, id) => stripe.promotionCodes.retrieve(id), { object: 'promotion_code' }],
      ['promotion_code.updated', (stripe, id) => stripe.promotionCodes.retrieve(id), { metadata: { foo: 'bar' } }],
      ['tax_rate.created', (stripe, id) => stripe.taxRates.retrieve(id), { percentage: 7.25, inclusive: false }],
      ['tax_rate.updated', (stripe, id) => stripe.taxRates.retrieve(id), { metadata: { foo: 'bar' } }],
      [
        'billing_portal.configuration.created',
        (stripe, id) => stripe.billingPortal.configurations.retrieve(id),
        { object: 'billing_portal.configuration' },
      ],
      [
        'billing_portal.configuration.updated',
        (stripe, id) => stripe.billingPortal.configurations.retrieve(id),
        { metadata: { foo: 'bar' } },
      ],
    ]));
});

describe("a subscription's open invoice", () => {
  it('paid with invoices.pay makes a default_incomplete subscription active', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, customer } = await invoicing('memory', hooks);
      const price = await stripe.prices.create({
        product_data: { name: 'Plan' },
        unit_amount: 1200,
        currency: 'usd',
        recurring: { interval: 'month' },
      });
      const subscription = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        payment_behavior: 'default_incomplete',
      });
      expect(subscription.status).toBe('incomplete');
      const paid = await stripe.invoices.pay(String(subscription.latest_invoice));
      expect(paid.status).toBe('paid');
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    } finally {
      await hooks.close();
    }
  });

  it('confirmed with a declining card sends invoice.payment_failed, the invoice attempted and still open', async () => {
    const hooks = await hookReceiver();
    try {
      const { stripe, customer, types } = await invoicing('memory', hooks);
      const price = await stripe.prices.create({
        product_data: { name: 'Plan' },
        unit_amount: 1200,
        currency: 'usd',
        recurring: { interval: 'month' },
      });
      const subscription = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        payment_behavior: 'default_incomplete',
      });
      const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
      const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data;
      const intent = String(payment?.payment.payment_intent);
      const declined = await refusal(
        stripe.paymentIntents.confirm(intent, { payment_method: 'pm_card_chargeDeclined' }),
      );
      expect(declined).toMatchObject({ statusCode: 402, code: 'card_declined' });
      expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'open', attempt_count: 1 });
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('incomplete');
      expect(await types()).toContain('invoice.payment_failed');
      // Nor is it debited by SEPA here: refused, nothing changed.
      const sepa = await stripe.paymentMethods.create({
        type: 'sepa_debit',
        sepa_debit: { iban: 'AT611904300234573201' },
        billing_details: { name: 'Jenny Rosen', email: 'jenny@example.com' },
      });
      const debited = await refusal(
        stripe.paymentIntents.confirm(intent, {
          payment_method: sepa.id,
          mandate_data: { customer_acceptance: { type: 'offline' } },
        }),
      );
      expect(debited).toMatchObject({ statusCode: 400, param: 'payment_method' });
      expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'open', attempt_count: 1 });
    } finally {
      await hooks.close();
    }
  });
});
