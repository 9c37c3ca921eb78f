// The Stripe twin's API versions (docs/twins.md, "API versions"; #72) against the built daemon
// serving the twin at the root of a port of its own: each request answered in the version its
// `Stripe-Version` names and that version echoed, as stripe-node 15.0.0 (2024-04-10) and 23.1.0
// (2026-10-28.endive) send it; an unknown version refused in Stripe's words; each webhook
// endpoint's events in its own `api_version`, every delivery checked by `constructEvent`; the
// parameters stripe 23 sends that the 2024-04-10 document lacks taken, an invented one still
// refused. Every process listens on 127.0.0.1.
import Stripe15 from 'stripe';
import Stripe23 from 'stripe-23';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { hookReceiver, twinDaemon } from './helpers/twin.js';

useDaemons();

/** The version stripe-node 23.1.0 pins. */
const NEWEST = '2026-10-28.endive';

/** A daemon with a Stripe twin, a stripe-node 15 and a stripe-node 23 client of it, and its root. */
async function twins() {
  const { root, port } = await twinDaemon('stripe', 'memory');
  const options = { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 } as const;
  return { root, old: new Stripe15('sk_test_123', options), today: new Stripe23('sk_test_123', options) };
}

/** The events delivered to a receiver, each verified with `secret` by stripe-node 23's constructEvent. */
function verified(stripe: Stripe23, receiver: Awaited<ReturnType<typeof hookReceiver>>, secret: string) {
  return receiver.received.map(({ body, headers }) =>
    stripe.webhooks.constructEvent(body, String(headers['stripe-signature']), secret),
  );
}

describe('Stripe API versions', () => {
  it('answers stripe-node 15 in 2024-04-10 and stripe-node 23 in its pin, each echoed in Stripe-Version', async () => {
    const { old, today, root } = await twins();
    const made = await old.customers.create({ email: 'old@example.com' });
    expect(made.lastResponse.apiVersion).toBe('2024-04-10');
    const now = await today.customers.create({ email: 'new@example.com' });
    expect(now.lastResponse.apiVersion).toBe(NEWEST);
    // A request naming no version is answered in the newest.
    const bare = await fetch(`${root}/v1/customers`, { headers: { authorization: 'Bearer sk_test_123' } });
    expect(bare.status).toBe(200);
    expect(bare.headers.get('stripe-version')).toBe(NEWEST);
    // Each event in the version of the request that caused it.
    const events = await today.events.list({ type: 'customer.created' });
    const versions = Object.fromEntries(
      events.data.map((event) => [(event.data.object as { id: string }).id, event.api_version]),
    );
    expect(versions).toEqual({ [made.id]: '2024-04-10', [now.id]: NEWEST });
  });

  it("refuses a version Stripe does not know with Stripe's 400, however long", async () => {
    const { root, port } = await twinDaemon('stripe', 'memory');
    const wrong = new Stripe15('sk_test_123', {
      host: '127.0.0.1',
      port,
      protocol: 'http',
      maxNetworkRetries: 0,
      apiVersion: '2019-2-19' as '2024-04-10',
    });
    const refused = await wrong.customers.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Stripe15.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' });
    expect((refused as Error).message).toMatch(/^Invalid Stripe API version: 2019-2-19\. /);
    // Within Node's header limit (16 KiB), past the longest version name by far.
    const long = 'x'.repeat(4000);
    const answer = await fetch(`${root}/v1/customers`, {
      headers: { authorization: 'Bearer sk_test_123', 'stripe-version': long },
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('stripe-version')).toBeNull();
    const body = (await answer.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message.length).toBeLessThan(400);
  });

  it("sends each webhook endpoint's events in its own api_version, checked by constructEvent", async () => {
    const { today, old } = await twins();
    const pinned = await hookReceiver();
    const own = await hookReceiver();
    const older = await hookReceiver();
    try {
      const events: Stripe23.WebhookEndpointCreateParams.EnabledEvent[] = ['customer.created'];
      // Made by stripe-node 23 without an api_version: its events in the version of that request.
      const a = await today.webhookEndpoints.create({ url: pinned.url, enabled_events: events });
      expect(a.api_version).toBe(NEWEST);
      const b = await today.webhookEndpoints.create({
        url: own.url,
        enabled_events: events,
        api_version: '2024-06-20',
      });
      expect(b.api_version).toBe('2024-06-20');
      // Made by stripe-node 15: its events in 2024-04-10, whatever version later requests name.
      const c = await old.webhookEndpoints.create({ url: older.url, enabled_events: ['customer.created'] });
      expect(c.api_version).toBe('2024-04-10');
      const refused = await today.webhookEndpoints
        .create({ url: own.url, enabled_events: events, api_version: '2031-01-01' as '2024-06-20' })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ statusCode: 400, param: 'api_version' });

      const customer = await today.customers.create({ email: 'hooks@example.com' });
      await Promise.all([pinned.until(1), own.until(1), older.until(1)]);
      const seen = (receiver: typeof own, secret: string | undefined) =>
        verified(today, receiver, secret as string).map((event) => [event.type, event.api_version, event.id]);
      const id = verified(today, pinned, a.secret as string)[0]?.id;
      expect(seen(pinned, a.secret)).toEqual([['customer.created', NEWEST, id]]);
      expect(seen(own, b.secret)).toEqual([['customer.created', '2024-06-20', id]]);
      expect(seen(older, c.secret)).toEqual([['customer.created', '2024-04-10', id]]);
      // Listed in the version of the request that caused it.
      expect((await today.events.retrieve(id as string)).api_version).toBe(NEWEST);
      expect(verified(today, own, b.secret as string)[0]?.data.object).toMatchObject({ id: customer.id });
    } finally {
      await Promise.all([pinned.close(), own.close(), older.close()]);
    }
  });

  it('takes the parameters stripe-node 23 sends that the 2024-04-10 document lacks, kept as sent; an invented one is refused', async () => {
    const { today } = await twins();
    const customer = await today.customers.create({ email: 'today@example.com' });
    const price = await today.prices.create({
      product_data: { name: 'Pro' },
      unit_amount: 1500,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const subscription = await today.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      billing_mode: { type: 'flexible' },
      default_payment_method: 'pm_card_visa',
    });
    expect(subscription).toMatchObject({ status: 'active', billing_mode: { type: 'flexible' } });
    expect((await today.subscriptions.retrieve(subscription.id)).billing_mode).toMatchObject({ type: 'flexible' });
    const intent = await today.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      excluded_payment_method_types: ['ideal'],
    });
    expect(intent).toMatchObject({ status: 'requires_payment_method', excluded_payment_method_types: ['ideal'] });
    // `promotion` replaces the document's required `coupon`; `allow_redisplay` its `customer_consent_collected`.
    const code = await today.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'co_x' } });
    expect(code.object).toBe('promotion_code');
    const made = await today.terminal.readers.create({ registration_code: 'simulated-wpe' });
    const reader = await today.terminal.readers.processSetupIntent(made.id, {
      setup_intent: 'seti_x',
      allow_redisplay: 'always',
    });
    expect(reader.object).toBe('terminal.reader');
    const refused = await today.subscriptions
      .create({ customer: customer.id, items: [{ price: price.id }], invented_mode: 'x' } as never)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Stripe23.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'invented_mode' });
  });
});
