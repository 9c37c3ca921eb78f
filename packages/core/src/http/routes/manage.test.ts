import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListPage } from '../../api/schemas.js';
import {
  type CreateAppOptions,
  createApp,
  type EndpointRecord,
  type EndpointStore,
  MemoryStore,
  type MockpointApp,
} from '../../index.js';
import { LevelStore } from '../../store/level/index.js';

const json = (body: unknown): RequestInit => ({ method: 'PUT', body: JSON.stringify(body) });

async function errorCode(response: Response): Promise<string> {
  const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
  expect(body.success).toBe(false);
  expect(typeof body.error.message).toBe('string');
  return body.error.code;
}

async function seed(app: MockpointApp, names: string[]): Promise<void> {
  for (const name of names) {
    const response = await app.request('/api/endpoint/add', json({ name, data: { name } }));
    expect(response.status).toBe(201);
  }
}

async function list(app: MockpointApp, query = ''): Promise<ListPage> {
  const response = await app.request(`/api/endpoints${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ListPage;
}

describe('GET /api/endpoints', () => {
  it('with prefix lists only names starting with it, paginated, and counts them in total', async () => {
    const app = createApp();
    await seed(app, ['order-paid', 'order-failed', 'order-refunded', 'Order-x', 'payment', 'ord']);
    const first = (await list(app, '?prefix=order-&limit=2&summary=true')) as ListPage & { total: number };
    expect(first).toEqual({
      endpoints: [
        { name: 'order-failed', statusCode: 200, delay: 0 },
        { name: 'order-paid', statusCode: 200, delay: 0 },
      ],
      next: 'order-paid',
      total: 3,
    });
    const second = (await list(app, '?prefix=order-&limit=2&after=order-paid')) as ListPage & { total: number };
    expect(second.endpoints.map((e) => e.name)).toEqual(['order-refunded']);
    expect(second).toMatchObject({ next: null, total: 3 });
    expect(await list(app, '?prefix=nothing')).toEqual({ endpoints: [], next: null, total: 0 });
    expect(((await list(app)) as ListPage & { total: number }).total).toBe(6);
  });

  it('refuses a prefix that no name can start with (400 INVALID_QUERY)', async () => {
    const app = createApp();
    for (const prefix of ['a.b', 'a%20b', 'x'.repeat(65)]) {
      const response = await app.request(`/api/endpoints?prefix=${prefix}`);
      expect(response.status, prefix).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_QUERY');
    }
  });

  it('lists every record in name order', async () => {
    const app = createApp();
    await seed(app, ['delta', 'B', 'alpha', '_u', '-d', '0', 'Alpha']);
    const page = await list(app);
    expect(page.endpoints.map((e) => e.name)).toEqual(['-d', '0', 'Alpha', 'B', '_u', 'alpha', 'delta']);
    expect(page.endpoints[0]).toEqual({ name: '-d', data: { name: '-d' }, statusCode: 200, delay: 0 });
    expect(page.next).toBeNull();
  });

  it('pages with limit / after / next over several pages, each record once', async () => {
    const app = createApp();
    const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
    await seed(app, [...names].reverse());
    const pages: string[][] = [];
    let after: string | null | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await list(app, `?limit=3${after ? `&after=${after}` : ''}`);
      pages.push(page.endpoints.map((e) => e.name));
      after = page.next;
      if (after === null) break;
    }
    expect(pages).toEqual([
      ['n0', 'n1', 'n2'],
      ['n3', 'n4', 'n5'],
      ['n6', 'n7'],
    ]);
    // A page that ends exactly at the last record says so.
    expect((await list(app, '?limit=2&after=n5')).next).toBeNull();
    // `after` need not be a stored name.
    expect((await list(app, '?limit=2&after=n35')).endpoints.map((e) => e.name)).toEqual(['n4', 'n5']);
  });

  it('defaults to 100 per page', async () => {
    const app = createApp();
    await seed(
      app,
      Array.from({ length: 101 }, (_, i) => `e${String(i).padStart(3, '0')}`),
    );
    const page = await list(app);
    expect(page.endpoints).toHaveLength(100);
    expect(page.next).toBe('e099');
  });

  it.each(['0', '1001', '-1', 'abc', '2.5'])('refuses limit=%s with 400 INVALID_QUERY', async (limit) => {
    const response = await createApp().request(`/api/endpoints?limit=${limit}`);
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('INVALID_QUERY');
  });

  it('accepts limit=1 and limit=1000', async () => {
    const app = createApp();
    await seed(app, ['a', 'b']);
    expect((await list(app, '?limit=1')).endpoints).toHaveLength(1);
    expect((await list(app, '?limit=1000')).endpoints).toHaveLength(2);
  });

  it('with summary=true leaves data out', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', json({ name: 'big', data: { x: 'y'.repeat(1000) }, statusCode: 201 }));
    expect((await list(app, '?summary=true')).endpoints).toEqual([{ name: 'big', statusCode: 201, delay: 0 }]);
    expect((await list(app, '?summary=false')).endpoints[0]?.data).toEqual({ x: 'y'.repeat(1000) });
    const bad = await app.request('/api/endpoints?summary=yes-please');
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('INVALID_QUERY');
  });

  it('with requests=true gives each listed name the number of requests its journal holds, filtered or not', async () => {
    const app = createApp({ journalSize: 3 });
    await seed(app, ['busy', 'quiet']);
    await app.request('/api/endpoints/routed/routes', json({ routes: [{ answer: {} }] }));
    for (let i = 0; i < 5; i++) await app.request('/endpoint/busy', { method: 'POST', body: String(i) });
    await app.request('/endpoint/routed/x');
    const counts = (page: { endpoints: { name: string; requests?: number }[] }) =>
      page.endpoints.map((entry) => [entry.name, entry.requests]);
    // At most the journal's size (3 here): what it holds, not every request ever made.
    expect(counts(await list(app, '?summary=true&requests=true'))).toEqual([
      ['busy', 3],
      ['quiet', 0],
      ['routed', 1],
    ]);
    expect(counts(await list(app, '?requests=true&contains=u'))).toEqual([
      ['busy', 3],
      ['quiet', 0],
      ['routed', 1],
    ]);
    expect((await list(app, '?summary=true&requests=true&limit=1&after=busy')).endpoints).toEqual([
      { name: 'quiet', statusCode: 200, delay: 0, requests: 0 },
    ]);
    // Without it, the answer is as before.
    expect(counts(await list(app, '?summary=true'))).toEqual([
      ['busy', undefined],
      ['quiet', undefined],
      ['routed', undefined],
    ]);
    const bad = await app.request('/api/endpoints?requests=yes');
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('INVALID_QUERY');
  });

  it('ends a page early past 8 MiB of records and points next at the rest', async () => {
    const app = createApp();
    const data = 'z'.repeat(3 * 1024 * 1024); // three records do not fit in one 8 MiB page
    for (const name of ['r1', 'r2', 'r3', 'r4']) {
      expect((await app.request('/api/endpoint/add', json({ name, data }))).status).toBe(201);
    }
    const first = await list(app, '?limit=10');
    expect(first.endpoints.map((e) => e.name)).toEqual(['r1', 'r2']);
    expect(first.next).toBe('r2');
    const second = await list(app, `?limit=10&after=${first.next}`);
    expect(second.endpoints.map((e) => e.name)).toEqual(['r3', 'r4']);
    expect(second.next).toBeNull();
  });
});

describe('GET /api/endpoints with routes', () => {
  const routes = (n: number) => ({ routes: Array.from({ length: n }, (_, i) => ({ id: `r${i}`, answer: {} })) });

  it('lists a name with routes and no record as { name, routes }, and a record with routes with its count', async () => {
    const app = createApp();
    await seed(app, ['b-record', 'd-both']);
    for (const [name, n] of [
      ['a-only', 2],
      ['c-only', 1],
      ['d-both', 3],
    ] as const) {
      expect((await app.request(`/api/endpoints/${name}/routes`, json(routes(n)))).status).toBe(200);
    }
    const page = (await (await app.request('/api/endpoints')).json()) as { endpoints: unknown[]; total: number };
    expect(page).toEqual({
      endpoints: [
        { name: 'a-only', routes: 2 },
        { name: 'b-record', data: { name: 'b-record' }, statusCode: 200, delay: 0 },
        { name: 'c-only', routes: 1 },
        { name: 'd-both', data: { name: 'd-both' }, statusCode: 200, delay: 0, routes: 3 },
      ],
      next: null,
      total: 4,
    });
    const summary = await (await app.request('/api/endpoints?summary=true&prefix=d')).json();
    expect(summary).toEqual({
      endpoints: [{ name: 'd-both', statusCode: 200, delay: 0, routes: 3 }],
      next: null,
      total: 1,
    });
    // The record API keeps exactly its four fields.
    expect(await (await app.request('/api/endpoints/d-both')).json()).toEqual({
      name: 'd-both',
      data: { name: 'd-both' },
      statusCode: 200,
      delay: 0,
    });
    // Cleared routes: the name is gone from the list.
    await app.request('/api/endpoints/a-only/routes', { method: 'DELETE' });
    expect((await list(app)).endpoints.map((e) => e.name)).toEqual(['b-record', 'c-only', 'd-both']);
  });

  it('pages over records and routes-only names together, each name once, in name order', async () => {
    const app = createApp();
    await seed(app, ['n01', 'n04', 'n05', 'n08']);
    for (const name of ['n02', 'n03', 'n06', 'n07', 'n09']) {
      await app.request(`/api/endpoints/${name}/routes`, json(routes(1)));
    }
    const seen: string[] = [];
    let after: string | null = '';
    let pages = 0;
    while (after !== null) {
      const page: ListPage & { total: number } = (await (
        await app.request(`/api/endpoints?limit=2${after ? `&after=${after}` : ''}`)
      ).json()) as ListPage & { total: number };
      expect(page.total).toBe(9);
      expect(page.endpoints.length).toBeLessThanOrEqual(2);
      seen.push(...page.endpoints.map((e) => e.name));
      after = page.next;
      pages++;
    }
    expect(seen).toEqual(['n01', 'n02', 'n03', 'n04', 'n05', 'n06', 'n07', 'n08', 'n09']);
    expect(pages).toBe(5);
  });
});

describe('GET /api/endpoints/{name}', () => {
  it('answers the record, or 404 NOT_FOUND', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', json({ name: 'one', data: [1, null], statusCode: 418, delay: 5 }));
    const found = await app.request('/api/endpoints/one');
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ name: 'one', data: [1, null], statusCode: 418, delay: 5 });
    const missing = await app.request('/api/endpoints/two');
    expect(missing.status).toBe(404);
    expect(await errorCode(missing)).toBe('NOT_FOUND');
  });

  it.each(['bad.name', 'x'.repeat(65), 'a%20b'])('refuses the invalid name %s with 400 INVALID_NAME', async (name) => {
    const response = await createApp().request(`/api/endpoints/${name}`);
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('INVALID_NAME');
  });

  it('treats __proto__ and constructor as ordinary names', async () => {
    const app = createApp();
    for (const name of ['__proto__', 'constructor']) {
      expect((await app.request(`/api/endpoints/${name}`)).status).toBe(404);
      expect((await app.request(`/api/endpoints/${name}`, json({ data: name }))).status).toBe(201);
      expect(await (await app.request(`/api/endpoints/${name}`)).json()).toEqual({
        name,
        data: name,
        statusCode: 200,
        delay: 0,
      });
      expect((await app.request(`/api/endpoints/${name}`, { method: 'DELETE' })).status).toBe(204);
    }
  });
});

describe('PUT /api/endpoints/{name}', () => {
  it('creates (201), then replaces (200), answering the record', async () => {
    const app = createApp();
    const created = await app.request('/api/endpoints/hook', json({ data: { v: 1 } }));
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: 'hook', data: { v: 1 }, statusCode: 200, delay: 0 });
    const replaced = await app.request('/api/endpoints/hook', json({ data: { v: 2 }, statusCode: 503, delay: 10 }));
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toEqual({ name: 'hook', data: { v: 2 }, statusCode: 503, delay: 10 });
    expect(await (await app.request('/api/endpoints/hook')).json()).toEqual({
      name: 'hook',
      data: { v: 2 },
      statusCode: 503,
      delay: 10,
    });
  });

  it('replacing resets omitted fields to their defaults', async () => {
    const app = createApp();
    await app.request('/api/endpoints/r', json({ data: 1, statusCode: 404, delay: 50 }));
    const replaced = await app.request('/api/endpoints/r', json({ data: 2 }));
    expect(await replaced.json()).toEqual({ name: 'r', data: 2, statusCode: 200, delay: 0 });
  });

  it('accepts data: null and a body name equal to the path (a record sent back as read)', async () => {
    const app = createApp();
    expect((await app.request('/api/endpoints/n', json({ data: null }))).status).toBe(201);
    const record = (await (await app.request('/api/endpoints/n')).json()) as EndpointRecord;
    const again = await app.request('/api/endpoints/n', json({ ...record, statusCode: 202 }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ name: 'n', data: null, statusCode: 202, delay: 0 });
  });

  it('refuses a body name different from the path and changes nothing', async () => {
    const app = createApp();
    await app.request('/api/endpoints/keep', json({ data: 'old' }));
    const response = await app.request('/api/endpoints/keep', json({ name: 'other', data: 'new' }));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('INVALID_NAME');
    expect(((await (await app.request('/api/endpoints/keep')).json()) as EndpointRecord).data).toBe('old');
    expect((await app.request('/api/endpoints/other')).status).toBe(404);
  });

  it.each<[string, unknown, string]>([
    ['missing data', { statusCode: 200 }, 'MISSING_DATA'],
    ['statusCode 199', { data: 1, statusCode: 199 }, 'INVALID_STATUS_CODE'],
    ['statusCode 600', { data: 1, statusCode: 600 }, 'INVALID_STATUS_CODE'],
    ['statusCode 200.5', { data: 1, statusCode: 200.5 }, 'INVALID_STATUS_CODE'],
    ['statusCode "200"', { data: 1, statusCode: '200' }, 'INVALID_STATUS_CODE'],
    ['delay -1', { data: 1, delay: -1 }, 'INVALID_DELAY'],
    ['delay 60001', { data: 1, delay: 60_001 }, 'INVALID_DELAY'],
    ['delay 1.5', { data: 1, delay: 1.5 }, 'INVALID_DELAY'],
    ['an unknown field', { data: 1, colour: 'red' }, 'UNKNOWN_FIELD'],
    ['an array body', [1], 'INVALID_BODY'],
    ['a string body', 'data', 'INVALID_BODY'],
  ])('refuses %s with 400 %s and changes nothing', async (_label, body, code) => {
    const app = createApp();
    await app.request('/api/endpoints/v', json({ data: 'kept' }));
    const response = await app.request('/api/endpoints/v', json(body));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe(code);
    expect(await (await app.request('/api/endpoints/v')).json()).toMatchObject({ data: 'kept', statusCode: 200 });
  });

  it('refuses a body that is not JSON (400 INVALID_JSON) and an empty one', async () => {
    const app = createApp();
    for (const body of ['{nope', '']) {
      const response = await app.request('/api/endpoints/j', { method: 'PUT', body });
      expect(response.status).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_JSON');
    }
  });

  it('refuses a body over the limit with 413 BODY_TOO_LARGE', async () => {
    const app = createApp({ maxBodyBytes: 100 });
    const response = await app.request('/api/endpoints/big', json({ data: 'x'.repeat(200) }));
    expect(response.status).toBe(413);
    expect(await errorCode(response)).toBe('BODY_TOO_LARGE');
    expect((await app.request('/api/endpoints/big')).status).toBe(404);
  });

  it('honours maxDelayMs', async () => {
    const app = createApp({ maxDelayMs: 1000 });
    expect((await app.request('/api/endpoints/d', json({ data: 1, delay: 1000 }))).status).toBe(201);
    const response = await app.request('/api/endpoints/d', json({ data: 1, delay: 1001 }));
    expect(await errorCode(response)).toBe('INVALID_DELAY');
  });

  it('refuses an invalid path name with 400 INVALID_NAME', async () => {
    const response = await createApp().request('/api/endpoints/no.dots', json({ data: 1 }));
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('INVALID_NAME');
  });

  it('leaves the seed PUT /api/endpoint/add answering 409 for an existing name', async () => {
    const app = createApp();
    await app.request('/api/endpoints/taken', json({ data: 'first' }));
    const response = await app.request('/api/endpoint/add', json({ name: 'taken', data: 'second' }));
    expect(response.status).toBe(409);
    expect(await errorCode(response)).toBe('NAME_TAKEN');
    expect(await (await app.request('/endpoint/taken')).json()).toBe('first');
  });
});

describe('DELETE /api/endpoints/{name} and /api/endpoints', () => {
  it('deletes with 204, then answers 404 NOT_FOUND', async () => {
    const app = createApp();
    await seed(app, ['gone', 'stays']);
    const first = await app.request('/api/endpoints/gone', { method: 'DELETE' });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    const second = await app.request('/api/endpoints/gone', { method: 'DELETE' });
    expect(second.status).toBe(404);
    expect(await errorCode(second)).toBe('NOT_FOUND');
    expect((await app.request('/api/endpoints/gone')).status).toBe(404);
    expect((await list(app)).endpoints.map((e) => e.name)).toEqual(['stays']);
  });

  it('refuses an invalid name with 400 INVALID_NAME', async () => {
    const response = await createApp().request('/api/endpoints/bad.name', { method: 'DELETE' });
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('INVALID_NAME');
  });

  it('DELETE /api/endpoints removes every endpoint and every recorded request', async () => {
    const app = createApp();
    await seed(app, ['a', 'b', 'c']);
    await app.request('/endpoint/a', { method: 'POST', body: '1' });
    await app.request('/endpoint/unknown');
    const response = await app.request('/api/endpoints', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await list(app)).toEqual({ endpoints: [], next: null, total: 0 });
    expect((await app.request('/endpoint/b')).status).toBe(404);
    for (const name of ['a', 'unknown']) {
      const journal = (await (await app.request(`/api/endpoints/${name}/requests`)).json()) as { requests: unknown[] };
      expect(journal.requests).toEqual([]);
    }
    // The names are free again.
    expect((await app.request('/api/endpoint/add', json({ name: 'a', data: 'new' }))).status).toBe(201);
  });
});

const stores: [string, () => Promise<{ store: EndpointStore; cleanup: () => Promise<void> }>][] = [
  ['memory', async () => ({ store: new MemoryStore(), cleanup: async () => undefined })],
  [
    'level',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mockpoint-manage-'));
      const store = await LevelStore.open({ dir });
      return {
        store,
        cleanup: async () => {
          await store.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(stores)('no stale cached answer at /endpoint/{name} (%s store)', (_kind, open) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  async function app(options: CreateAppOptions = {}): Promise<MockpointApp> {
    const opened = await open();
    cleanup = opened.cleanup;
    return createApp({ ...options, store: opened.store });
  }

  async function read(a: MockpointApp, name: string): Promise<[number, unknown]> {
    const response = await a.request(`/endpoint/${name}`);
    return [response.status, await response.json()];
  }

  it('after a replace', async () => {
    const a = await app();
    await a.request('/api/endpoint/add', json({ name: 'c', data: { v: 1 } }));
    expect(await read(a, 'c')).toEqual([200, { v: 1 }]);
    expect(a.mockpoint.endpoints.cache.get('c')).toBeDefined();
    await a.request('/api/endpoints/c', json({ data: { v: 2 }, statusCode: 201 }));
    expect(await read(a, 'c')).toEqual([201, { v: 2 }]);
  });

  it('after a delete, and after a re-create', async () => {
    const a = await app();
    await a.request('/api/endpoint/add', json({ name: 'c', data: 'old' }));
    expect(await read(a, 'c')).toEqual([200, 'old']);
    expect((await a.request('/api/endpoints/c', { method: 'DELETE' })).status).toBe(204);
    const [status, body] = await read(a, 'c');
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    await a.request('/api/endpoint/add', json({ name: 'c', data: 'new' }));
    expect(await read(a, 'c')).toEqual([200, 'new']);
  });

  it('after DELETE /api/endpoints', async () => {
    const a = await app();
    await seed(a, ['x', 'y']);
    expect((await read(a, 'x'))[0]).toBe(200);
    expect((await read(a, 'y'))[0]).toBe(200);
    await a.request('/api/endpoints', { method: 'DELETE' });
    expect((await read(a, 'x'))[0]).toBe(404);
    expect((await read(a, 'y'))[0]).toBe(404);
  });

  it('lists in name order and pages through the store', async () => {
    const a = await app();
    await seed(a, ['m', 'b', 'z', 'a']);
    const first = await list(a, '?limit=3');
    expect(first.endpoints.map((e) => e.name)).toEqual(['a', 'b', 'm']);
    expect(first.next).toBe('m');
    const second = await list(a, `?limit=3&after=${first.next}`);
    expect(second).toEqual({
      endpoints: [{ name: 'z', data: { name: 'z' }, statusCode: 200, delay: 0 }],
      next: null,
      total: 4,
    });
  });
});
