/**
 * The contract every {@link StateStore} passes (memory, LevelDB, Redis). Each
 * implementation's test file calls {@link runStateStoreContract}; this file is
 * excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StateStore } from './state-store.js';

/** Opens a store; `reopen` (durable stores) closes it and opens what it wrote again. */
export interface StateStoreHandle {
  store: StateStore;
  reopen?: () => Promise<StateStore>;
  /** A second store on the same data, as another replica would open it (shared stores). */
  replica?: () => Promise<StateStore>;
  close(): Promise<void>;
}

/** Registers the contract for one implementation; `durable` stores give `reopen` or `replica`. */
export function runStateStoreContract(
  name: string,
  open: () => Promise<StateStoreHandle>,
  options: { durable: boolean },
): void {
  describe(`${name} (state store contract)`, () => {
    const handles: StateStoreHandle[] = [];
    afterEach(async () => {
      for (const handle of handles.splice(0).reverse()) await handle.close();
    });
    async function fresh(): Promise<StateStoreHandle> {
      const handle = await open();
      handles.push(handle);
      return handle;
    }

    it('a name has no scenarios until one is put or moved; a put is its start too', async () => {
      const { store } = await fresh();
      expect(await store.get('api')).toEqual({});
      await store.put('api', { default: 'paid', login: 'started' });
      expect(await store.get('api')).toEqual({ default: 'paid', login: 'started' });
      expect(await store.getStart('api')).toEqual({ default: 'paid', login: 'started' });
      expect(await store.get('other')).toEqual({});
    });

    it('moves only from the state expected: an absent scenario is at started', async () => {
      const { store } = await fresh();
      expect(await store.move('api', { default: 'started' }, { default: 'one' })).toEqual({ default: 'one' });
      expect(await store.move('api', { default: 'started' }, { default: 'two' })).toBeUndefined();
      expect(await store.get('api')).toEqual({ default: 'one' });
      expect(await store.move('api', { default: 'one', other: 'started' }, { other: 'x' })).toEqual({
        default: 'one',
        other: 'x',
      });
      expect(await store.move('api', {}, {})).toEqual({ default: 'one', other: 'x' });
    });

    it('of 20 concurrent moves from started, exactly one moves', async () => {
      const { store } = await fresh();
      const moved = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.move('api', { default: 'started' }, { default: `by-${i}` })),
      );
      const winners = moved.filter((states) => states !== undefined);
      expect(winners).toHaveLength(1);
      expect(await store.get('api')).toEqual(winners[0]);
    });

    it('reset returns to the start (put), or to started for scenarios never put', async () => {
      const { store } = await fresh();
      await store.put('api', { default: 'ready' });
      await store.move('api', { default: 'ready' }, { default: 'gone', extra: 'x' });
      await store.reset('api');
      expect(await store.get('api')).toEqual({ default: 'ready' });
      await store.move('api', {}, { more: 'y' });
      await store.put('api', {});
      await store.move('api', {}, { more: 'z' });
      await store.reset('api');
      expect(await store.get('api')).toEqual({});
      await store.reset('never');
      expect(await store.get('never')).toEqual({});
    });

    it('delete forgets one name, clear every name; names lists the names with any', async () => {
      const { store } = await fresh();
      await store.put('a', { default: 'x' });
      await store.move('b', {}, { default: 'y' });
      expect((await store.names()).sort()).toEqual(['a', 'b']);
      expect(await store.delete('a')).toBe(true);
      expect(await store.delete('a')).toBe(false);
      expect(await store.get('a')).toEqual({});
      expect(await store.getStart('a')).toEqual({});
      expect(await store.get('b')).toEqual({ default: 'y' });
      expect(await store.names()).toEqual(['b']);
      await store.clear();
      expect(await store.get('b')).toEqual({});
      expect(await store.names()).toEqual([]);
    });

    it('refuses scenario names and values outside the name rule, and __proto__', async () => {
      const { store } = await fresh();
      await expect(store.put('api', { 'a b': 'x' })).rejects.toThrow(/1-64 of A-Z/);
      await expect(store.move('api', {}, JSON.parse('{"__proto__":"x"}'))).rejects.toThrow(/__proto__/);
      await expect(store.move('api', {}, { default: 'é' })).rejects.toThrow(/1-64 of A-Z/);
      expect(await store.get('api')).toEqual({});
    });

    if (options.durable) {
      it('what was acknowledged is there after a reopen (or on another replica)', async () => {
        const handle = await fresh();
        await handle.store.put('api', { default: 'ready', b: 'one' });
        await handle.store.move('api', { default: 'ready' }, { default: 'paid' });
        await handle.store.move('other', {}, { c: 'x' });
        const again = handle.replica ? await handle.replica() : await (handle.reopen as () => Promise<StateStore>)();
        expect(await again.get('api')).toEqual({ default: 'paid', b: 'one' });
        expect(await again.getStart('api')).toEqual({ default: 'ready', b: 'one' });
        expect(await again.get('other')).toEqual({ c: 'x' });
        // A replica sees the other's moves: only one of two moves from `paid` lands.
        if (handle.replica) {
          const both = await Promise.all([
            handle.store.move('api', { default: 'paid' }, { default: 'a' }),
            again.move('api', { default: 'paid' }, { default: 'b' }),
          ]);
          expect(both.filter((states) => states !== undefined)).toHaveLength(1);
        }
      });
    }
  });
}
