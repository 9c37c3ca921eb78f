/**
 * The shared contract every {@link DeliveryStore} must pass. Each store's own
 * test file calls {@link runDeliveryStoreContract}; this file is excluded from
 * direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type DeliveryStore, newDeliveryId, type StoredDelivery } from './delivery-store.js';

/** Makes a fresh, empty, open delivery store, and what lets go of it after the test. */
export type DeliveryStoreFactory = () => Promise<{ store: DeliveryStore; close: () => Promise<void> }>;

/** A pending delivery, due now. */
function pending(now = Date.now()): StoredDelivery {
  return {
    id: newDeliveryId(now),
    url: 'http://127.0.0.1:9/hook',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    bodyBase64: 'e30=',
    bodyBytes: 2,
    delaysMs: [],
    timeoutMs: 1000,
    createdAt: now,
    state: 'pending',
    nextAttemptAt: now,
    attempts: [],
    version: 1,
  };
}

export function runDeliveryStoreContract(name: string, factory: DeliveryStoreFactory): void {
  describe(`${name} (delivery store contract)`, () => {
    const opened: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of opened.splice(0)) await close();
    });
    async function open(): Promise<DeliveryStore> {
      const { store, close } = await factory();
      opened.push(close);
      return store;
    }

    it('refuses a create once the limit is pending, atomically: 200 concurrent creates after 900 leave exactly 1,000 pending', async () => {
      const store = await open();
      const limit = 1000;
      // The first 900 in batches (under the limit, so their order does not matter).
      for (let batch = 0; batch < 9; batch++) {
        const created = await Promise.all(Array.from({ length: 100 }, () => store.create(pending(), limit)));
        expect(created.every((one) => one === true)).toBe(true);
      }
      const racing = await Promise.all(Array.from({ length: 200 }, () => store.create(pending(), limit)));
      expect(racing.filter((created) => created === true)).toHaveLength(100);
      expect(racing.filter((created) => created === false)).toHaveLength(100);
      expect(await store.pendingCount()).toBe(limit);
      expect(await store.list(2000)).toHaveLength(limit);
    });

    it('counts only pending deliveries against the limit: a finished one makes room', async () => {
      const store = await open();
      const one = pending();
      expect(await store.create(one, 1)).toBe(true);
      expect(await store.create(pending(), 1)).toBe(false);
      const done: StoredDelivery = { ...one, state: 'delivered', nextAttemptAt: undefined, version: 2 };
      expect(await store.update(done)).toBe(true);
      expect(await store.create(pending(), 1)).toBe(true);
      expect(await store.pendingCount()).toBe(1);
    });

    it("keeps a delivery made finished (a twin's not-sent one) without ever making it due", async () => {
      const store = await open();
      const now = Date.now();
      const unsent: StoredDelivery = {
        ...pending(now),
        url: 'https://example.com/hook',
        state: 'not-sent',
        nextAttemptAt: undefined,
        outcome: { code: 'HOST_NOT_ALLOWED', message: 'not sent', hint: 'list it' },
      };
      expect(await store.create(unsent, 1)).toBe(true);
      expect(await store.pendingCount()).toBe(0);
      expect(await store.nextDue()).toBeUndefined();
      expect(await store.claim(now + 60_000, 10)).toEqual([]);
      expect(await store.get(unsent.id)).toEqual(unsent);
      expect((await store.list(10)).map((one) => one.id)).toEqual([unsent.id]);
      // It takes no room of the pending ones.
      expect(await store.create(pending(now), 1)).toBe(true);
    });
  });
}
