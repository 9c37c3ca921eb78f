/**
 * Loopback for deliveries means a loopback address: `127.0.0.0/8`, `::1`, and
 * `localhost` only when it resolves to loopback addresses alone. Names below
 * `localhost` are ordinary names (many resolvers pass them to DNS).
 */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { checkDeliveryTarget } from './delivery-target.js';
import { loopbackOnlyLookup } from './node-delivery-send.js';

describe('delivery targets below localhost', () => {
  it('are refused unless listed, like any name', () => {
    for (const url of ['http://evil.localhost:9/x', 'http://a.b.localhost/', 'http://EVIL.LOCALHOST./']) {
      expect(() => checkDeliveryTarget(url, []), url).toThrow(
        /DELIVERY_HOST_NOT_ALLOWED|MOCKPOINT_DELIVERY_ALLOW_HOSTS/,
      );
    }
    expect(checkDeliveryTarget('http://evil.localhost:9/x', ['.localhost']).hostname).toBe('evil.localhost');
    for (const url of ['http://localhost:9/', 'http://127.0.0.2/', 'http://[::1]:9/']) {
      expect(checkDeliveryTarget(url, []).href, url).toBe(new URL(url).href);
    }
  });
});

describe('the Node transport for localhost', () => {
  /** A resolver answering `addresses` for every name. */
  const resolver = (addresses: LookupAddress[]) =>
    ((_name: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
      callback(null, addresses)) as unknown as typeof import('node:dns').lookup;

  const look = (addresses: LookupAddress[]) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: string }>((resolve) => {
      loopbackOnlyLookup(resolver(addresses))('localhost', {}, (error, address) =>
        resolve({ error, address: address as string }),
      );
    });

  it('connects only when every address it resolves to is loopback', async () => {
    expect(
      await look([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]),
    ).toEqual({
      error: null,
      address: '127.0.0.1',
    });
    const refused = await look([
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]);
    expect(refused.error?.code).toBe('ELOOPBACKONLY');
    expect(refused.error?.message).toContain('localhost resolves to 10.0.0.5');
  });

  it('reads addresses as the allow lists do: every form of ::1 is loopback, ::2 is not', async () => {
    for (const address of ['0:0:0:0:0:0:0:1', '::0:1', '[::1]', '::ffff:127.0.0.1']) {
      expect((await look([{ address, family: 6 }])).error, address).toBeNull();
    }
    expect((await look([{ address: '::2', family: 6 }])).error?.code).toBe('ELOOPBACKONLY');
  });
});
