/**
 * The shared contract every backend factory must pass: the backend it returns
 * has every part, the parts serve an app together, a name's collections and
 * state go with it, `describe()` says what it is,
 * and `close()` closes what it opened. Each factory's own test file calls
 * {@link runBackendContract}; this file is excluded from direct runs by the
 * `*.case.test.ts` pattern. (Each part has its own contract suite besides.)
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import { itemOf } from '../collections/item.js';
import { createApp } from '../http/create-app.js';
import type { Backend } from './backend.js';

/** What a factory's backend must say of itself. */
export interface BackendExpectations {
  /** Its `kind`. */
  kind: string;
  /** Its `store.kind`. */
  storeKind: string;
  /** What `describe()` says. */
  describes: RegExp;
  /** Its `collections.kind`. */
  collectionsKind: string;
  /** Its `states.kind`. @default collectionsKind (each backend keeps both parts in one place) */
  statesKind?: string;
}

/** Opens a fresh, empty backend; `cleanup` runs after the case (after the backend is closed). */
export type BackendFactory = () => Promise<{ backend: Backend; cleanup?: () => Promise<void> }>;

export function runBackendContract(name: string, expected: BackendExpectations, factory: BackendFactory): void {
  describe(`${name} (backend contract)`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    async function open(): Promise<Backend> {
      const { backend, cleanup } = await factory();
      cleanups.push(async () => {
        await backend.close();
        await cleanup?.();
      });
      return backend;
    }

    it('has every part, says what it is, and is healthy', async () => {
      const backend = await open();
      expect(backend.kind).toBe(expected.kind);
      expect(backend.store.kind).toBe(expected.storeKind);
      expect(backend.describe()).toMatch(expected.describes);
      expect(backend.health()).toEqual({ status: 'ok' });
      expect(backend.warnings).toEqual([]);
      expect(typeof backend.journal.wait).toBe('function');
      expect(typeof backend.queue.push).toBe('function');
      expect(typeof backend.deliveries.create).toBe('function');
      expect(typeof backend.replays.seen).toBe('function');
      expect(backend.collections.kind).toBe(expected.collectionsKind);
      expect(backend.states.kind).toBe(expected.statesKind ?? expected.collectionsKind);
    });

    it("a name's collections go with DELETE /api/endpoints/{name}; every name's with DELETE /api/endpoints", async () => {
      const backend = await open();
      const app = createApp({ backend });
      for (const name of ['a', 'b', 'c']) {
        await backend.collections.seed(name, new Map([['users', [itemOf('{"id":1}')]]]));
      }
      expect((await app.request('/api/endpoints/a', { method: 'DELETE' })).status).toBe(204);
      expect((await backend.collections.get('a')).size).toBe(0);
      expect((await app.request('/api/endpoints/a', { method: 'DELETE' })).status).toBe(404);
      expect((await backend.collections.get('b')).size).toBe(1);
      expect((await app.request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
      expect((await backend.collections.get('b')).size).toBe(0);
      expect((await backend.collections.getSeed('c')).size).toBe(0);
    });

    it("a name's state goes with DELETE /api/endpoints/{name}; every name's with DELETE /api/endpoints", async () => {
      const backend = await open();
      const app = createApp({ backend });
      await backend.states.put('a', { default: 'ready' });
      await backend.states.put('b', { default: 'ready' });
      expect(await backend.states.move('c', {}, { default: 'moved' })).toEqual({ default: 'moved' });
      expect((await app.request('/api/endpoints/a', { method: 'DELETE' })).status).toBe(204);
      expect(await backend.states.get('a')).toEqual({});
      expect(await backend.states.getStart('a')).toEqual({});
      expect((await app.request('/api/endpoints/a', { method: 'DELETE' })).status).toBe(404);
      expect(await backend.states.get('b')).toEqual({ default: 'ready' });
      expect((await app.request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
      expect(await backend.states.get('b')).toEqual({});
      expect(await backend.states.getStart('b')).toEqual({});
      expect(await backend.states.get('c')).toEqual({});
    });

    it('its parts serve an app together: the record from the store, the queue first, the journal records, health says the store', async () => {
      const backend = await open();
      const app = createApp({ backend });
      const put = await app.request('/api/endpoint/add', {
        method: 'PUT',
        body: JSON.stringify({ name: 'hook', data: { ok: true } }),
      });
      expect(put.status).toBe(201);
      expect(await backend.store.get('hook')).toMatchObject({ name: 'hook' });
      const queued = await app.request('/api/endpoints/hook/queue', {
        method: 'POST',
        body: JSON.stringify({ answers: [{ statusCode: 202, data: 'once' }] }),
      });
      expect(queued.status).toBe(201);
      expect((await app.request('/endpoint/hook', { method: 'POST', body: 'first' })).status).toBe(202);
      expect(await (await app.request('/endpoint/hook', { method: 'POST', body: 'second' })).json()).toEqual({
        ok: true,
      });
      await expect
        .poll(async () => (await backend.journal.wait('hook', 2, 0)).requests.map((entry) => entry.body))
        .toEqual(['first', 'second']);
      const health = (await (await app.request('/api/health')).json()) as { status: string; store: string };
      expect(health).toMatchObject({ status: 'ok', store: expected.storeKind });
    });

    it('its queue gives a grpc answer to a gRPC call only, and a call nothing else', async () => {
      const backend = await open();
      await backend.queue.push('grpc-q', [
        { grpc: { message: { id: '7' } }, times: 1 },
        { statusCode: 503, times: 1 },
      ]);
      const http = { method: 'POST', subpath: '/', query: {}, headers: {}, body: '', bodyTruncated: false };
      const call = { ...http, subpath: '/shop.Shop/Get', grpc: { service: 'shop.Shop', method: 'Get', message: {} } };
      expect((await backend.queue.take('grpc-q', http))?.answer).toEqual({ statusCode: 503 });
      expect(await backend.queue.take('grpc-q', http)).toBeUndefined();
      expect((await backend.queue.take('grpc-q', call))?.answer).toEqual({ grpc: { message: { id: '7' } } });
      expect(await backend.queue.take('grpc-q', call)).toBeUndefined();
    });

    it('close() closes the store', async () => {
      const backend = await open();
      await backend.store.put({ name: 'a', data: 1, statusCode: 200, delay: 0 });
      await backend.close();
      await expect(backend.store.get('a')).rejects.toThrow();
    });
  });
}
