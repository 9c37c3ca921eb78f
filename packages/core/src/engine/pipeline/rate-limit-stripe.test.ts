// Stripe's official SDK (`stripe`) against a route with a Stripe-style rate limit
// (docs/rate-limits.md), served by a real listener: our 429 raises its
// StripeRateLimitError, and with retries on, `Stripe-Should-Retry: true` makes it retry
// (stripe-node retries a 429 only with that header) and the retry is answered. The
// daemon's rate-limit clock is the test's, moved on once the SDK has been refused, so the
// retry finds a token whenever it comes (the SDK waits at least its 0.5 s base delay).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../adapter/node/serve.js';
import { createApp } from '../../index.js';

const time = { now: 1_800_000_000_000 };
let served: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  served = await serve(createApp({ rateLimitNow: () => time.now }), { port: 0 });
});
afterAll(async () => {
  await served.close();
});

async function customers(name: string): Promise<void> {
  const routes = [
    {
      id: 'customer',
      match: { method: 'GET', path: '/v1/customers/:id' },
      rateLimit: { limit: 1, per: '1h', style: 'stripe' },
      answer: { data: { id: 'cus_1', object: 'customer' } },
    },
  ];
  const base = `http://127.0.0.1:${served.port}`;
  const put = await fetch(`${base}/api/endpoints/${name}/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.text()).toBe(200);
}

function stripe(maxNetworkRetries: number): Stripe {
  return new Stripe('sk_test_x', { host: '127.0.0.1', port: served.port, protocol: 'http', maxNetworkRetries });
}

async function statuses(name: string): Promise<[number, boolean][]> {
  const base = `http://127.0.0.1:${served.port}`;
  const { requests } = (await (await fetch(`${base}/api/endpoints/${name}/requests`)).json()) as {
    requests: { statusCode: number; rateLimited?: true }[];
  };
  return requests.map((r) => [r.statusCode, r.rateLimited === true]);
}

describe("Stripe's SDK", () => {
  it('raises StripeRateLimitError on our 429 when it may not retry', async () => {
    await customers('stripe-refused');
    // The SDK sends every path below its host: the endpoint's prefix goes in front of Stripe's path.
    const get = () => stripe(0).rawRequest('GET', '/endpoint/stripe-refused/v1/customers/cus_1');
    await get();
    const error = await get().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(error).toMatchObject({ statusCode: 429, code: 'rate_limit', type: 'StripeRateLimitError' });
  });

  it('retries on Stripe-Should-Retry and gets the customer', async () => {
    await customers('stripe-retry');
    const client = stripe(1);
    await client.rawRequest('GET', '/endpoint/stripe-retry/v1/customers/cus_1');
    const retried = client.rawRequest('GET', '/endpoint/stripe-retry/v1/customers/cus_1');
    // Refill once the SDK has been refused (its retry waits at least 0.5 s).
    await expect.poll(async () => (await statuses('stripe-retry')).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    time.now += 3_600_000;
    const answer = await retried;
    expect(answer).toMatchObject({ id: 'cus_1', object: 'customer' });
    expect(await statuses('stripe-retry')).toEqual([
      [200, false],
      [429, true],
      [200, false],
    ]);
  });
});
