/**
 * A twin's webhook subscription takes what the provider takes (#84): its receiver is refused when
 * made only when no delivery could ever go there (another scheme, private, link-local and metadata
 * addresses, unless listed); a twin's delivery to a host not allowed is kept as `not-sent`, never
 * sent, while the user's own (`POST /api/deliveries`) is refused as before.
 */
import { describe, expect, it } from 'vitest';
import { MemoryDeliveryStore } from '../store/memory/memory-delivery-store.js';
import type { DeliverySend } from './delivery-send.js';
import { checkSubscriptionTarget } from './delivery-target.js';
import { DeliveryWorker } from './delivery-worker.js';

describe('a webhook subscription receiver', () => {
  it('takes public hosts and loopback, whether or not deliveries may go there', () => {
    for (const url of [
      'https://example.com/hook',
      'http://hooks.example.org:8080/in',
      'http://127.0.0.1:9/hook',
      'http://[::1]/x',
      'https://8.8.8.8/x',
    ]) {
      expect(checkSubscriptionTarget(url, []).href, url).toBe(new URL(url).href);
    }
  });

  it('refuses what can never be sent: other schemes, private, link-local and metadata addresses', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'gopher://127.0.0.1:70/x',
      'not a url',
      'http://169.254.169.254/latest',
      'http://0xA9FEA9FE/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/',
      'http://10.0.0.1/hook',
      'http://172.16.5.4/hook',
      'http://192.168.1.1/hook',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
    ]) {
      expect(() => checkSubscriptionTarget(url, []), url).toThrow(/url must be|never a webhook receiver/);
    }
    for (const url of ['http://172.32.0.1/', 'http://192.169.0.1/', 'http://11.0.0.1/']) {
      expect(checkSubscriptionTarget(url, []).href, url).toBe(new URL(url).href);
    }
    // Listed, a private receiver is the user's choice.
    expect(checkSubscriptionTarget('http://10.0.0.1/hook', ['10.0.0.1']).hostname).toBe('10.0.0.1');
  });
});

describe("a twin's delivery to a host not allowed", () => {
  it('is kept as not-sent, never sent; the same asked by the user is refused', async () => {
    const sent: string[] = [];
    const send: DeliverySend = async (request) => {
      sent.push(request.url);
      return { status: 200, headers: {}, bodyTruncated: false };
    };
    const worker = new DeliveryWorker({ store: new MemoryDeliveryStore(), maxBodyBytes: 1024, send });
    try {
      const members = new Map([
        ['url', JSON.stringify('https://example.com/hook')],
        ['data', '{"id":"evt_1"}'],
      ]);
      const kept = await worker.create(members, { from: 'twin' });
      expect(kept).toMatchObject({ state: 'not-sent', attempts: [], outcome: { code: 'HOST_NOT_ALLOWED' } });
      expect(kept.outcome?.message).toMatch(/^not sent: .*"example\.com" is not/);
      expect(kept.outcome?.hint).toMatch(/MOCKPOINT_DELIVERY_ALLOW_HOSTS=example\.com/);
      expect(kept.nextAttemptAt).toBeUndefined();
      await expect(worker.create(members)).rejects.toMatchObject({ code: 'DELIVERY_HOST_NOT_ALLOWED' });
      const listed = await worker.list(10);
      expect(listed.deliveries.map((one) => one.state)).toEqual(['not-sent']);
      // Kept as finished and never due: nothing is waiting to be sent, so nothing ever is.
      await new Promise((resolve) => setImmediate(resolve));
      expect(sent).toEqual([]);
      expect(await worker.store.pendingCount()).toBe(0);
    } finally {
      await worker.close();
    }
  });
});
