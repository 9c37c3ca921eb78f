// Runs against the one mockpoint instance of this run, started by the plugin in
// vitest.config.ts; names are unique per test because the instance is shared.
import { connectMockServer, expect } from '@mockpoint/vitest';
import { describe, inject, it } from 'vitest';
import { sendWebhook, verifySignature, WebhookDeliveryError } from './send-webhook.js';

const mock = connectMockServer(inject('mockpoint'));
const secret = 'whsec_test';

/** What the receiver answers; add<Answer>() lets a test switch between the two. */
type Answer = { received: true } | { error: string };

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

  it('retries after a 500 and succeeds once the receiver recovers', async () => {
    const hook = await mock.add<Answer>({ name: 'flaky', data: { error: 'boom' }, statusCode: 500 });
    let recover!: () => void;
    const recovered = new Promise<void>((resolve) => {
      recover = resolve;
    });
    const waits: number[] = [];

    const sending = sendWebhook({
      url: hook.url,
      secret,
      event: 'order.paid',
      payload: { orderId: 7 },
      backoffMs: 100,
      // The retry waits until the test has switched the endpoint to 200.
      sleep: async (ms) => {
        waits.push(ms);
        await recovered;
      },
    });
    await hook.waitForRequests({ count: 1 });
    await hook.replace({ data: { received: true } });
    recover();

    expect(await sending).toMatchObject({ attempts: 2, status: 200 });
    expect(waits).toEqual([100]);
    await expect(hook).toHaveBeenRequestedTimes(2);
    const [first, second] = await hook.requests();
    expect([first!.statusCode, second!.statusCode]).toEqual([500, 200]);
    expect(second!.headers['x-webhook-id']).toBe(first!.headers['x-webhook-id']);
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
      timeoutMs: 200,
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
