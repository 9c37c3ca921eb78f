import { load } from '@mockpoint/twins';
import { expect, type MockSession, test } from '@mockpoint/vitest';
import Stripe from 'stripe';
import { startShop } from './shop.js';

// stripe-node talks to https://api.stripe.com as in production; the plugin answers it in-process
// with endpoint `stripe` of the test's own session, a Stripe twin (docs/twins.md). No network.
/**
 * stripe-node with its fetch client, made in the test: the plugin answers the test process's own
 * `fetch` (docs/intercept.md), which the client takes when it is made.
 */
function stripeClient(): Stripe {
  return new Stripe('sk_test_shop', { maxNetworkRetries: 0, httpClient: Stripe.createFetchHttpClient() });
}

/** Makes endpoint `stripe` of the session a Stripe twin: what the shop creates is kept. */
async function stripeTwin(session: MockSession) {
  const { document, profile } = await load('stripe');
  const twin = await session.add({ name: 'stripe', data: {} });
  await twin.setTwin({ document, profile });
  return twin;
}

test('takes a payment with Checkout and fulfils the order on checkout.session.completed', async ({ session }) => {
  const twin = await stripeTwin(session);
  const stripe = stripeClient();
  let secret = '';
  await using shop = await startShop(stripe, () => secret);
  const endpoint = await stripe.webhookEndpoints.create({
    url: shop.webhookUrl,
    enabled_events: ['checkout.session.completed'],
  });
  secret = endpoint.secret ?? '';

  const url = await shop.checkout('order-42', [
    { name: 'T-shirt', unitAmount: 2000, quantity: 2 },
    { name: 'Sticker', unitAmount: 300, quantity: 1 },
  ]);
  expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
  expect(shop.order('order-42')?.status).toBe('pending');

  // The customer pays: the twin's test helper completes the session as Checkout's page would.
  const paid = await fetch(
    twin.urlFor(`/v1/test_helpers/checkout/sessions/${shop.order('order-42')?.session}/complete`),
    {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_shop' },
    },
  );
  expect(paid.status).toBe(200);
  expect(await shop.fulfilled('order-42')).toMatchObject({ status: 'paid', amountPaid: 4300 });
});

test('an event with a wrong signature fulfils nothing', async ({ session }) => {
  await stripeTwin(session);
  await using shop = await startShop(stripeClient(), () => 'whsec_not_the_one');
  await shop.checkout('order-7', [{ name: 'Mug', unitAmount: 1200, quantity: 1 }]);
  const forged = await fetch(shop.webhookUrl, {
    method: 'POST',
    headers: { 'stripe-signature': 't=1,v1=00' },
    body: JSON.stringify({ type: 'checkout.session.completed', data: { object: { client_reference_id: 'order-7' } } }),
  });
  expect(forged.status).toBe(400);
  expect(shop.order('order-7')?.status).toBe('pending');
});
