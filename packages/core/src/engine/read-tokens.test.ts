import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RouteTable } from '../answer/routes/route-table.js';
import type { Route } from '../api/route.js';
import { MemoryAnswerQueue } from '../store/memory/memory-answer-queue.js';
import { MemoryCollectionStore } from '../store/memory/memory-collection-store.js';
import { MemoryStateStore } from '../store/memory/memory-state-store.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { SLICED_ROUTES_CHARS } from '../turns/turn-budget.js';
import { EndpointService } from './endpoint-service.js';
import { type NameCache, ReadTokens } from './read-tokens.js';

/** A cache that is a plain Map. */
function mapCache<T>(): NameCache<T> & { map: Map<string, T> } {
  const map = new Map<string, T>();
  return {
    map,
    get: (name) => map.get(name),
    set: (name, value) => void map.set(name, value),
    delete: (name) => void map.delete(name),
    clear: () => map.clear(),
  };
}

/** A load the test finishes: how often it was started, and its release. */
function heldLoads(): { started: number; release: (value: string) => void; load: () => Promise<string> } {
  const releases: ((value: string) => void)[] = [];
  const held = {
    started: 0,
    release: (value: string) => {
      for (const release of releases.splice(0)) release(value);
    },
    load: () => {
      held.started++;
      return new Promise<string>((resolve) => releases.push(resolve));
    },
  };
  return held;
}

describe('ReadTokens: reads of a name while its load is under way', () => {
  it('share that load, which fills the cache', async () => {
    const cache = mapCache<string>();
    const tokens = new ReadTokens(cache, () => true);
    const held = heldLoads();
    const reads = [tokens.read('a', held.load), tokens.read('a', held.load), tokens.read('a', held.load)];
    expect(held.started).toBe(1);
    held.release('value');
    expect(await Promise.all(reads)).toEqual(['value', 'value', 'value']);
    expect(cache.map.get('a')).toBe('value');
    expect(await tokens.read('a', held.load)).toBe('value');
    expect(held.started).toBe(1);
  });

  it('do not share a load a write has withdrawn: the read after the write loads again', async () => {
    const cache = mapCache<string>();
    const tokens = new ReadTokens(cache, () => true);
    const held = heldLoads();
    const before = tokens.read('a', held.load);
    tokens.forget('a');
    const after = tokens.read('a', held.load);
    expect(held.started).toBe(2);
    held.release('new');
    expect(await before).toBe('new');
    expect(await after).toBe('new');
    // The withdrawn load did not fill the cache; the one after the write did.
    expect(cache.map.get('a')).toBe('new');
  });
});

/** ~800 bytes of JSON, each route's answer. */
const data = {
  items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, note: 'x'.repeat(60) })),
};

describe('EndpointService: the route table of a long list under a steady stream of reads', () => {
  it('is compiled once and cached, not once per read', async () => {
    const service = new EndpointService(
      new MemoryStore(),
      16 * 1024 * 1024,
      new MemoryAnswerQueue(),
      new MemoryCollectionStore(),
      new MemoryStateStore(),
    );
    // Long enough to be decoded a slice per turn (several turns per read), as the last of 1,000 routes is.
    const routes: Route[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `r${i}`,
      match: { method: 'GET', path: `/items/${i}/detail` },
      answer: { statusCode: 201, data },
    }));
    expect(JSON.stringify(routes).length).toBeGreaterThan(SLICED_ROUTES_CHARS);
    await service.updateRoutes('many', () => routes);
    // A new request every turn while the first reads are still decoding, as under load.
    const reads: Promise<RouteTable | null>[] = [];
    for (let i = 0; i < 200; i++) {
      reads.push(service.routeTable('many'));
      await setImmediate();
    }
    const tables = new Set(await Promise.all(reads));
    expect(tables.has(null)).toBe(false);
    // Before, each read took a token of its own and withdrew the one before: 200 tables, none cached.
    expect(tables.size).toBe(1);
    expect(await service.routeTable('many')).toBe([...tables][0]);
  });
});
