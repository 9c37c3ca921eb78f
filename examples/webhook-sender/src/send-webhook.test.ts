// Runs against the one mockpoint instance of this run, started by the plugin in
// vitest.config.ts; names are unique per test because the instance is shared.
import { connectMockServer, expect } from '@mockpoint/vitest';
import { describe, inject, it } from 'vitest';
import { sendWebhook, verifySignature, WebhookDeliveryError } from './send-webhook.js';

const mock = connectMockServer(inject('mockpoint'));
const secret = 'whsec_test';

describe('sendWebhook', () => {
  it('POSTs the event with a valid HMAC-SHA256 signature', async () => {
    const hook = await mock.add({ name: 'signed', data: { received: true } });

    const sending = sendWebhook({ url: hook.url, secret, event: 'order.created', payload: { orderId: 42 } });
    const [request] = await hook.waitForRequests();
    const delivery = await sending;

    expect(delivery).toEqual({ id: expect.any(String), attempts: 1, status: 200 });
    expect(request!.json).toEqual({ id: delivery.id, event: 'order.created', payload: { orderId: 42 } });
    const { 'x-webhook-timestamp': timestamp, 'x-webhook-signature': signature } = request!.headers;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(secret, timestamp!, request!.body, signature!)).toBe(true);
    expect(verifySignature('another secret', timestamp!, request!.body, signature!)).toBe(false);
    await expect(hook).toHaveBeenRequestedWith({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-id': delivery.id },
    });
  });

  it('retries 503, 503 and succeeds on the third attempt, then sends nothing more', async () => {
    const hook = await mock.add({ name: 'flaky', data: { received: true } });
    // The next two requests get 503; the third gets the record (200). No race with the sender.
    await hook.queue([{ statusCode: 503, data: { error: 'maintenance' }, times: 2 }]);
    const waits: number[] = [];

    const delivery = await sendWebhook({
      url: hook.url,
      secret,
      event: 'order.paid',
      payload: { orderId: 7 },
      backoffMs: 100,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });

    expect(delivery).toMatchObject({ attempts: 3, status: 200 });
    expect(waits).toEqual([100, 200]);
    const requests = await hook.requests();
    expect(requests.map((r) => [r.statusCode, r.queued ?? false])).toEqual([
      [503, true],
      [503, true],
      [200, false],
    ]);
    // Every attempt carries the same delivery id.
    expect(new Set(requests.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([delivery.id]));
    // Delivered: no further attempt arrives.
    await expect(hook).not.toHaveBeenRequestedWithin(300);
  });

  it('retries after the connection is reset (a network error, no answer at all)', async () => {
    const hook = await mock.add({ name: 'reset-once', data: { received: true } });
    await hook.queue([{ fault: 'reset' }]);

    const delivery = await sendWebhook({
      url: hook.url,
      secret,
      event: 'order.paid',
      payload: {},
      sleep: async () => {},
    });

    expect(delivery).toMatchObject({ attempts: 2, status: 200 });
    const [first, second] = await hook.requests();
    expect(first).toMatchObject({ queued: true, fault: 'reset' });
    expect(second).toMatchObject({ statusCode: 200 });
  });

  it('retries only the matching deliveries: a filtered wait ignores other events', async () => {
    const hook = await mock.add({ name: 'events', data: { received: true } });
    await hook.queue([{ statusCode: 500 }]);

    const paid = hook.waitForRequests({ count: 2, match: { body: { event: 'order.paid' } } });
    await sendWebhook({ url: hook.url, secret, event: 'order.created', payload: {}, sleep: async () => {} });
    await sendWebhook({ url: hook.url, secret, event: 'order.paid', payload: { orderId: 1 } });
    await sendWebhook({ url: hook.url, secret, event: 'order.paid', payload: { orderId: 2 } });

    // order.created took the 500 and its retry: four requests arrived, the wait saw the two paid ones.
    expect((await paid).map((r) => (r.json as { payload: unknown }).payload)).toEqual([{ orderId: 1 }, { orderId: 2 }]);
    await expect(hook).toHaveBeenRequestedTimes(4);
  });

  it('gives up on a 503 after every retry, backing off exponentially', async () => {
    const hook = await mock.add({ name: 'unavailable', data: { error: 'maintenance' }, statusCode: 503 });
    const waits: number[] = [];

    const error = await sendWebhook({
      url: hook.url,
      secret,
      event: 'order.paid',
      payload: {},
      retries: 3,
      backoffMs: 50,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WebhookDeliveryError);
    expect(error).toMatchObject({ code: 'EXHAUSTED', attempts: 4, lastStatus: 503 });
    expect(waits).toEqual([50, 100, 200]);
    await expect(hook).toHaveBeenRequestedTimes(4);
  });

  it('does not retry a 404', async () => {
    const missing = mock.endpointUrl('nobody-listens-here');

    const error = await sendWebhook({ url: missing, secret, event: 'x', payload: null }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'REJECTED', attempts: 1, lastStatus: 404 });
    // Requests to unknown names are recorded too.
    expect(await mock.requests('nobody-listens-here')).toHaveLength(1);
  });

  it('abandons an attempt that exceeds its timeout, and retries it', async () => {
    const slow = await mock.add({ name: 'slow', data: { received: true }, delay: 10_000 });

    const error = await sendWebhook({
      url: slow.url,
      secret,
      event: 'order.shipped',
      payload: {},
      retries: 1,
      // 1 s (the answer takes 10 s): an attempt abandoned before it was even written (one CPU stall on a
      // busy machine) would never reach the mock, and the two requests counted below would be one.
      timeoutMs: 1000,
      sleep: async () => {},
    }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'EXHAUSTED', attempts: 2, lastStatus: undefined });
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError' });
    await expect(slow).toHaveBeenRequestedTimes(2);

    // Slower than nothing but within the timeout: delivered.
    await slow.replace({ data: { received: true }, delay: 100 });
    await slow.clearRequests();
    expect(
      await sendWebhook({ url: slow.url, secret, event: 'order.shipped', payload: {}, timeoutMs: 5000 }),
    ).toMatchObject({ attempts: 1, status: 200 });
    await expect(slow).toHaveBeenRequestedTimes(1);
  });
});
