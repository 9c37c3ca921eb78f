// The Stripe twin's Checkout Sessions as Stripe is today (#72) against the built daemon, through
// stripe-node 23.1.0 (2026-10-28.endive) and 15.0.0 (2024-04-10): `checkout.sessions.update`
// (metadata, shipping options, line items; 404 for an unknown session, 400 for one no longer open)
// and embedded / custom sessions answering a `client_secret` and no `url`, their `ui_mode` named as
// each version names it. Every process listens on 127.0.0.1.
import Stripe15 from 'stripe';
import Stripe23 from 'stripe-23';
import { describe, expect, it } from 'vitest';
import { useDaemons } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';

useDaemons();

async function clients() {
  const { port } = await twinDaemon('stripe', 'memory');
  const options = { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 } as const;
  const at = (apiVersion: string) =>
    new Stripe23('sk_test_123', { ...options, apiVersion: apiVersion as Stripe23.LatestApiVersion });
  return { today: new Stripe23('sk_test_123', options), old: new Stripe15('sk_test_123', options), at };
}

async function onePrice(stripe: Stripe23, unit_amount: number) {
  return stripe.prices.create({ product_data: { name: `Item ${unit_amount}` }, unit_amount, currency: 'usd' });
}

describe('Stripe Checkout Sessions today (#72)', () => {
  it('updates an open session: metadata, shipping options, line items, their amounts summed again', async () => {
    const { today } = await clients();
    const shirt = await onePrice(today, 1500);
    const session = await today.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: shirt.id, quantity: 1 }],
      success_url: 'https://example.com/done',
      metadata: { cart: '1' },
    });
    const line = (await today.checkout.sessions.listLineItems(session.id)).data[0] as Stripe23.LineItem;
    const hat = await onePrice(today, 500);
    const updated = await today.checkout.sessions.update(session.id, {
      metadata: { order: '6735' },
      shipping_options: [
        {
          shipping_rate_data: {
            display_name: 'Ground',
            type: 'fixed_amount',
            fixed_amount: { amount: 700, currency: 'usd' },
          },
        },
      ],
      line_items: [
        { id: line.id, quantity: 2 },
        { price: hat.id, quantity: 1 },
      ],
    });
    expect(updated.metadata).toEqual({ cart: '1', order: '6735' });
    expect(updated.shipping_options).toEqual([{ shipping_amount: 700, shipping_rate: expect.stringMatching(/^shr_/) }]);
    expect([updated.amount_subtotal, updated.amount_total]).toEqual([3500, 3500]);
    const lines = await today.checkout.sessions.listLineItems(session.id);
    expect(lines.data.map((one) => [one.price?.id, one.quantity, one.amount_total])).toEqual([
      [shirt.id, 2, 3000],
      [hat.id, 1, 500],
    ]);
    expect(lines.data[0]?.id).toBe(line.id);
    expect((await today.checkout.sessions.retrieve(session.id)).metadata).toEqual({ cart: '1', order: '6735' });
    // Stripe has no event of a session's update.
    expect((await today.events.list({ limit: 100 })).data.map((event) => event.type)).not.toContain(
      'checkout.session.updated',
    );

    // An unknown session: Stripe's 404; one no longer open: its 400, nothing kept.
    const missing = await today.checkout.sessions.update('cs_test_nothing', { metadata: { a: 'b' } }).catch((e) => e);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await today.checkout.sessions.expire(session.id);
    const closed = await today.checkout.sessions.update(session.id, { metadata: { late: 'yes' } }).catch((e) => e);
    expect(closed).toBeInstanceOf(Stripe23.errors.StripeInvalidRequestError);
    expect((closed as Error).message).toMatch(/only an open one can be updated/);
    expect((await today.checkout.sessions.retrieve(session.id)).metadata).not.toHaveProperty('late');
  });

  it('answers embedded and custom sessions a client_secret and no url, each version its ui_mode names', async () => {
    const { today, old, at } = await clients();
    const price = await onePrice(today, 1500);
    const base = () => ({ mode: 'payment' as const, line_items: [{ price: price.id, quantity: 1 }] });
    const embedded = await today.checkout.sessions.create({
      ...base(),
      ui_mode: 'embedded_page',
      return_url: 'https://example.com/return?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(embedded.url).toBeNull();
    expect(embedded.ui_mode).toBe('embedded_page');
    expect(embedded.client_secret).toMatch(new RegExp(`^${embedded.id}_secret_\\w+$`));
    const elements = await today.checkout.sessions.create({
      ...base(),
      ui_mode: 'elements',
      return_url: 'https://x.example',
    });
    expect([elements.ui_mode, elements.url]).toEqual(['elements', null]);
    expect(elements.client_secret).toMatch(/^cs_\w+_secret_\w+$/);
    // dahlia's embedded form: a client_secret, no url, as embedded_page.
    const form = await today.checkout.sessions.create({ ...base(), ui_mode: 'form', return_url: 'https://x.example' });
    expect([form.ui_mode, form.url]).toEqual(['form', null]);
    expect(form.client_secret).toMatch(new RegExp(`^${form.id}_secret_\\w+$`));
    const hosted = await today.checkout.sessions.create({ ...base(), success_url: 'https://example.com/done' });
    expect(hosted).toMatchObject({ ui_mode: 'hosted_page', client_secret: null });
    expect(hosted.url).toBe(`https://checkout.stripe.com/c/pay/${hosted.id}`);

    // The same sessions in the names of the versions before dahlia (2026-03-25).
    const basil = at('2025-03-31.basil');
    expect((await basil.checkout.sessions.retrieve(embedded.id)).ui_mode).toBe('embedded');
    expect((await basil.checkout.sessions.retrieve(elements.id)).ui_mode).toBe('custom');
    expect((await old.checkout.sessions.retrieve(hosted.id)).ui_mode).toBe('hosted');
    // dahlia's form has no older name: an older version reads the embedded session it is.
    expect((await basil.checkout.sessions.retrieve(form.id)).ui_mode).toBe('embedded');
    expect((await old.checkout.sessions.retrieve(form.id)).ui_mode).toBe('embedded');
    const custom = await basil.checkout.sessions.create({
      ...base(),
      ui_mode: 'custom' as Stripe23.Checkout.SessionCreateParams.UiMode,
      return_url: 'https://x.example',
    });
    expect([custom.ui_mode, custom.url]).toEqual(['custom', null]);
    const oldEmbedded = await old.checkout.sessions.create({
      ...base(),
      ui_mode: 'embedded',
      redirect_on_completion: 'never',
    });
    expect([oldEmbedded.ui_mode, oldEmbedded.url]).toEqual(['embedded', null]);
    expect(oldEmbedded.client_secret).toMatch(/_secret_/);

    // A name the version does not take, and an embedded session without return_url: Stripe's 400s.
    const renamed = await today.checkout.sessions
      .create({ ...base(), ui_mode: 'embedded' as 'embedded_page', return_url: 'https://x.example' })
      .catch((e) => e);
    expect(renamed).toMatchObject({ statusCode: 400, param: 'ui_mode' });
    const tooEarly = await old.checkout.sessions
      .create({
        ...base(),
        ui_mode: 'custom' as 'embedded',
        return_url: 'https://x.example',
      })
      .catch((e) => e);
    expect(tooEarly).toMatchObject({ statusCode: 400, param: 'ui_mode' });
    const formTooEarly = await at('2025-09-30.clover')
      .checkout.sessions.create({ ...base(), ui_mode: 'form', return_url: 'https://x.example' })
      .catch((e) => e);
    expect(formTooEarly).toMatchObject({ statusCode: 400, param: 'ui_mode' });
    const noReturn = await today.checkout.sessions.create({ ...base(), ui_mode: 'embedded_page' }).catch((e) => e);
    expect(noReturn).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'return_url' });
    const withSuccess = await today.checkout.sessions
      .create({ ...base(), ui_mode: 'embedded_page', success_url: 'https://example.com/done' })
      .catch((e) => e);
    expect(withSuccess).toMatchObject({ statusCode: 400, param: 'success_url' });
  });
});
