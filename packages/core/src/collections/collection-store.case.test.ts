/**
 * The contract every {@link CollectionStore} passes (memory, LevelDB, Redis).
 * Each implementation's test file calls {@link runCollectionStoreContract};
 * this file is excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CollectionStore, Collections } from './collection-store.js';
import { type Item, indexOfId, insertItem, itemOf, patchItem } from './item.js';

/** Opens a store; `reopen` (durable stores) closes it and opens what it wrote again. */
export interface CollectionStoreHandle {
  store: CollectionStore;
  reopen?: () => Promise<CollectionStore>;
  /** A second store on the same data, as another replica would open it (shared stores). */
  replica?: () => Promise<CollectionStore>;
  close(): Promise<void>;
}

const texts = (items: readonly Item[] | undefined) => items?.map((item) => item.text);
const all = (collections: Collections) =>
  Object.fromEntries([...collections].map(([name, items]) => [name, texts(items)]));

const USERS = ['{"id":1,"name":"Ada","big":12345678901234567890}', '{"id":2,"name":"Grace","price":1.50}'];

/**
 * Registers the contract for one implementation; the reopen case is registered
 * for the stores whose handle gives `reopen` or `replica` (`durable: true`).
 */
export function runCollectionStoreContract(
  name: string,
  open: () => Promise<CollectionStoreHandle>,
  options: { durable: boolean },
): void {
  describe(`${name} (collection store contract)`, () => {
    const handles: CollectionStoreHandle[] = [];
    afterEach(async () => {
      for (const handle of handles.splice(0).reverse()) await handle.close();
    });
    async function fresh(): Promise<CollectionStoreHandle> {
      const handle = await open();
      handles.push(handle);
      return handle;
    }

    it('a name without collections has none; a seed sets the collections and is kept as the seed', async () => {
      const { store } = await fresh();
      expect((await store.get('api')).size).toBe(0);
      await store.seed('api', new Map([['users', USERS.map(itemOf)]]));
      expect(all(await store.get('api'))).toEqual({ users: USERS });
      expect(all(await store.getSeed('api'))).toEqual({ users: USERS });
      expect((await store.get('other')).size).toBe(0);
    });

    it('edits: put, append, set in place, remove; the change function sees the items as they are', async () => {
      const { store } = await fresh();
      const seen: (string[] | undefined)[] = [];
      const step = (edit: Parameters<CollectionStore['update']>[2]) =>
        store.update('api', 'users', (items) => {
          seen.push(texts(items));
          return edit(items);
        });
      await step(() => ({ edit: { put: USERS.map(itemOf) }, result: undefined }));
      await step(() => ({ edit: { append: itemOf('{"id":3}') }, result: undefined }));
      await step(() => ({ edit: { set: 0, item: itemOf('{"id":1,"name":"Lovelace"}') }, result: undefined }));
      const result = await step(() => ({ edit: { remove: 1 }, result: 'removed' }));
      expect(result).toBe('removed');
      expect(seen).toEqual([
        undefined,
        USERS,
        [...USERS, '{"id":3}'],
        ['{"id":1,"name":"Lovelace"}', USERS[1], '{"id":3}'],
      ]);
      expect(all(await store.get('api'))).toEqual({ users: ['{"id":1,"name":"Lovelace"}', '{"id":3}'] });
      // No edit: nothing changes, the result still comes back.
      expect(await store.update('api', 'users', (items) => ({ result: items?.length }))).toBe(2);
      expect(await store.update('api', 'none', (items) => ({ result: items }))).toBeUndefined();
      expect([...(await store.get('api')).keys()]).toEqual(['users']);
    });

    it('50 concurrent inserts get 50 distinct ids and all 50 are kept', async () => {
      const { store } = await fresh();
      await store.seed('api', new Map([['users', []]]));
      const ids = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          store.update('api', 'users', (items) => {
            const inserted = insertItem(items ?? [], itemOf(`{"n":${i}}`), 'id');
            if (!('item' in inserted)) throw new Error('taken');
            return { edit: { append: inserted.item }, result: inserted.item.value.id };
          }),
        ),
      );
      expect(new Set(ids).size).toBe(50);
      const users = (await store.get('api')).get('users') ?? [];
      expect(users.length).toBe(50);
      expect(new Set(users.map((user) => user.value.n)).size).toBe(50);
    });

    it('concurrent patches of different fields of one item lose neither', async () => {
      const { store } = await fresh();
      await store.seed('api', new Map([['users', [itemOf('{"id":1}')]]]));
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.update('api', 'users', (items) => {
            const at = indexOfId(items ?? [], 'id', '1');
            const item = patchItem((items ?? [])[at] as Item, itemOf(`{"f${i}":${i}}`), 'id');
            return { edit: { set: at, item }, result: undefined };
          }),
        ),
      );
      const [user] = (await store.get('api')).get('users') ?? [];
      expect(Object.keys(user?.value ?? {}).sort()).toEqual(
        ['id', ...Array.from({ length: 20 }, (_, i) => `f${i}`)].sort(),
      );
    });

    it('reset returns to the seed; a new seed replaces every collection; delete and clear forget', async () => {
      const { store } = await fresh();
      await store.seed(
        'api',
        new Map([
          ['users', USERS.map(itemOf)],
          ['posts', []],
        ]),
      );
      await store.update('api', 'users', () => ({ edit: { remove: 0 }, result: undefined }));
      await store.update('api', 'extra', () => ({ edit: { put: [itemOf('{"id":1}')] }, result: undefined }));
      await store.reset('api');
      expect(all(await store.get('api'))).toEqual({ users: USERS, posts: [] });
      await store.seed('api', new Map([['tags', [itemOf('{"id":"a"}')]]]));
      expect(all(await store.get('api'))).toEqual({ tags: ['{"id":"a"}'] });
      await store.seed('other', new Map([['x', []]]));
      expect((await store.names()).sort()).toEqual(['api', 'other']);
      expect(await store.delete('api')).toBe(true);
      expect(await store.names()).toEqual(['other']);
      expect(await store.delete('api')).toBe(false);
      expect((await store.get('api')).size).toBe(0);
      expect((await store.getSeed('api')).size).toBe(0);
      expect((await store.get('other')).size).toBe(1);
      await store.clear();
      expect((await store.get('other')).size).toBe(0);
      expect((await store.getSeed('other')).size).toBe(0);
      expect(await store.names()).toEqual([]);
    });

    it('seedOne replaces one collection and its seed, or removes both; the others stay as they are', async () => {
      const { store } = await fresh();
      await store.seed(
        'api',
        new Map([
          ['users', USERS.map(itemOf)],
          ['posts', [itemOf('{"id":1}')]],
        ]),
      );
      await store.update('api', 'posts', () => ({ edit: { append: itemOf('{"id":2}') }, result: undefined }));
      await store.seedOne('api', 'users', [itemOf('{"id":"x"}')]);
      expect(all(await store.get('api'))).toEqual({ users: ['{"id":"x"}'], posts: ['{"id":1}', '{"id":2}'] });
      expect(all(await store.getSeed('api'))).toEqual({ users: ['{"id":"x"}'], posts: ['{"id":1}'] });
      await store.seedOne('api', 'tags', []);
      expect(all(await store.get('api')).tags).toEqual([]);
      await store.seedOne('api', 'posts', undefined);
      expect(Object.keys(all(await store.get('api'))).sort()).toEqual(['tags', 'users']);
      expect(Object.keys(all(await store.getSeed('api'))).sort()).toEqual(['tags', 'users']);
      await store.reset('api');
      expect(all(await store.get('api'))).toEqual({ users: ['{"id":"x"}'], tags: [] });
    });

    it('a reset of a name without a seed empties it', async () => {
      const { store } = await fresh();
      await store.update('api', 'users', () => ({ edit: { put: [itemOf('{"id":1}')] }, result: undefined }));
      await store.reset('api');
      expect((await store.get('api')).size).toBe(0);
    });

    it('a rolling put (the oldest dropped, new ones after the rest) holds what was put; later edits land where they should', async () => {
      const handle = await fresh();
      const { store } = handle;
      const first = Array.from({ length: 5 }, (_, i) => itemOf(`{"id":${i}}`));
      await store.update('api', 'events', () => ({ edit: { put: first }, result: undefined }));
      // As an events collection at its cap keeps the newest: the items as read, 2 dropped, 2 added.
      await store.update('api', 'events', (items) => ({
        edit: { put: [...(items ?? []).slice(2), itemOf('{"id":5}'), itemOf('{"id":6}')] },
        result: undefined,
      }));
      expect(texts((await store.get('api')).get('events'))).toEqual([
        '{"id":2}',
        '{"id":3}',
        '{"id":4}',
        '{"id":5}',
        '{"id":6}',
      ]);
      await store.update('api', 'events', () => ({ edit: { remove: 0 }, result: undefined }));
      await store.update('api', 'events', () => ({ edit: { set: 1, item: itemOf('{"id":40}') }, result: undefined }));
      await store.update('api', 'events', () => ({ edit: { append: itemOf('{"id":7}') }, result: undefined }));
      // Every item dropped, only new ones: a put keeping nothing of what was there.
      await store.update('api', 'other', () => ({ edit: { put: first.slice(0, 2) }, result: undefined }));
      await store.update('api', 'other', () => ({ edit: { put: [itemOf('{"id":9}')] }, result: undefined }));
      const expected = { events: ['{"id":3}', '{"id":40}', '{"id":5}', '{"id":6}', '{"id":7}'], other: ['{"id":9}'] };
      expect(all(await store.get('api'))).toEqual(expected);
      if (!options.durable) return;
      const other = handle.reopen ? await handle.reopen() : await (handle.replica as () => Promise<CollectionStore>)();
      expect(all(await other.get('api'))).toEqual(expected);
    });

    it('refuses a collection name outside A-Z a-z 0-9 _ - (1-64)', async () => {
      const { store } = await fresh();
      await expect(store.update('api', 'a b', () => ({ result: 1 }))).rejects.toThrow(/collection names/);
      await expect(store.seed('api', new Map([['x'.repeat(65), []]]))).rejects.toThrow(/collection names/);
    });

    if (!options.durable) return;
    it('everything written is there after a reopen (or on another replica), in order, seeds included', async () => {
      const handle = await fresh();
      const { store } = handle;
      await store.seed('api', new Map([['users', USERS.map(itemOf)]]));
      for (let i = 3; i <= 12; i++) {
        await store.update('api', 'users', () => ({ edit: { append: itemOf(`{"id":${i}}`) }, result: undefined }));
      }
      await store.update('api', 'users', () => ({ edit: { remove: 0 }, result: undefined }));
      await store.update('api', 'users', () => ({
        edit: { set: 0, item: itemOf('{"id":2,"x":[1]}') },
        result: undefined,
      }));
      const expected = all(await store.get('api'));
      const other = handle.reopen ? await handle.reopen() : await (handle.replica as () => Promise<CollectionStore>)();
      expect(all(await other.get('api'))).toEqual(expected);
      expect(all(await other.getSeed('api'))).toEqual({ users: USERS });
      await other.reset('api');
      expect(all(await other.get('api'))).toEqual({ users: USERS });
    });
  });
}
