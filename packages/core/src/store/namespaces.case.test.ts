/**
 * The contract every backend's namespaces pass (`Backend.namespaces`,
 * namespaces.ts): the registry's steps, each namespace's parts kept apart from
 * the default namespace's and every other's, a closed namespace opened again
 * as it was, a dropped one empty, and a reset of the default namespace leaving
 * the others. Each backend's test file calls {@link runNamespacesContract};
 * excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointRecord } from '../api/schemas.js';
import { itemOf } from '../collections/item.js';
import type { Backend } from './backend.js';
import type { BackendNamespaces, NamespaceEntry } from './namespaces.js';

/** Opens a fresh, empty backend that has namespaces; `cleanup` runs after it is closed. */
export type NamespacesFactory = () => Promise<{ backend: Backend; cleanup?: () => Promise<void> }>;

function entry(name: string, extra: Partial<NamespaceEntry> = {}): NamespaceEntry {
  return { name, tokenHash: `${name}-hash`, createdAt: 1000, usedAt: 1000, ...extra };
}

/** A record's data as a plain value, however the store keeps it (as given, or as its JSON text). */
function dataOf(record: EndpointRecord | undefined): unknown {
  return record === undefined ? undefined : JSON.parse(JSON.stringify(record.data));
}

export function runNamespacesContract(name: string, factory: NamespacesFactory): void {
  describe(`${name} (namespaces contract)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    async function open(): Promise<{ backend: Backend; namespaces: BackendNamespaces }> {
      const { backend, cleanup } = await factory();
      cleanups.push(async () => {
        await backend.close();
        await cleanup?.();
      });
      const namespaces = backend.namespaces;
      if (namespaces === undefined) throw new Error(`${name}: the backend has no namespaces`);
      return { backend, namespaces };
    }
    async function part(namespaces: BackendNamespaces, ns: string): Promise<Backend> {
      const backend = await namespaces.open(ns);
      cleanups.push(() => backend.close());
      return backend;
    }

    it('the registry creates once, refuses past its bound, lists by name, touches forward and deletes', async () => {
      const { registry } = (await open()).namespaces;
      expect(await registry.list()).toEqual([]);
      expect(await registry.create(entry('b', { ttlMs: 5000 }), 3)).toBe('created');
      expect(await registry.create(entry('b'), 3)).toBe('exists');
      expect(await registry.create(entry('a'), 3)).toBe('created');
      expect(await registry.create(entry('a-1'), 3)).toBe('created');
      expect(await registry.create(entry('c'), 3)).toBe('full');
      expect((await registry.list()).map((e) => e.name)).toEqual(['a', 'a-1', 'b']);
      expect(await registry.get('b')).toEqual(entry('b', { ttlMs: 5000 }));
      expect(await registry.get('c')).toBeUndefined();
      await registry.touch('b', 9000);
      await registry.touch('b', 2000);
      expect((await registry.get('b'))?.usedAt).toBe(9000);
      await registry.touch('gone', 9000);
      expect(await registry.get('gone')).toBeUndefined();
      expect(await registry.delete('a')).toBe(true);
      expect(await registry.delete('a')).toBe(false);
      expect(await registry.create(entry('c'), 3)).toBe('created');
    });

    it('the registry creates a batch whole or not at all: a taken name or too little room leaves none', async () => {
      const { registry } = (await open()).namespaces;
      expect(await registry.create(entry('b'), 5)).toBe('created');
      expect(await registry.createAll([entry('a'), entry('b'), entry('c')], 5)).toBe('exists');
      expect(await registry.createAll([entry('a'), entry('c'), entry('d'), entry('e'), entry('f')], 5)).toBe('full');
      expect((await registry.list()).map((e) => e.name)).toEqual(['b']);
      expect(await registry.createAll([entry('a', { ttlMs: 5000 }), entry('c'), entry('d')], 5)).toBe('created');
      expect((await registry.list()).map((e) => e.name)).toEqual(['a', 'b', 'c', 'd']);
      expect(await registry.get('a')).toEqual(entry('a', { ttlMs: 5000 }));
      // Concurrent batches take the room one whole step each: with room for two more, one of three batches of two fits.
      const outcomes = await Promise.all(
        ['x', 'y', 'z'].map((n) => registry.createAll([entry(`${n}1`), entry(`${n}2`)], 6)),
      );
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
      expect(await registry.list()).toHaveLength(6);
    });

    it("keeps each namespace's parts apart from the default namespace's and every other's", async () => {
      const { backend, namespaces } = await open();
      const one = await part(namespaces, 'one');
      const two = await part(namespaces, 'two');
      expect(await one.store.create({ name: 'a', data: 1, statusCode: 200, delay: 0 })).toBe(true);
      expect(await two.store.create({ name: 'a', data: 2, statusCode: 201, delay: 0 })).toBe(true);
      await one.collections.seed('a', new Map([['users', [itemOf('{"id":1}')]]]));
      expect(await backend.store.get('a')).toBeUndefined();
      expect(dataOf(await one.store.get('a'))).toBe(1);
      expect(dataOf(await two.store.get('a'))).toBe(2);
      expect((await one.collections.get('a')).size).toBe(1);
      expect((await two.collections.get('a')).size).toBe(0);
      expect((await backend.collections.get('a')).size).toBe(0);
      expect((await backend.store.list({ limit: 10 })).endpoints).toEqual([]);
      expect(await backend.store.count()).toBe(0);
      expect(await one.store.count()).toBe(1);
      // A namespace's backend has no namespaces of its own.
      expect(one.namespaces).toBeUndefined();
    });

    it("a reset of the default namespace leaves every other namespace's data", async () => {
      const { backend, namespaces } = await open();
      const one = await part(namespaces, 'one');
      await backend.store.create({ name: 'a', data: 0, statusCode: 200, delay: 0 });
      await one.store.create({ name: 'a', data: 1, statusCode: 200, delay: 0 });
      await one.collections.seed('a', new Map([['users', [itemOf('{"id":1}')]]]));
      await backend.store.clear();
      await backend.collections.clear();
      expect(await backend.store.get('a')).toBeUndefined();
      expect(dataOf(await one.store.get('a'))).toBe(1);
      expect((await one.collections.get('a')).size).toBe(1);
    });

    it('a closed namespace opens again as it was; a dropped one opens empty', async () => {
      const { namespaces } = await open();
      const first = await namespaces.open('one');
      await first.store.create({ name: 'a', data: 1, statusCode: 200, delay: 0 });
      await first.states.clear();
      await first.close();
      const again = await part(namespaces, 'one');
      expect(dataOf(await again.store.get('a'))).toBe(1);
      await again.close();
      await namespaces.drop('one');
      const fresh = await part(namespaces, 'one');
      expect(await fresh.store.get('a')).toBeUndefined();
      expect(await fresh.store.count()).toBe(0);
    });

    it('dropping one namespace leaves a namespace whose name starts with it', async () => {
      const { namespaces } = await open();
      const a = await namespaces.open('a');
      const ab = await part(namespaces, 'ab');
      await a.store.create({ name: 'x', data: 1, statusCode: 200, delay: 0 });
      await ab.store.create({ name: 'x', data: 2, statusCode: 200, delay: 0 });
      await a.close();
      await namespaces.drop('a');
      expect(dataOf(await ab.store.get('x'))).toBe(2);
    });
  });
}
