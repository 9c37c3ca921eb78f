// A Stripe webhook endpoint takes every URL Stripe takes (#84), through stripe-node 15.0.0 against
// the built daemon, in memory and on a real redis-server: `https://example.com/hook` is made (as
// stripe-node's own suite makes it), and its deliveries are never sent (the host is neither
// loopback nor in MOCKPOINT_DELIVERY_ALLOW_HOSTS) but listed in `GET /api/deliveries` as
// `not-sent`, with why and how to allow it. What can never be sent is still refused when made:
// `file:`, `javascript:`, the metadata address. Every process listens on 127.0.0.1.
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { requestJson } from './helpers/daemon.js';
import { hookReceiver, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

interface Listed {
  id: string;
  url: string;
  state: string;
  attempts: unknown[];
  sending?: unknown;
  nextAttemptAt?: string;
  outcome?: { code: string; message: string; hint?: string };
}

describe.each(['memory', 'redis'] as const)('Stripe webhook endpoint URLs (%s)', (kind) => {
  it('takes https://example.com/hook and lists its deliveries as not sent, with why', {
    timeout: 60_000,
  }, async () => {
    const { root, port, api } = await twinDaemon(
      'stripe',
      kind === 'memory' ? 'memory' : await twinRedis.store('redis'),
    );
    const stripe = new Stripe('sk_test_urls', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    const far = await stripe.webhookEndpoints.create({ url: 'https://example.com/hook', enabled_events: ['*'] });
    expect(far.url).toBe('https://example.com/hook');
    // A receiver on loopback beside it: once it has the event, the fan-out is done.
    const receiver = await hookReceiver();
    try {
      await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['customer.created'] });
      const customer = await stripe.customers.create({ email: 'far@example.com' });
      await receiver.until(1);
      const event = JSON.parse(receiver.received[0]?.body ?? '{}') as { id: string; data: { object: { id: string } } };
      expect(event.data.object.id).toBe(customer.id);

      const listed = async () => {
        const answer = await requestJson(`${api}/api/deliveries?limit=50`);
        expect(answer.status).toBe(200);
        return (answer.body as { deliveries: Listed[] }).deliveries;
      };
      await expect
        .poll(async () => (await listed()).filter((one) => one.url === 'https://example.com/hook').length, {
          timeout: 10_000,
        })
        .toBe(1);
      const notSent = (await listed()).find((one) => one.url === 'https://example.com/hook') as Listed;
      expect(notSent.state).toBe('not-sent');
      expect(notSent.attempts).toEqual([]);
      expect(notSent.sending).toBeUndefined();
      expect(notSent.nextAttemptAt).toBeUndefined();
      expect(notSent.outcome?.code).toBe('HOST_NOT_ALLOWED');
      expect(notSent.outcome?.message).toMatch(/"example\.com" is not/);
      expect(notSent.outcome?.hint).toMatch(/MOCKPOINT_DELIVERY_ALLOW_HOSTS=example\.com/);
      // Never made later either: it is not pending, so no attempt is ever due.
      const one = await requestJson(`${api}/api/deliveries/${notSent.id}`);
      expect(one.body).toMatchObject({ state: 'not-sent', attempts: [] });
      const cancel = await requestJson(`${api}/api/deliveries/${notSent.id}`, { method: 'DELETE' });
      expect(cancel.status).toBe(409);
      // The loopback receiver's delivery is delivered as before.
      const sent = (await listed()).find((one) => one.url === receiver.url) as Listed;
      await expect
        .poll(async () => (await listed()).find((one) => one.url === receiver.url)?.state, { timeout: 10_000 })
        .toBe('delivered');
      expect(sent).toBeDefined();
      // pending_webhooks counts down as deliveries succeed (Stripe's): the delivered one is off it,
      // the one never sent is still pending.
      await expect
        .poll(async () => (await stripe.events.retrieve(event.id)).pending_webhooks, { timeout: 10_000 })
        .toBe(1);

      // Changed to another URL Stripe takes: taken too.
      const moved = await stripe.webhookEndpoints.update(far.id, { url: 'http://hooks.example.org:8080/in' });
      expect(moved.url).toBe('http://hooks.example.org:8080/in');
    } finally {
      await receiver.close();
    }

    // What can never be sent is still refused, made or changed: 400 url_invalid, param url.
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'http://169.254.169.254/latest/meta-data']) {
      const refused = await fetch(`${root}/v1/webhook_endpoints`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_urls', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ url, 'enabled_events[]': '*' }).toString(),
      });
      const body = (await refused.json()) as { error?: { type: string; code: string; param: string } };
      expect(refused.status, url).toBe(400);
      expect(body.error, url).toMatchObject({ type: 'invalid_request_error', code: 'url_invalid', param: 'url' });
    }
    await expect(stripe.webhookEndpoints.update(far.id, { url: 'http://169.254.169.254/' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'url_invalid',
      param: 'url',
    });
  });
});
