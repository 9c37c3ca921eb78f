import { describe, expect, it } from 'vitest';
import type { Route } from '../../api/route.js';
import { JsonText } from '../../codec/json-text.js';
import { runStoreContract } from '../store.case.test.js';
import { MemoryStore } from './memory-store.js';

runStoreContract('MemoryStore', async () => new MemoryStore());

describe('MemoryStore route updates', () => {
  it('250 concurrent updates of one name all land, none refused (a proxy recording under load)', async () => {
    // Each update yields (its list is written in turns); computed again on every collision, the
    // 101st writer in line was refused with STORE_UNAVAILABLE. They wait for each other now.
    const store = new MemoryStore();
    const route = (id: string): Route => ({
      id,
      match: { method: 'GET', path: `/${id}` },
      answer: { statusCode: 200, data: new JsonText(`"${id}"`) },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 250 }, (_, i) => store.updateRoutes('rec', (current) => [...current, route(`r${i}`)])),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect((await store.getRoutes('rec')).map((r) => r.id)).toEqual(Array.from({ length: 250 }, (_, i) => `r${i}`));
  });
});
