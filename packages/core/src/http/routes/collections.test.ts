import { describe, expect, it } from 'vitest';
import { itemOf } from '../../collections/item.js';
import { createApp, type MockpointApp } from '../../index.js';
import { memoryBackend } from '../../store/memory/backend.js';

const USERS = '[{"id":1,"name":"Ada","big":12345678901234567890},{"id":2,"price":1.50,"\\u0041":"x"}]';

function send(app: MockpointApp, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return app.request(path, { method, headers, body });
}

async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; message: string; details?: unknown }> {
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  return { status: response.status, ...body.error };
}

describe('/api/endpoints/{name}/collections', () => {
  it('PUT sets every collection, exactly as sent (minified); GET reads them, all or one, in name order', async () => {
    const app = createApp();
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe('{}');
    const put = await send(app, 'PUT', '/api/endpoints/api/collections', `{ "users" : ${USERS}, "posts": [] }`);
    expect(put.status).toBe(200);
    expect(await put.text()).toBe(`{"posts":[],"users":${USERS}}`);
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe(`{"posts":[],"users":${USERS}}`);
    const one = await app.request('/api/endpoints/api/collections/users');
    expect(one.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await one.text()).toBe(USERS);
  });

  it('PUT of one collection replaces it (and its seed) and leaves the others; DELETE removes one, or all', async () => {
    const app = createApp();
    await send(app, 'PUT', '/api/endpoints/api/collections', `{"users":${USERS},"posts":[{"id":1}]}`);
    const put = await send(app, 'PUT', '/api/endpoints/api/collections/posts', '[ {"id": 7} ]');
    expect(await put.text()).toBe('[{"id":7}]');
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe(
      `{"posts":[{"id":7}],"users":${USERS}}`,
    );
    expect((await send(app, 'DELETE', '/api/endpoints/api/collections/posts')).status).toBe(204);
    expect(await errorOf(await send(app, 'DELETE', '/api/endpoints/api/collections/posts'))).toMatchObject({
      status: 404,
      code: 'COLLECTION_NOT_FOUND',
    });
    expect(await errorOf(await app.request('/api/endpoints/api/collections/posts'))).toMatchObject({
      status: 404,
      code: 'COLLECTION_NOT_FOUND',
      message: expect.stringContaining('GET /api/endpoints/api/collections'),
    });
    expect((await send(app, 'DELETE', '/api/endpoints/api/collections')).status).toBe(204);
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe('{}');
  });

  it('refuses what is not collections, naming the collection and the item; nothing changes', async () => {
    const app = createApp();
    await send(app, 'PUT', '/api/endpoints/api/collections', '{"users":[]}');
    const cases: [string, string, string, unknown?][] = [
      ['{"a b":[]}', 'INVALID_COLLECTION', 'a collection name'],
      ['{"users":{"id":1}}', 'INVALID_COLLECTION', 'must be a JSON array of objects'],
      ['{"users":[{"id":1},2]}', 'INVALID_COLLECTION', 'item 1', { collection: 'users', index: 1 }],
      ['[]', 'INVALID_BODY', 'JSON object'],
      ['{"users":[],"users":[]}', 'DUPLICATE_KEY', 'twice'],
    ];
    for (const [body, code, message, details] of cases) {
      const error = await errorOf(await send(app, 'PUT', '/api/endpoints/api/collections', body));
      expect(error).toMatchObject({ status: 400, code, message: expect.stringContaining(message) });
      if (details) expect(error.details).toEqual(details);
    }
    const one = await errorOf(await send(app, 'PUT', '/api/endpoints/api/collections/x%20y', '[]'));
    expect(one).toMatchObject({ status: 400, code: 'INVALID_COLLECTION' });
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe('{"users":[]}');
  });

  it('refuses a collection past MOCKPOINT_MAX_COLLECTION_ITEMS or _BYTES with COLLECTION_TOO_LARGE', async () => {
    const app = createApp({ maxCollectionItems: 2, maxCollectionBytes: 1024 });
    const three = await send(app, 'PUT', '/api/endpoints/api/collections/users', '[{"id":1},{"id":2},{"id":3}]');
    expect(await errorOf(three)).toMatchObject({
      status: 409,
      code: 'COLLECTION_TOO_LARGE',
      message: expect.stringContaining('MOCKPOINT_MAX_COLLECTION_ITEMS'),
    });
    const big = await send(app, 'PUT', '/api/endpoints/api/collections/users', `[{"text":"${'x'.repeat(1100)}"}]`);
    expect(await errorOf(big)).toMatchObject({
      code: 'COLLECTION_TOO_LARGE',
      message: expect.stringContaining('BYTES'),
    });
  });

  it('reset returns the collections to what was put, and keeps the journal unless journal=true', async () => {
    const backend = memoryBackend();
    const app = createApp({ backend });
    await send(app, 'PUT', '/api/endpoints/api/collections', `{"users":${USERS}}`);
    await backend.collections.update('api', 'users', () => ({ edit: { append: itemOf('{"id":3}') }, result: 0 }));
    await backend.collections.update('api', 'extra', () => ({ edit: { put: [] }, result: 0 }));
    await send(app, 'PUT', '/api/endpoint/add', '{"name":"api","data":1}');
    await app.request('/endpoint/api');
    expect((await send(app, 'POST', '/api/endpoints/api/reset')).status).toBe(204);
    expect(await (await app.request('/api/endpoints/api/collections')).text()).toBe(`{"users":${USERS}}`);
    expect((await backend.journal.wait('api', 1, 0)).requests).toHaveLength(1);
    expect((await send(app, 'POST', '/api/endpoints/api/reset?journal=true')).status).toBe(204);
    expect((await backend.journal.wait('api', 1, 0)).requests).toHaveLength(0);
    expect(await errorOf(await send(app, 'POST', '/api/endpoints/api/reset?journal=yes'))).toMatchObject({
      status: 400,
      code: 'INVALID_QUERY',
    });
  });

  it('writes need the admin token when one is set; reads do not', async () => {
    const app = createApp({ adminToken: 'secret' });
    for (const [method, path] of [
      ['PUT', '/api/endpoints/api/collections'],
      ['PUT', '/api/endpoints/api/collections/users'],
      ['DELETE', '/api/endpoints/api/collections'],
      ['POST', '/api/endpoints/api/reset'],
    ] as const) {
      expect((await send(app, method, path, '{}')).status).toBe(401);
    }
    expect((await app.request('/api/endpoints/api/collections')).status).toBe(200);
    const put = await send(app, 'PUT', '/api/endpoints/api/collections', '{"u":[]}', {
      authorization: 'Bearer secret',
    });
    expect(put.status).toBe(200);
  });

  it('the OpenAPI document describes every collections route', async () => {
    const app = createApp();
    const document = (await (await app.request('/api/openapi.json')).json()) as { paths: Record<string, object> };
    expect(Object.keys(document.paths['/api/endpoints/{name}/collections'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    expect(Object.keys(document.paths['/api/endpoints/{name}/collections/{collection}'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    expect(Object.keys(document.paths['/api/endpoints/{name}/reset'] ?? {})).toEqual(['post']);
  });
});
