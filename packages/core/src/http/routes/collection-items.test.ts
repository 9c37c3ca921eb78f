import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { memoryBackend } from '../../store/memory/backend.js';

const USERS = '[{"id":1,"name":"Ada","big":12345678901234567890},{"id":2,"price":1.50,"\\u0041":"x"}]';
const ITEMS = '/api/endpoints/api/collections/users/items';

function send(app: MockpointApp, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return app.request(path, { method, headers, body });
}

async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; message: string; details?: unknown }> {
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  return { status: response.status, ...body.error };
}

async function seeded(options: Parameters<typeof createApp>[0] = {}): Promise<MockpointApp> {
  const app = createApp(options);
  expect((await send(app, 'PUT', '/api/endpoints/api/collections', `{"users":${USERS}}`)).status).toBe(200);
  return app;
}

const usersText = async (app: MockpointApp) => (await app.request('/api/endpoints/api/collections/users')).text();

describe('/api/endpoints/{name}/collections/{collection}/items', () => {
  it('GET …/items/{id} answers the item as its exact text; a missing one is 404 ITEM_NOT_FOUND', async () => {
    const app = await seeded();
    const one = await app.request(`${ITEMS}/1`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await one.text()).toBe('{"id":1,"name":"Ada","big":12345678901234567890}');
    expect(await (await app.request(`${ITEMS}/2`)).text()).toBe('{"id":2,"price":1.50,"\\u0041":"x"}');
    expect(await errorOf(await app.request(`${ITEMS}/9`))).toEqual({
      status: 404,
      code: 'ITEM_NOT_FOUND',
      message: 'collection "users" of "api" has no item whose id is "9"',
      details: { collection: 'users', id: '9' },
    });
    // A collection that does not exist has no items.
    expect(await errorOf(await app.request('/api/endpoints/api/collections/posts/items/1'))).toMatchObject({
      status: 404,
      code: 'ITEM_NOT_FOUND',
    });
    expect(await errorOf(await app.request('/api/endpoints/api/collections/a%20b/items/1'))).toMatchObject({
      status: 400,
      code: 'INVALID_COLLECTION',
    });
  });

  it('POST …/items adds the item with the next id (201), exactly past 2^64; its own id when given, ID_TAKEN when taken', async () => {
    const app = await seeded();
    const made = await send(app, 'POST', ITEMS, '{ "name" : "Grace" }');
    expect(made.status).toBe(201);
    expect(await made.text()).toBe('{"name":"Grace","id":3}');
    const own = await send(app, 'POST', ITEMS, '{"id":12345678901234567890,"n":1.50}');
    expect(await own.text()).toBe('{"id":12345678901234567890,"n":1.50}');
    expect(await (await send(app, 'POST', ITEMS, '{}')).text()).toBe('{"id":12345678901234567891}');
    expect(await errorOf(await send(app, 'POST', ITEMS, '{"id":"2","name":"again"}'))).toEqual({
      status: 409,
      code: 'ID_TAKEN',
      message: 'collection "users" of "api" has an item whose id is "2" already; leave id out to get a new one',
      details: { collection: 'users', id: '2' },
    });
    expect(await usersText(app)).toBe(
      `${USERS.slice(0, -1)},{"name":"Grace","id":3},{"id":12345678901234567890,"n":1.50},{"id":12345678901234567891}]`,
    );
    // A collection that does not exist yet is made by its first item.
    const first = await send(app, 'POST', '/api/endpoints/api/collections/posts/items', '{"title":"hi"}');
    expect([first.status, await first.text()]).toEqual([201, '{"title":"hi","id":1}']);
  });

  it('concurrent POSTs get distinct ids and none is lost', async () => {
    const app = createApp();
    const made = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => (await send(app, 'POST', ITEMS, `{"n":${i}}`)).json()),
    );
    const ids = (made as { id: number }[]).map((item) => item.id);
    expect(new Set(ids).size).toBe(30);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect((JSON.parse(await usersText(app)) as unknown[]).length).toBe(30);
  });

  it('PATCH merges (RFC 7396): every other field keeps its exact text, null removes, the id stays', async () => {
    const app = await seeded();
    const patched = await send(app, 'PATCH', `${ITEMS}/1`, '{"name":"Ada L.","id":99,"extra":{"a":1}}');
    expect(patched.status).toBe(200);
    expect(await patched.text()).toBe('{"id":1,"name":"Ada L.","big":12345678901234567890,"extra":{"a":1}}');
    expect(await (await send(app, 'PATCH', `${ITEMS}/2`, '{"\\u0041":null,"tag":"t"}')).text()).toBe(
      '{"id":2,"price":1.50,"tag":"t"}',
    );
    expect(await usersText(app)).toBe(
      '[{"id":1,"name":"Ada L.","big":12345678901234567890,"extra":{"a":1}},{"id":2,"price":1.50,"tag":"t"}]',
    );
  });

  it('PUT replaces the item, its id kept; DELETE removes it (204), then it is not found', async () => {
    const app = await seeded();
    const put = await send(app, 'PUT', `${ITEMS}/2`, '{"name":"Grace","id":7,"big":12345678901234567890}');
    expect([put.status, await put.text()]).toEqual([200, '{"name":"Grace","id":2,"big":12345678901234567890}']);
    expect(await (await send(app, 'PUT', `${ITEMS}/1`, '{"x":1}')).text()).toBe('{"x":1,"id":1}');
    const removed = await send(app, 'DELETE', `${ITEMS}/1`);
    expect([removed.status, await removed.text()]).toEqual([204, '']);
    expect(await usersText(app)).toBe('[{"name":"Grace","id":2,"big":12345678901234567890}]');
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      expect(
        await errorOf(await send(app, method, `${ITEMS}/1`, method === 'DELETE' ? undefined : '{}')),
      ).toMatchObject({ status: 404, code: 'ITEM_NOT_FOUND', message: expect.stringContaining('whose id is "1"') });
    }
  });

  it('refuses a body that is not an item with INVALID_JSON or INVALID_ITEM; nothing changes', async () => {
    const app = await seeded();
    expect(await errorOf(await send(app, 'POST', ITEMS, '{"a":'))).toMatchObject({
      status: 400,
      code: 'INVALID_JSON',
    });
    expect(await errorOf(await send(app, 'PATCH', `${ITEMS}/1`, '[1]'))).toMatchObject({
      status: 400,
      code: 'INVALID_ITEM',
    });
    expect(await usersText(app)).toBe(USERS);
  });

  it('?idField= names the id field as a resource route does; an empty or too long one is INVALID_QUERY', async () => {
    const app = createApp();
    await send(app, 'PUT', '/api/endpoints/api/collections/users', '[{"key":"a","n":1},{"id":"a","n":2}]');
    expect(await (await app.request(`${ITEMS}/a?idField=key`)).text()).toBe('{"key":"a","n":1}');
    expect(await (await app.request(`${ITEMS}/a`)).text()).toBe('{"id":"a","n":2}');
    expect(await (await send(app, 'PATCH', `${ITEMS}/a?idField=key`, '{"n":3,"key":"z"}')).text()).toBe(
      '{"key":"a","n":3}',
    );
    const made = await send(app, 'POST', `${ITEMS}?idField=key`, '{"n":4}');
    expect(JSON.parse(await made.text())).toEqual({ n: 4, key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    for (const idField of ['', 'k'.repeat(65)]) {
      expect(await errorOf(await app.request(`${ITEMS}/a?idField=${idField}`))).toMatchObject({
        status: 400,
        code: 'INVALID_QUERY',
        message: expect.stringContaining('idField'),
      });
    }
  });

  it('refuses a write past the limits with COLLECTION_TOO_LARGE; nothing changes', async () => {
    const app = createApp({ maxCollectionItems: 2, maxCollectionBytes: 200 });
    await send(app, 'PUT', '/api/endpoints/api/collections/users', '[{"id":1},{"id":2}]');
    expect(await errorOf(await send(app, 'POST', ITEMS, '{}'))).toMatchObject({
      status: 409,
      code: 'COLLECTION_TOO_LARGE',
      message: expect.stringContaining('MOCKPOINT_MAX_COLLECTION_ITEMS'),
    });
    expect(await errorOf(await send(app, 'PATCH', `${ITEMS}/1`, `{"text":"${'x'.repeat(200)}"}`))).toMatchObject({
      status: 409,
      code: 'COLLECTION_TOO_LARGE',
      message: expect.stringContaining('MOCKPOINT_MAX_COLLECTION_BYTES'),
    });
    expect(await usersText(app)).toBe('[{"id":1},{"id":2}]');
  });

  it('changes the items, never the seed: a reset returns to what was put', async () => {
    const backend = memoryBackend();
    const app = await seeded({ backend });
    await send(app, 'POST', ITEMS, '{"name":"Grace"}');
    await send(app, 'PATCH', `${ITEMS}/1`, '{"name":"Ada L."}');
    await send(app, 'DELETE', `${ITEMS}/2`);
    await send(app, 'POST', '/api/endpoints/api/collections/posts/items', '{}');
    expect(await usersText(app)).toBe('[{"id":1,"name":"Ada L.","big":12345678901234567890},{"name":"Grace","id":3}]');
    const seed = await backend.collections.getSeed('api');
    expect([...seed.keys()]).toEqual(['users']);
    expect((await send(app, 'POST', '/api/endpoints/api/reset')).status).toBe(204);
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe(`{"users":${USERS}}`);
  });

  it('the resource route sees what the item API wrote, and the other way round', async () => {
    const app = await seeded();
    const routes = '{"routes":[{"match":{"path":"/users"},"answer":{"resource":"users"}}]}';
    expect((await send(app, 'PUT', '/api/endpoints/api/routes', routes)).status).toBe(200);
    await send(app, 'POST', ITEMS, '{"name":"Grace"}');
    expect(await (await app.request('/endpoint/api/users/3')).text()).toBe('{"name":"Grace","id":3}');
    await send(app, 'POST', '/endpoint/api/users', '{"name":"Edsger"}');
    expect(await (await app.request(`${ITEMS}/4`)).text()).toBe('{"name":"Edsger","id":4}');
    // The same refusal, word for word, from either side.
    const viaRoute = await errorOf(await app.request('/endpoint/api/users/9'));
    const viaApi = await errorOf(await app.request(`${ITEMS}/9`));
    expect(viaApi).toEqual(viaRoute);
  });

  it('writes need the admin token when one is set (reads do not); a foreign Origin or Host is refused', async () => {
    const guarded = createApp({ adminToken: 'secret' });
    const auth = { authorization: 'Bearer secret' };
    await send(guarded, 'PUT', '/api/endpoints/api/collections', `{"users":${USERS}}`, auth);
    for (const [method, path] of [
      ['POST', ITEMS],
      ['PUT', `${ITEMS}/1`],
      ['PATCH', `${ITEMS}/1`],
      ['DELETE', `${ITEMS}/1`],
    ] as const) {
      expect((await send(guarded, method, path, method === 'DELETE' ? undefined : '{}')).status, method).toBe(401);
      const foreign = await send(guarded, method, path, '{}', { ...auth, origin: 'https://evil.example' });
      expect(await errorOf(foreign), method).toMatchObject({ status: 403, code: 'CROSS_ORIGIN' });
    }
    expect(await usersText(guarded)).toBe(USERS);
    expect((await guarded.request(`${ITEMS}/1`)).status).toBe(200);
    const host = await guarded.request(`http://x${ITEMS}/1`, { headers: { host: 'evil.example' } });
    expect(await errorOf(host)).toMatchObject({ status: 403, code: 'HOST_NOT_ALLOWED' });
    expect((await send(guarded, 'PATCH', `${ITEMS}/1`, '{"n":1}', auth)).status).toBe(200);
  });

  it('the OpenAPI document describes every item route', async () => {
    const document = (await (await createApp().request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
    };
    const items = '/api/endpoints/{name}/collections/{collection}/items';
    expect(Object.keys(document.paths[items] ?? {})).toEqual(['post']);
    expect(Object.keys(document.paths[`${items}/{id}`] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    for (const operation of [
      ...Object.values(document.paths[items] ?? {}),
      ...Object.values(document.paths[`${items}/{id}`] ?? {}),
    ]) {
      expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'idField', in: 'query' }));
    }
  });
});
