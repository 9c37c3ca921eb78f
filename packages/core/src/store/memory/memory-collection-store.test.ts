import { describe, expect, it } from 'vitest';
import { runCollectionStoreContract } from '../../collections/collection-store.case.test.js';
import { itemOf } from '../../collections/item.js';
import { type CollectionLog, type LogChange, MemoryCollectionStore } from './memory-collection-store.js';

runCollectionStoreContract(
  'MemoryCollectionStore',
  async () => ({ store: new MemoryCollectionStore(), close: async () => undefined }),
  { durable: false },
);

/** A log in a Map, failing on demand: what a LevelDB log does, without the disk. */
function mapLog(): CollectionLog & { entries: Map<string, string>; batches: LogChange[][]; fail: boolean } {
  const log = {
    kind: 'map',
    entries: new Map<string, string>(),
    batches: [] as LogChange[][],
    fail: false,
    load: async () => [...log.entries],
    write: async (changes: readonly LogChange[]) => {
      if (log.fail) throw new Error('disk full');
      log.batches.push([...changes]);
      for (const { key, value } of changes) {
        if (value === undefined) log.entries.delete(key);
        else log.entries.set(key, value);
      }
    },
    clear: async () => log.entries.clear(),
  };
  return log;
}

describe('MemoryCollectionStore with a log', () => {
  runCollectionStoreContract(
    'MemoryCollectionStore over a Map log',
    async () => {
      const log = mapLog();
      return {
        store: await MemoryCollectionStore.open(log),
        reopen: () => MemoryCollectionStore.open(log),
        close: async () => undefined,
      };
    },
    { durable: true },
  );

  it('writes one key per appended item, not its whole collection', async () => {
    const log = mapLog();
    const store = await MemoryCollectionStore.open(log);
    await store.seed('api', new Map([['users', Array.from({ length: 100 }, (_, i) => itemOf(`{"id":${i}}`))]]));
    await store.update('api', 'users', () => ({ edit: { append: itemOf('{"id":100}') }, result: undefined }));
    expect(log.batches.at(-1)).toHaveLength(1);
  });

  it('a rolling put writes the keys it drops and the items it adds, not its whole collection', async () => {
    const log = mapLog();
    const store = await MemoryCollectionStore.open(log);
    const events = Array.from({ length: 1000 }, (_, i) => itemOf(`{"id":${i}}`));
    await store.update('api', 'events', () => ({ edit: { put: events }, result: undefined }));
    await store.update('api', 'events', (items) => ({
      edit: { put: [...(items ?? []).slice(1), itemOf('{"id":1000}')] },
      result: undefined,
    }));
    expect(log.batches.at(-1)).toHaveLength(2);
    expect(log.batches.at(-1)?.map((change) => change.value)).toEqual([undefined, '{"id":1000}']);
    // What the log holds opens as what memory holds.
    const reopened = await MemoryCollectionStore.open(log);
    const texts = (await reopened.get('api')).get('events')?.map((item) => item.text);
    expect(texts).toHaveLength(1000);
    expect(texts?.[0]).toBe('{"id":1}');
    expect(texts?.at(-1)).toBe('{"id":1000}');
  });

  it('a clear waits for the changes under way, and changes asked during it wait for it: memory and the log agree', async () => {
    const log = mapLog();
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const write = log.write;
    log.write = async (changes) => {
      await slow;
      await write(changes);
    };
    const store = await MemoryCollectionStore.open(log);
    const before = store.update('api', 'users', () => ({ edit: { put: [itemOf('{"id":1}')] }, result: 'before' }));
    const clearing = store.clear();
    const after = store.update('other', 'users', () => ({ edit: { put: [itemOf('{"id":2}')] }, result: 'after' }));
    release();
    expect(await Promise.all([before, clearing, after])).toEqual(['before', undefined, 'after']);
    // Whichever order they took, what memory holds is what the log holds (what a restart loads).
    const reopened = await MemoryCollectionStore.open(log);
    for (const name of ['api', 'other']) {
      const texts = async (from: MemoryCollectionStore) =>
        [...(await from.get(name))].map(([collection, items]) => [collection, items.map((item) => item.text)]);
      expect(await texts(store), name).toEqual(await texts(reopened));
    }
    expect((await store.get('other')).get('users')?.map((item) => item.text)).toEqual(['{"id":2}']);
  });

  it('a failed write is not acknowledged and changes nothing', async () => {
    const log = mapLog();
    const store = await MemoryCollectionStore.open(log);
    await store.seed('api', new Map([['users', [itemOf('{"id":1}')]]]));
    log.fail = true;
    await expect(
      store.update('api', 'users', () => ({ edit: { append: itemOf('{"id":2}') }, result: undefined })),
    ).rejects.toThrow('disk full');
    expect((await store.get('api')).get('users')?.map((item) => item.text)).toEqual(['{"id":1}']);
    log.fail = false;
    await store.update('api', 'users', () => ({ edit: { append: itemOf('{"id":3}') }, result: undefined }));
    expect((await MemoryCollectionStore.open(log).then((s) => s.get('api'))).get('users')?.map((i) => i.text)).toEqual([
      '{"id":1}',
      '{"id":3}',
    ]);
  });
});
