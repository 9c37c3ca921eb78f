/**
 * The shared contract every {@link ReplayGuard} must pass (the memory one and the
 * Redis one). Each guard's own test file calls {@link runReplayGuardContract};
 * this file is excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplayGuard } from './replay-guard.js';

/** Makes a fresh guard that remembers nothing yet, and what lets go of it after the test. */
export type ReplayGuardFactory = () => Promise<{ guard: ReplayGuard; close: () => Promise<void> }>;

export function runReplayGuardContract(name: string, factory: ReplayGuardFactory): void {
  describe(`${name} (replay guard contract)`, () => {
    const opened: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of opened.splice(0)) await close();
    });
    async function open(): Promise<ReplayGuard> {
      const { guard, close } = await factory();
      opened.push(close);
      return guard;
    }

    it('a new id is fresh, the same id again within its time is a replay, another id is fresh', async () => {
      const guard = await open();
      expect(await guard.seen('hook\nstandard\nmsg_1', 300)).toBe(false);
      expect(await guard.seen('hook\nstandard\nmsg_1', 300)).toBe(true);
      expect(await guard.seen('other\nstandard\nmsg_1', 300)).toBe(false);
      expect(await guard.seen('hook\nstandard\nmsg_2', 300)).toBe(false);
    });

    it('of 20 concurrent sightings of one fresh id, exactly one is fresh', async () => {
      const guard = await open();
      const seen = await Promise.all(Array.from({ length: 20 }, () => guard.seen('hook\nstandard\nraced', 300)));
      expect(seen.filter((replay) => replay === false)).toHaveLength(1);
    });

    it('forgets an id when its time is over: it is fresh again, then a replay again', async () => {
      const guard = await open();
      expect(await guard.seen('hook\nstandard\nshort', 1)).toBe(false);
      // Each sighting within the second is a replay (and does not extend it); the first after it is fresh.
      await expect.poll(() => guard.seen('hook\nstandard\nshort', 1), { timeout: 10_000, interval: 100 }).toBe(false);
      expect(await guard.seen('hook\nstandard\nshort', 300)).toBe(true);
    });
  });
}
