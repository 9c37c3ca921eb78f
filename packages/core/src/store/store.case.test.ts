/**
 * The shared contract every {@link EndpointStore} must pass. Each store's own test
 * file calls {@link runStoreContract}; this file is excluded from direct runs by
 * the `*.case.test.ts` pattern.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ChaosSettings, NAMESPACE_CHAOS_KEY } from '../api/chaos.js';
import { type Route, routesJson } from '../api/route.js';
import type { EndpointRecord } from '../api/schemas.js';
import { JsonText, jsonTextOf } from '../codec/json-text.js';
import { SETTING_KINDS, type SettingKind, type SettingValue } from '../settings/name-settings.js';
import type { SignatureSettings } from '../signing/signature-settings.js';
import { boundedStore } from './bounded-store.js';
import { storeNames } from './name-ledger.js';
import type { EndpointStore } from './store.js';

/**
 * Two values of every declared setting (settings/name-settings.ts), as the API accepts them: the
 * contract runs over each (and files/export-settings.test.ts exports the first). A new setting fails to compile here until it has its two.
 */
export const SETTING_SAMPLES: { [K in SettingKind]: readonly [SettingValue<K>, SettingValue<K>] } = {
  graphql: ['# Schéma 🚀\r\n\r\ntype Query {\n  "Ein Gruß"\n  hello: String\n}\n', 'type Query { a: Int }'],
  grpc: [
    JSON.stringify({ protos: { 'a/v1/a.proto': '// Grüße 🚀\r\nsyntax = "proto3";\npackage a.v1;\n' } }),
    '{"descriptorSet":"CgA="}',
  ],
  hosts: [['api.github.com', '*.githubusercontent.com'], ['uploads.github.com']],
  chaos: [
    {
      rate: 0.25,
      faults: ['reset', 'timeout', '500', '503', '429'],
      latency: { distribution: 'lognormal', median: 40, sigma: 0.5, max: 900 },
      bandwidth: 64_000,
      seed: 42,
    },
    { rate: 1, faults: ['503'] },
  ],
  signature: [
    {
      scheme: 'hmac',
      secrets: ['first secret', 'second "secret" \u00e9'],
      toleranceSec: 60,
      enforce: true,
      hmac: { header: 'X-Signature', algorithm: 'sha512', encoding: 'base64', prefix: 'sha512=' },
    },
    { scheme: 'github', secrets: ['s'], toleranceSec: 300, enforce: false },
  ],
  twin: [
    {
      document: {
        openapi: '3.0.3',
        info: { title: 'Notizen 🚀', version: '1' },
        paths: {
          '/notes': {
            get: { responses: { '200': { description: 'the notes' } } },
            post: { responses: { '201': { description: 'made' } } },
          },
          '/notes/{id}': { get: { responses: { '200': { description: 'a note' } } } },
        },
      },
      profile: { name: 'notes', ids: { style: 'sequence' } },
    },
    { document: { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} } },
  ],
};

/** Makes a fresh, empty, open store. The contract closes it after each test. */
export type StoreFactory = () => Promise<EndpointStore>;

/** A record as the app makes it: `data` as its exact JSON text. */
function record(name: string, data: unknown = { name }, statusCode = 200, delay = 0): EndpointRecord {
  return { name, data: JsonText.from(data), statusCode, delay };
}

/** A route as the API stores it: `data` as its exact JSON text. */
function route(id: string, data = `"${id}"`): Route {
  return { id, match: { method: 'GET', path: `/${id}/:x` }, answer: { statusCode: 201, data: new JsonText(data) } };
}

/** Reads every record through `list` in pages of `limit`, checking each cursor. */
async function listAll(store: EndpointStore, limit: number): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let after: string | undefined;
  // Bounded: no store in these tests holds more than a few hundred records.
  for (let pages = 1; pages <= 1000; pages++) {
    const page = await store.list(after === undefined ? { limit } : { limit, after });
    expect(page.endpoints.length).toBeLessThanOrEqual(limit);
    names.push(...page.endpoints.map((r) => r.name));
    if (page.next === null) return { names, pages };
    expect(page.next).toBe(page.endpoints.at(-1)?.name);
    after = page.next;
  }
  throw new Error('list never returned next: null');
}

/** Registers the store contract suite under `describe(name)`. */
export function runStoreContract(name: string, factory: StoreFactory): void {
  describe(`${name}: EndpointStore contract`, () => {
    const open: EndpointStore[] = [];

    async function fresh(): Promise<EndpointStore> {
      const store = await factory();
      open.push(store);
      return store;
    }

    afterEach(async () => {
      for (const store of open.splice(0)) await store.close().catch(() => undefined);
    });

    it('get of a missing name resolves undefined', async () => {
      const store = await fresh();
      expect(await store.get('missing')).toBeUndefined();
    });

    it('create then get returns the same record', async () => {
      const store = await fresh();
      const rec = record('alpha', { hello: 'world' }, 201, 15);
      expect(await store.create(rec)).toBe(true);
      expect(await store.get('alpha')).toEqual(rec);
    });

    it('create on a taken name resolves false and changes nothing', async () => {
      const store = await fresh();
      const first = record('taken', { v: 1 }, 200, 0);
      await store.create(first);
      expect(await store.create(record('taken', { v: 2 }, 500, 100))).toBe(false);
      expect(await store.get('taken')).toEqual(first);
      expect((await store.list({ limit: 10 })).endpoints).toEqual([first]);
    });

    it('put reports created for a new name and replaced for an existing one', async () => {
      const store = await fresh();
      expect(await store.put(record('p', { v: 1 }))).toEqual({ created: true });
      expect(await store.get('p')).toEqual(record('p', { v: 1 }));
      const replacement = record('p', [1, 2, 3], 418, 7);
      expect(await store.put(replacement)).toEqual({ created: false });
      expect(await store.get('p')).toEqual(replacement);
      expect((await store.list({ limit: 10 })).endpoints).toHaveLength(1);
    });

    it('delete resolves true for an existing name and false for a missing one', async () => {
      const store = await fresh();
      await store.create(record('gone'));
      await store.create(record('kept'));
      expect(await store.delete('gone')).toBe(true);
      expect(await store.get('gone')).toBeUndefined();
      expect(await store.delete('gone')).toBe(false);
      expect(await store.delete('never')).toBe(false);
      expect(await store.get('kept')).toEqual(record('kept'));
      // A deleted name can be created again.
      expect(await store.create(record('gone', 2))).toBe(true);
      expect(await store.get('gone')).toEqual(record('gone', 2));
    });

    it('list returns records in code-unit name order', async () => {
      const store = await fresh();
      const names = ['b', 'B', 'a', 'A', '0', '9', '_', '-', 'a-b', 'a_b', 'ab', 'Z', 'zz', 'a'.repeat(64)];
      for (const n of names) await store.create(record(n, { n }));
      const page = await store.list({ limit: 100 });
      const expected = [...names].sort();
      expect(page.endpoints.map((r) => r.name)).toEqual(expected);
      expect(page.endpoints[0]).toEqual(record(expected[0]!, { n: expected[0] }));
      expect(page.next).toBeNull();
    });

    it('list paginates with limit, after and next across several pages', async () => {
      const store = await fresh();
      const names = Array.from({ length: 25 }, (_, i) => `ep-${String(i).padStart(2, '0')}`);
      // Insert out of order: the store, not the insertion order, decides the order.
      for (const n of [...names].reverse()) await store.create(record(n));

      const first = await store.list({ limit: 10 });
      expect(first.endpoints.map((r) => r.name)).toEqual(names.slice(0, 10));
      expect(first.next).toBe('ep-09');
      const second = await store.list({ limit: 10, after: 'ep-09' });
      expect(second.endpoints.map((r) => r.name)).toEqual(names.slice(10, 20));
      expect(second.next).toBe('ep-19');
      const third = await store.list({ limit: 10, after: 'ep-19' });
      expect(third.endpoints.map((r) => r.name)).toEqual(names.slice(20));
      expect(third.next).toBeNull();

      const walked = await listAll(store, 7);
      expect(walked.names).toEqual(names);
      expect(walked.pages).toBe(4);
    });

    it('list ends with next: null when the count is an exact multiple of the limit', async () => {
      const store = await fresh();
      for (let i = 0; i < 20; i++) await store.create(record(`n${String(i).padStart(2, '0')}`));
      const first = await store.list({ limit: 10 });
      expect(first.next).toBe('n09');
      const last = await store.list({ limit: 10, after: 'n09' });
      expect(last.endpoints).toHaveLength(10);
      expect(last.next).toBeNull();
    });

    it('list after a name that does not exist starts at the next name, and past the end is empty', async () => {
      const store = await fresh();
      for (const n of ['a', 'c', 'e']) await store.create(record(n));
      const page = await store.list({ limit: 10, after: 'b' });
      expect(page.endpoints.map((r) => r.name)).toEqual(['c', 'e']);
      expect(await store.list({ limit: 10, after: 'e' })).toEqual({ endpoints: [], next: null });
      expect(await store.list({ limit: 10, after: 'zzz' })).toEqual({ endpoints: [], next: null });
    });

    it('list of an empty store is empty', async () => {
      const store = await fresh();
      expect(await store.list({ limit: 10 })).toEqual({ endpoints: [], next: null });
    });

    it('list with a prefix returns only names starting with it, paginated, in order', async () => {
      const store = await fresh();
      const names = ['a', 'ab', 'ab-1', 'ab-2', 'ab_3', 'abc', 'abd', 'Ab', 'b', 'ba', 'aa'];
      for (const name of names) await store.create(record(name));
      const withAb = names.filter((n) => n.startsWith('ab')).sort();
      const pages: string[][] = [];
      let after: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await store.list({ limit: 2, prefix: 'ab', ...(after === undefined ? {} : { after }) });
        pages.push(page.endpoints.map((r) => r.name));
        if (page.next === null) break;
        after = page.next;
      }
      expect(pages.flat()).toEqual(withAb);
      expect(pages.at(-1)?.length).toBeGreaterThan(0);
      // Case-sensitive; a cursor before the prefix starts at the prefix, one past it ends the list.
      expect((await store.list({ limit: 10, prefix: 'A' })).endpoints.map((r) => r.name)).toEqual(['Ab']);
      expect((await store.list({ limit: 10, prefix: 'b', after: 'a' })).endpoints.map((r) => r.name)).toEqual([
        'b',
        'ba',
      ]);
      expect(await store.list({ limit: 10, prefix: 'ab', after: 'abz' })).toEqual({ endpoints: [], next: null });
      expect(await store.list({ limit: 10, prefix: 'zz' })).toEqual({ endpoints: [], next: null });
      expect((await store.list({ limit: 100, prefix: '' })).endpoints).toHaveLength(names.length);
    });

    it('count counts every record, or those with a prefix', async () => {
      const store = await fresh();
      expect(await store.count()).toBe(0);
      for (let i = 0; i < 25; i++) await store.create(record(`ep-${String(i).padStart(2, '0')}`));
      await store.create(record('other'));
      expect(await store.count()).toBe(26);
      expect(await store.count({ prefix: '' })).toBe(26);
      expect(await store.count({ prefix: 'ep-' })).toBe(25);
      expect(await store.count({ prefix: 'ep-1' })).toBe(10);
      expect(await store.count({ prefix: 'ep-24' })).toBe(1);
      expect(await store.count({ prefix: 'EP' })).toBe(0);
      await store.delete('ep-10');
      await store.put(record('ep-1x'));
      expect(await store.count({ prefix: 'ep-1' })).toBe(10);
      await store.clear();
      expect(await store.count({ prefix: 'ep-' })).toBe(0);
    });

    it('clear removes every record', async () => {
      const store = await fresh();
      for (let i = 0; i < 5; i++) await store.create(record(`c${i}`));
      await store.clear();
      expect(await store.list({ limit: 10 })).toEqual({ endpoints: [], next: null });
      expect(await store.get('c0')).toBeUndefined();
      expect(await store.create(record('c0', 'again'))).toBe(true);
      expect(await store.get('c0')).toEqual(record('c0', 'again'));
    });

    it('names like __proto__, constructor, toString and hasOwnProperty are ordinary', async () => {
      const store = await fresh();
      const special = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
      for (const n of special) {
        expect(await store.get(n)).toBeUndefined();
        expect(await store.delete(n)).toBe(false);
      }
      for (const n of special) expect(await store.create(record(n, { n }))).toBe(true);
      for (const n of special) expect(await store.get(n)).toEqual(record(n, { n }));
      for (const n of special) expect(await store.create(record(n, 'dup'))).toBe(false);
      const page = await store.list({ limit: 100 });
      expect(page.endpoints.map((r) => r.name)).toEqual([...special].sort());
      expect(await store.put(record('__proto__', [1]))).toEqual({ created: false });
      expect(await store.get('__proto__')).toEqual(record('__proto__', [1]));
      expect(await store.delete('constructor')).toBe(true);
      expect(await store.get('constructor')).toBeUndefined();
      expect(await store.get('toString')).toEqual(record('toString', { n: 'toString' }));
    });

    it('names are case-sensitive', async () => {
      const store = await fresh();
      expect(await store.create(record('Name', 'upper'))).toBe(true);
      expect(await store.create(record('name', 'lower'))).toBe(true);
      expect(await store.create(record('NAME', 'all'))).toBe(true);
      expect(await store.get('Name')).toEqual(record('Name', 'upper'));
      expect(await store.get('name')).toEqual(record('name', 'lower'));
      expect(await store.get('nAME')).toBeUndefined();
      expect(await store.delete('NAME')).toBe(true);
      expect(await store.get('Name')).toEqual(record('Name', 'upper'));
    });

    it('data of every JSON kind round-trips', async () => {
      const store = await fresh();
      const values: Record<string, unknown> = {
        object: { a: 1, b: 'two', c: [true, null] },
        emptyObject: {},
        array: [1, 'two', false, null, { x: [] }],
        emptyArray: [],
        string: 'plain text',
        emptyString: '',
        number: 42,
        negative: -17.25,
        large: 1.7976931348623157e308,
        zero: 0,
        true: true,
        false: false,
        null: null,
        nested: { a: { b: { c: { d: [[[{ e: 'deep' }]]] } } } },
        unicode: { text: 'héllo wörld — 日本語 — 🎉👍🏽', 'ключ-🔑': 'значение', escapes: '"\\\n\t\u0000\u2028' },
        protoKeys: JSON.parse('{"__proto__":{"polluted":true},"constructor":1}'),
      };
      for (const [key, data] of Object.entries(values)) {
        expect(await store.create(record(key, data, 203, 5))).toBe(true);
      }
      for (const [key, data] of Object.entries(values)) {
        const got = await store.get(key);
        expect(got).toEqual(record(key, data, 203, 5));
        // toEqual treats some values loosely; the serialised forms must match exactly.
        expect(JSON.stringify(got?.data)).toBe(JSON.stringify(data));
      }
      const listed = await store.list({ limit: 100 });
      for (const rec of listed.endpoints) expect(JSON.stringify(rec.data)).toBe(JSON.stringify(values[rec.name]));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('data keeps its exact JSON text: big integers, 1e400, -0, key order', async () => {
      const store = await fresh();
      const text = '{"b":1,"2":2,"id":12345678901234567890,"n":9007199254740993,"huge":1e400,"neg":-0,"f":1.50}';
      await store.create({ name: 'exact', data: new JsonText(text), statusCode: 200, delay: 0 });
      expect(jsonTextOf((await store.get('exact'))?.data)).toBe(text);
      await store.put({ name: 'exact', data: new JsonText(`[${text}]`), statusCode: 200, delay: 0 });
      expect(jsonTextOf((await store.get('exact'))?.data)).toBe(`[${text}]`);
      const [listed] = (await store.list({ limit: 10 })).endpoints;
      expect(jsonTextOf(listed?.data)).toBe(`[${text}]`);
    });

    it('records are stored by value: mutating plain data passed in or returned changes nothing', async () => {
      const store = await fresh();
      // A record built in code may hold a plain value instead of JSON text.
      const rec: EndpointRecord = { name: 'copy', data: { list: [1, 2] }, statusCode: 200, delay: 0 };
      await store.create(rec);
      (rec.data as { list: number[] }).list.push(3);
      const got = await store.get('copy');
      if (got === undefined) throw new Error('copy was not stored');
      expect(jsonTextOf(got.data)).toBe('{"list":[1,2]}');
      if (!(got.data instanceof JsonText)) (got.data as { list: number[] }).list.push(4);
      expect(jsonTextOf((await store.get('copy'))?.data)).toBe('{"list":[1,2]}');
    });

    it('50 concurrent creates of the same name: exactly one succeeds, and its record is stored', async () => {
      const store = await fresh();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.create(record('race', { writer: i }, 200 + i))),
      );
      expect(results.filter((r) => r)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect(await store.get('race')).toEqual(record('race', { writer: winner }, 200 + winner));
      expect((await store.list({ limit: 100 })).endpoints).toHaveLength(1);
    });

    it('50 concurrent creates of distinct names all succeed', async () => {
      const store = await fresh();
      const names = Array.from({ length: 50 }, (_, i) => `d${String(i).padStart(2, '0')}`);
      const results = await Promise.all(names.map((n) => store.create(record(n))));
      expect(results).toEqual(names.map(() => true));
      const walked = await listAll(store, 20);
      expect(walked.names).toEqual(names);
    });

    it('concurrent creates and puts of one name leave one consistent record', async () => {
      const store = await fresh();
      const ops = Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? store.create(record('mixed', { i })) : store.put(record('mixed', { i })),
      );
      await Promise.all(ops);
      const got = await store.get('mixed');
      expect(got?.name).toBe('mixed');
      expect((await store.list({ limit: 10 })).endpoints).toEqual([got]);
    });

    it('list with a prefix pages through only the names starting with it', async () => {
      const store = await fresh();
      const names = ['a', 'ab', 'ab-1', 'ab-2', 'ab_3', 'abc', 'ac', 'b', 'Ab', 'aB'];
      for (const n of names) await store.create(record(n));
      const matching = names.filter((n) => n.startsWith('ab')).sort();
      expect((await store.list({ limit: 100, prefix: 'ab' })).endpoints.map((r) => r.name)).toEqual(matching);
      const first = await store.list({ limit: 2, prefix: 'ab' });
      expect(first.endpoints.map((r) => r.name)).toEqual(matching.slice(0, 2));
      expect(first.next).toBe(matching[1]);
      const rest = await store.list({ limit: 10, prefix: 'ab', after: first.next! });
      expect(rest.endpoints.map((r) => r.name)).toEqual(matching.slice(2));
      expect(rest.next).toBeNull();
      // An `after` before the prefix starts at the prefix; one past it is empty.
      expect((await store.list({ limit: 100, prefix: 'ab', after: 'a' })).endpoints).toHaveLength(matching.length);
      expect(await store.list({ limit: 10, prefix: 'ab', after: 'abd' })).toEqual({ endpoints: [], next: null });
      expect(await store.list({ limit: 10, prefix: 'zz' })).toEqual({ endpoints: [], next: null });
      expect((await store.list({ limit: 100, prefix: '' })).endpoints).toHaveLength(names.length);
    });

    it('count counts every record, or those whose name starts with a prefix', async () => {
      const store = await fresh();
      expect(await store.count()).toBe(0);
      for (const n of ['x', 'x-1', 'x-2', 'xy', 'y', 'X']) await store.create(record(n));
      expect(await store.count()).toBe(6);
      expect(await store.count({ prefix: 'x' })).toBe(4);
      expect(await store.count({ prefix: 'x-' })).toBe(2);
      expect(await store.count({ prefix: 'z' })).toBe(0);
      await store.delete('x-1');
      expect(await store.count({ prefix: 'x-' })).toBe(1);
      await store.clear();
      expect(await store.count()).toBe(0);
    });

    it('keeps routes beside the record: exact data, in order, and a name may have routes and no record', async () => {
      const store = await fresh();
      expect(await store.getRoutes('api')).toEqual([]);
      const routes = [route('a', '{"big":12345678901234567890,"f":1.0,"2":-0}'), route('b', '"x"')];
      await store.updateRoutes('api', () => routes);
      expect(routesJson(await store.getRoutes('api'))).toBe(routesJson(routes));
      // Routes alone make no record, and lists and counts hold records only.
      expect(await store.get('api')).toBeUndefined();
      expect((await store.list({ limit: 10 })).endpoints).toEqual([]);
      expect(await store.count()).toBe(0);
      // A record write leaves the routes; the record keeps its four fields.
      const rec = record('api', { v: 1 });
      await store.put(rec);
      expect(await store.get('api')).toEqual(rec);
      expect(routesJson(await store.getRoutes('api'))).toBe(routesJson(routes));
      expect(await store.getRoutes('other')).toEqual([]);
    });

    it('updates routes from the current list; an empty list removes them; a throwing update writes nothing', async () => {
      const store = await fresh();
      await store.updateRoutes('u', () => [route('a')]);
      const after = await store.updateRoutes('u', (current) => [...current, route('b')]);
      expect(after.map((r) => r.id)).toEqual(['a', 'b']);
      await expect(
        store.updateRoutes('u', () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect((await store.getRoutes('u')).map((r) => r.id)).toEqual(['a', 'b']);
      await store.updateRoutes('u', () => []);
      expect(await store.getRoutes('u')).toEqual([]);
      expect(await store.delete('u')).toBe(false);
    });

    it('concurrent route updates of one name all land (each computed from the list before it)', async () => {
      const store = await fresh();
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.updateRoutes('race', (current) => [...current, route(`r${i}`)])),
      );
      expect((await store.getRoutes('race')).map((r) => r.id).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `r${i}`).sort(),
      );
    });

    it('delete removes the routes with the record (and reports a routes-only name); clear removes every route', async () => {
      const store = await fresh();
      await store.put(record('both'));
      await store.updateRoutes('both', () => [route('a')]);
      await store.updateRoutes('only', () => [route('a')]);
      await store.updateRoutes('kept', () => [route('a')]);
      expect(await store.delete('both')).toBe(true);
      expect(await store.getRoutes('both')).toEqual([]);
      expect(await store.delete('only')).toBe(true);
      expect(await store.getRoutes('only')).toEqual([]);
      expect(await store.getRoutes('kept')).toHaveLength(1);
      await store.clear();
      expect(await store.getRoutes('kept')).toEqual([]);
    });

    it('routeNames lists the names with routes in name order, with counts and whether each has a record', async () => {
      const store = await fresh();
      expect(await store.routeNames()).toEqual([]);
      await store.put(record('b-both'));
      await store.put(record('c-record-only'));
      await store.updateRoutes('b-both', () => [route('x'), route('y')]);
      await store.updateRoutes('a-only', () => [route('x')]);
      await store.updateRoutes('__proto__', () => [route('x')]);
      await store.updateRoutes('d-only', () => [route('x'), route('y'), route('z')]);
      await store.updateRoutes('gone', () => [route('x')]);
      await store.updateRoutes('gone', () => []);
      expect(await store.routeNames()).toEqual([
        { name: '__proto__', routes: 1, record: false },
        { name: 'a-only', routes: 1, record: false },
        { name: 'b-both', routes: 2, record: true },
        { name: 'd-only', routes: 3, record: false },
      ]);
      expect((await store.routeNames({ after: 'a-only', limit: 1 })).map((n) => n.name)).toEqual(['b-both']);
      expect((await store.routeNames({ after: 'a', limit: 10 })).map((n) => n.name)).toEqual([
        'a-only',
        'b-both',
        'd-only',
      ]);
      expect((await store.routeNames({ prefix: 'd' })).map((n) => n.name)).toEqual(['d-only']);
      expect((await store.routeNames({ prefix: 'b', after: 'b-both' })).map((n) => n.name)).toEqual([]);
      expect(await store.routeNames({ prefix: 'zz' })).toEqual([]);
    });

    it('keeps a signature check beside the record: every field, secrets in full, and put leaves it', async () => {
      const store = await fresh();
      expect(await store.getSetting('signature', 'hook')).toBeUndefined();
      const settings: SignatureSettings = {
        scheme: 'hmac',
        secrets: ['first secret', 'second "secret" \u00e9'],
        toleranceSec: 60,
        enforce: true,
        hmac: { header: 'X-Signature', algorithm: 'sha512', encoding: 'base64', prefix: 'sha512=' },
      };
      expect(await store.setSetting('signature', 'hook', settings)).toBe(false);
      expect(await store.getSetting('signature', 'hook')).toEqual(settings);
      // A check alone makes no record; a record write leaves the check and keeps four fields.
      expect(await store.get('hook')).toBeUndefined();
      expect(await store.count()).toBe(0);
      const rec = record('hook', { v: 1 });
      await store.put(rec);
      expect(await store.get('hook')).toEqual(rec);
      expect(await store.getSetting('signature', 'hook')).toEqual(settings);
      const replaced: SignatureSettings = { scheme: 'github', secrets: ['s'], toleranceSec: 300, enforce: false };
      expect(await store.setSetting('signature', 'hook', replaced)).toBe(true);
      expect(await store.getSetting('signature', 'hook')).toEqual(replaced);
      expect(await store.getSetting('signature', 'other')).toBeUndefined();
      expect(await store.setSetting('signature', 'hook', undefined)).toBe(true);
      expect(await store.getSetting('signature', 'hook')).toBeUndefined();
      expect(await store.setSetting('signature', 'hook', undefined)).toBe(false);
      expect(await store.get('hook')).toEqual(rec);
    });

    it('delete removes the signature check with the record (and reports a check-only name); clear removes every check', async () => {
      const store = await fresh();
      const settings: SignatureSettings = { scheme: 'stripe', secrets: ['whsec_x'], toleranceSec: 300, enforce: false };
      await store.put(record('both'));
      await store.setSetting('signature', 'both', settings);
      await store.setSetting('signature', 'only', settings);
      await store.setSetting('signature', 'kept', settings);
      expect(await store.delete('both')).toBe(true);
      expect(await store.getSetting('signature', 'both')).toBeUndefined();
      expect(await store.delete('only')).toBe(true);
      expect(await store.getSetting('signature', 'only')).toBeUndefined();
      expect(await store.getSetting('signature', 'kept')).toEqual(settings);
      await store.clear();
      expect(await store.getSetting('signature', 'kept')).toBeUndefined();
    });

    it('keeps chaos beside the record: every field, put leaves it, delete and clear remove it', async () => {
      const store = await fresh();
      expect(await store.getSetting('chaos', 'flaky')).toBeUndefined();
      const settings: ChaosSettings = {
        rate: 0.25,
        faults: ['reset', 'timeout', '500', '503', '429'],
        latency: { distribution: 'lognormal', median: 40, sigma: 0.5, max: 900, seed: 3 },
        bandwidth: 64_000,
        seed: 42,
      };
      expect(await store.setSetting('chaos', 'flaky', settings)).toBe(false);
      expect(await store.getSetting('chaos', 'flaky')).toEqual(settings);
      // Chaos alone makes no record; a record write leaves it.
      expect(await store.get('flaky')).toBeUndefined();
      expect(await store.count()).toBe(0);
      const rec = record('flaky', { v: 1 });
      await store.put(rec);
      expect(await store.getSetting('chaos', 'flaky')).toEqual(settings);
      const replaced: ChaosSettings = { rate: 1, faults: ['503'] };
      expect(await store.setSetting('chaos', 'flaky', replaced)).toBe(true);
      expect(await store.getSetting('chaos', 'flaky')).toEqual(replaced);
      expect(await store.getSetting('chaos', 'other')).toBeUndefined();
      expect(await store.setSetting('chaos', 'flaky', undefined)).toBe(true);
      expect(await store.getSetting('chaos', 'flaky')).toBeUndefined();
      expect(await store.setSetting('chaos', 'flaky', undefined)).toBe(false);
      expect(await store.get('flaky')).toEqual(rec);
      // delete removes it with the record, and reports a chaos-only name; clear removes every one.
      await store.setSetting('chaos', 'flaky', replaced);
      await store.setSetting('chaos', 'only', replaced);
      await store.setSetting('chaos', 'kept', replaced);
      expect(await store.delete('flaky')).toBe(true);
      expect(await store.getSetting('chaos', 'flaky')).toBeUndefined();
      expect(await store.delete('only')).toBe(true);
      expect(await store.getSetting('chaos', 'only')).toBeUndefined();
      expect(await store.getSetting('chaos', 'kept')).toEqual(replaced);
      await store.clear();
      expect(await store.getSetting('chaos', 'kept')).toBeUndefined();
    });

    it("keeps the namespace's chaos under its own key, apart from every name's; clear removes it", async () => {
      const store = await fresh();
      const settings: ChaosSettings = { rate: 0.5, faults: ['503', 'timeout'], seed: 9 };
      expect(await store.setSetting('chaos', NAMESPACE_CHAOS_KEY, settings)).toBe(false);
      expect(await store.getSetting('chaos', NAMESPACE_CHAOS_KEY)).toEqual(settings);
      // No name sees it, and it is no name: nothing is listed or counted.
      expect(await store.getSetting('chaos', 'a')).toBeUndefined();
      expect(await store.count()).toBe(0);
      expect((await store.list({ limit: 10 })).endpoints).toEqual([]);
      await store.put(record('a', 1));
      expect(await store.delete('a')).toBe(true);
      expect(await store.getSetting('chaos', NAMESPACE_CHAOS_KEY)).toEqual(settings);
      await store.clear();
      expect(await store.getSetting('chaos', NAMESPACE_CHAOS_KEY)).toBeUndefined();
    });

    it('keeps a GraphQL schema beside the record byte for byte; put leaves it, delete and clear remove it', async () => {
      const store = await fresh();
      // Comments, blank lines, CRLF and characters past ASCII are kept as they are.
      const sdl = '# Schéma 🚀\r\n\r\ntype Query {\n  "Ein Gruß"\n  hello: String\n}\n';
      expect(await store.getSetting('graphql', 'gql')).toBeUndefined();
      expect(await store.setSetting('graphql', 'gql', sdl)).toBe(false);
      expect(await store.getSetting('graphql', 'gql')).toBe(sdl);
      await store.put(record('gql'));
      expect(await store.getSetting('graphql', 'gql')).toBe(sdl);
      expect(await store.setSetting('graphql', 'gql', 'type Query { a: Int }')).toBe(true);
      expect(await store.getSetting('graphql', 'gql')).toBe('type Query { a: Int }');
      expect(await store.getSetting('graphql', 'other')).toBeUndefined();
      expect(await store.setSetting('graphql', 'gql', undefined)).toBe(true);
      expect(await store.getSetting('graphql', 'gql')).toBeUndefined();
      expect(await store.setSetting('graphql', 'gql', undefined)).toBe(false);

      await store.setSetting('graphql', 'only', sdl);
      await store.setSetting('graphql', 'kept', sdl);
      await store.setSetting('graphql', 'a-1', sdl);
      await store.put(record('kept-record'));
      expect(await store.settingNames('graphql')).toEqual(['a-1', 'kept', 'only']);
      expect(await store.settingNames('graphql', { prefix: 'k' })).toEqual(['kept']);
      expect(await store.settingNames('graphql', { after: 'a-1', limit: 1 })).toEqual(['kept']);
      await store.setSetting('graphql', 'a-1', undefined);
      expect(await store.delete('only')).toBe(true);
      expect(await store.getSetting('graphql', 'only')).toBeUndefined();
      expect(await store.getSetting('graphql', 'kept')).toBe(sdl);
      expect(await store.get('kept')).toBeUndefined();
      await store.clear();
      expect(await store.getSetting('graphql', 'kept')).toBeUndefined();
    });

    it('keeps protobuf definitions beside the record exactly; put leaves them, delete and clear remove them', async () => {
      const store = await fresh();
      // The stored text is the caller's JSON; sources keep CRLF, comments and characters past ASCII.
      const text = JSON.stringify({ protos: { 'a/v1/a.proto': '// Grüße 🚀\r\nsyntax = "proto3";\npackage a.v1;\n' } });
      expect(await store.getSetting('grpc', 'rpc')).toBeUndefined();
      expect(await store.setSetting('grpc', 'rpc', text)).toBe(false);
      expect(await store.getSetting('grpc', 'rpc')).toBe(text);
      await store.put(record('rpc'));
      expect(await store.getSetting('grpc', 'rpc')).toBe(text);
      expect(await store.setSetting('grpc', 'rpc', '{"descriptorSet":"CgA="}')).toBe(true);
      expect(await store.getSetting('grpc', 'rpc')).toBe('{"descriptorSet":"CgA="}');
      expect(await store.getSetting('grpc', 'other')).toBeUndefined();
      expect(await store.setSetting('grpc', 'rpc', undefined)).toBe(true);
      expect(await store.getSetting('grpc', 'rpc')).toBeUndefined();
      expect(await store.setSetting('grpc', 'rpc', undefined)).toBe(false);

      await store.setSetting('grpc', 'only', text);
      await store.setSetting('grpc', 'kept', text);
      await store.setSetting('grpc', 'a-1', text);
      await store.put(record('kept-record'));
      await store.setSetting('graphql', 'gql-only', 'type Query { a: Int }');
      expect(await store.settingNames('grpc')).toEqual(['a-1', 'kept', 'only']);
      expect(await store.settingNames('grpc', { prefix: 'k' })).toEqual(['kept']);
      expect(await store.settingNames('grpc', { after: 'a-1', limit: 1 })).toEqual(['kept']);
      expect((await store.list({ limit: 10 })).endpoints.map((r) => r.name)).toEqual(['kept-record', 'rpc']);
      await store.setSetting('grpc', 'a-1', undefined);
      expect(await store.delete('only')).toBe(true);
      expect(await store.getSetting('grpc', 'only')).toBeUndefined();
      expect(await store.getSetting('grpc', 'kept')).toBe(text);
      await store.clear();
      expect(await store.getSetting('grpc', 'kept')).toBeUndefined();
      expect(await store.settingNames('grpc')).toEqual([]);
    });

    it('lists the names holding chaos, in name order and range; delete and clear take them off', async () => {
      const store = await fresh();
      const chaos = { rate: 0.5, faults: ['503' as const], seed: 7 };
      expect(await store.settingNames('chaos')).toEqual([]);
      for (const name of ['only', 'kept', 'a-1']) await store.setSetting('chaos', name, chaos);
      await store.put(record('kept-record'));
      expect(await store.settingNames('chaos')).toEqual(['a-1', 'kept', 'only']);
      expect(await store.settingNames('chaos', { prefix: 'k' })).toEqual(['kept']);
      expect(await store.settingNames('chaos', { after: 'a-1', limit: 1 })).toEqual(['kept']);
      await store.setSetting('chaos', 'a-1', undefined);
      expect(await store.delete('only')).toBe(true);
      expect(await store.settingNames('chaos')).toEqual(['kept']);
      await store.clear();
      expect(await store.settingNames('chaos')).toEqual([]);
    });

    it('keeps the hosts mapped to a name beside the record, in order; put leaves them, delete and clear remove them', async () => {
      const store = await fresh();
      expect(await store.getSetting('hosts', 'gh')).toBeUndefined();
      expect(await store.setSetting('hosts', 'gh', ['api.github.com', '*.githubusercontent.com'])).toBe(false);
      expect(await store.getSetting('hosts', 'gh')).toEqual(['api.github.com', '*.githubusercontent.com']);
      await store.put(record('gh'));
      expect(await store.getSetting('hosts', 'gh')).toEqual(['api.github.com', '*.githubusercontent.com']);
      expect(await store.setSetting('hosts', 'gh', ['uploads.github.com'])).toBe(true);
      expect(await store.getSetting('hosts', 'gh')).toEqual(['uploads.github.com']);
      expect(await store.getSetting('hosts', 'other')).toBeUndefined();
      // An empty list is none, like undefined.
      expect(await store.setSetting('hosts', 'gh', [])).toBe(true);
      expect(await store.getSetting('hosts', 'gh')).toBeUndefined();
      expect(await store.setSetting('hosts', 'gh', undefined)).toBe(false);

      await store.setSetting('hosts', 'only', ['only.example']);
      await store.setSetting('hosts', 'kept', ['kept.example']);
      await store.setSetting('hosts', 'a-1', ['a.example']);
      await store.put(record('kept-record'));
      expect(await store.settingNames('hosts')).toEqual(['a-1', 'kept', 'only']);
      expect(await store.settingNames('hosts', { prefix: 'k' })).toEqual(['kept']);
      expect(await store.settingNames('hosts', { after: 'a-1', limit: 1 })).toEqual(['kept']);
      expect(await store.setSetting('hosts', 'a-1', undefined)).toBe(true);
      expect(await store.settingNames('hosts')).toEqual(['kept', 'only']);
      // A name with only hosts: delete reports it existed.
      expect(await store.delete('only')).toBe(true);
      expect(await store.getSetting('hosts', 'only')).toBeUndefined();
      expect(await store.getSetting('hosts', 'kept')).toEqual(['kept.example']);
      await store.put(record('kept'));
      expect(await store.delete('kept')).toBe(true);
      expect(await store.getSetting('hosts', 'kept')).toBeUndefined();
      await store.setSetting('hosts', 'kept', ['kept.example']);
      await store.clear();
      expect(await store.getSetting('hosts', 'kept')).toBeUndefined();
      expect(await store.settingNames('hosts')).toEqual([]);
    });

    describe.each(SETTING_KINDS)('every declared setting: %s', (kind) => {
      const [first, second] = SETTING_SAMPLES[kind];

      it('is kept beside the record as set, apart from every other setting; put leaves it; undefined removes it', async () => {
        const store = await fresh();
        expect(await store.getSetting(kind, 'kept')).toBeUndefined();
        expect(await store.setSetting(kind, 'kept', first)).toBe(false);
        expect(await store.getSetting(kind, 'kept')).toEqual(first);
        // A setting alone makes no record; a record write leaves it; no other setting sees it.
        expect(await store.get('kept')).toBeUndefined();
        expect(await store.count()).toBe(0);
        for (const other of SETTING_KINDS.filter((each) => each !== kind)) {
          expect(await store.getSetting(other, 'kept'), other).toBeUndefined();
          expect(await store.settingNames(other), other).toEqual([]);
        }
        await store.put(record('kept', { v: 1 }));
        expect(await store.getSetting(kind, 'kept')).toEqual(first);
        expect(await store.setSetting(kind, 'kept', second)).toBe(true);
        expect(await store.getSetting(kind, 'kept')).toEqual(second);
        expect(await store.getSetting(kind, 'other')).toBeUndefined();
        expect(await store.setSetting(kind, 'kept', undefined)).toBe(true);
        expect(await store.getSetting(kind, 'kept')).toBeUndefined();
        expect(await store.setSetting(kind, 'kept', undefined)).toBe(false);
        expect(await store.get('kept')).toEqual(record('kept', { v: 1 }));
      });

      it('lists the names holding it in name order and range; delete (reporting a setting-only name) and clear remove it', async () => {
        const store = await fresh();
        for (const name of ['only', 'kept', 'a-1']) await store.setSetting(kind, name, first);
        await store.put(record('kept-record'));
        expect(await store.settingNames(kind)).toEqual(['a-1', 'kept', 'only']);
        expect(await store.settingNames(kind, { prefix: 'k' })).toEqual(['kept']);
        expect(await store.settingNames(kind, { after: 'a-1', limit: 1 })).toEqual(['kept']);
        expect((await store.list({ limit: 10 })).endpoints.map((r) => r.name)).toEqual(['kept-record']);
        expect(await store.delete('only')).toBe(true);
        expect(await store.getSetting(kind, 'only')).toBeUndefined();
        expect(await store.delete('only')).toBe(false);
        expect(await store.settingNames(kind)).toEqual(['a-1', 'kept']);
        expect(await storeNames(store)).toEqual(new Set(['a-1', 'kept', 'kept-record']));
        await store.clear();
        expect(await store.getSetting(kind, 'kept')).toBeUndefined();
        expect(await store.settingNames(kind)).toEqual([]);
      });

      it('claims its name against a cap (boundedStore): past it a new name is refused, a removal never is', async () => {
        const inner = await fresh();
        const store = boundedStore(inner, 1);
        await store.put(record('held'));
        await expect(store.setSetting(kind, 'new', first)).rejects.toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
        expect(await inner.getSetting(kind, 'new')).toBeUndefined();
        expect(await store.setSetting(kind, 'new', undefined)).toBe(false);
        expect(await store.setSetting(kind, 'held', first)).toBe(false);
        expect(await store.delete('held')).toBe(true);
        expect(await store.setSetting(kind, 'new', second)).toBe(false);
        expect([...(await storeNames(inner))]).toEqual(['new']);
      });
    });

    it('every operation rejects after close', async () => {
      const store = await fresh();
      await store.create(record('before'));
      await store.close();
      const operations: Array<[string, () => Promise<unknown>]> = [
        ['get', () => store.get('before')],
        ['create', () => store.create(record('after'))],
        ['put', () => store.put(record('after'))],
        ['delete', () => store.delete('before')],
        ['list', () => store.list({ limit: 10 })],
        ['count', () => store.count()],
        ['clear', () => store.clear()],
        ['getRoutes', () => store.getRoutes('before')],
        ['updateRoutes', () => store.updateRoutes('before', () => [])],
        ...SETTING_KINDS.flatMap(
          (kind): Array<[string, () => Promise<unknown>]> => [
            [`getSetting ${kind}`, () => store.getSetting(kind, 'before')],
            [`setSetting ${kind}`, () => store.setSetting(kind, 'before', SETTING_SAMPLES[kind][0])],
            [`setSetting ${kind} undefined`, () => store.setSetting(kind, 'before', undefined)],
            [`settingNames ${kind}`, () => store.settingNames(kind)],
          ],
        ),
      ];
      for (const [label, operation] of operations) {
        await expect(operation(), label).rejects.toMatchObject({
          name: 'MockpointError',
          code: 'STORE_UNAVAILABLE',
        });
      }
    });
    describe('a cap on the names held (boundedStore)', () => {
      const CAP = 50;

      /** Write `i` of a new name `n{i}`: a record (put or create), routes or any part beside a record. */
      function writeNew(store: EndpointStore, i: number): Promise<unknown> {
        const name = `n${i}`;
        const chaos: ChaosSettings = { rate: 0.5, faults: ['503'] };
        const signature: SignatureSettings = { scheme: 'github', secrets: ['s'], toleranceSec: 300, enforce: false };
        switch (i % 8) {
          case 0:
            return store.put(record(name));
          case 1:
            return store.create(record(name));
          case 2:
            return store.updateRoutes(name, () => [route('r')]);
          case 3:
            return store.setSetting('graphql', name, 'type Query { a: Int }');
          case 4:
            return store.setSetting('chaos', name, chaos);
          case 5:
            return store.setSetting('signature', name, signature);
          case 6:
            return store.setSetting('grpc', name, '{"files":{}}');
          default:
            return store.setSetting('hosts', name, [`${name}.example.test`]);
        }
      }

      it('200 concurrent writes of new names of every kind make exactly the cap; the rest are refused, writing nothing', async () => {
        const inner = await fresh();
        const store = boundedStore(inner, CAP);
        const settled = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => writeNew(store, i)));
        const refused = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
        expect(settled.length - refused.length).toBe(CAP);
        for (const reason of refused) expect(reason).toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
        expect((await storeNames(inner)).size).toBe(CAP);
      });

      it('a name held is written past the cap; removing a part frees nothing, deleting the name frees its place', async () => {
        const inner = await fresh();
        const store = boundedStore(inner, 2);
        await store.put(record('a'));
        await store.setSetting('chaos', 'b', { rate: 0.5, faults: ['503'] });
        await expect(store.updateRoutes('c', () => [route('r')])).rejects.toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
        await expect(store.setSetting('graphql', 'c', 'type Query { a: Int }')).rejects.toMatchObject({
          code: 'TOO_MANY_ENDPOINTS',
        });
        expect(await inner.getRoutes('c')).toEqual([]);
        // Names held take more of their own, and a removal of what a name does not hold is never refused.
        await store.updateRoutes('a', () => [route('r')]);
        await store.put(record('b'));
        expect(await store.setSetting('chaos', 'c', undefined)).toBe(false);
        expect(await store.updateRoutes('c', () => [])).toEqual([]);
        await store.setSetting('chaos', 'b', undefined);
        await expect(store.put(record('c'))).rejects.toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
        expect(await store.delete('b')).toBe(true);
        expect(await store.create(record('c'))).toBe(true);
        await store.clear();
        await store.put(record('x'));
        await store.put(record('y'));
        expect((await storeNames(inner)).size).toBe(2);
      });

      it("the namespace's own chaos is no name: it claims no place, before or after the cap is first asked", async () => {
        const inner = await fresh();
        await inner.setSetting('chaos', NAMESPACE_CHAOS_KEY, { rate: 0.5, faults: ['503'] });
        const store = boundedStore(inner, 1);
        await store.setSetting('chaos', NAMESPACE_CHAOS_KEY, { rate: 1, faults: ['503'] });
        await store.put(record('only'));
        await expect(store.put(record('more'))).rejects.toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
        expect([...(await storeNames(inner))]).toEqual(['only']);
      });

      it('counts what the store held before the cap was first asked', async () => {
        const inner = await fresh();
        await inner.put(record('old'));
        await inner.setSetting('hosts', 'mapped', ['mapped.example.test']);
        const store = boundedStore(inner, 3);
        await store.put(record('new'));
        await expect(
          store.setSetting('signature', 'more', {
            scheme: 'github',
            secrets: ['s'],
            toleranceSec: 300,
            enforce: false,
          }),
        ).rejects.toMatchObject({ code: 'TOO_MANY_ENDPOINTS' });
      });
    });
  });
}
