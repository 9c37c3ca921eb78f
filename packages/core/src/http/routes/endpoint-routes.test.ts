import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

function send(app: MockpointApp, method: string, name: string, body?: unknown, suffix = '') {
  return app.request(`/api/endpoints/${name}/routes${suffix}`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; details?: Record<string, unknown> };
  };
  return { status: response.status, ...body.error };
}

async function listed(app: MockpointApp, name: string) {
  const response = await send(app, 'GET', name);
  expect(response.status).toBe(200);
  return ((await response.json()) as { routes: { id: string }[] }).routes;
}

describe('/api/endpoints/{name}/routes', () => {
  it('takes a routes list up to 8 x the body limit (each answer within it), and refuses one larger', async () => {
    // A limit of 4 KiB: 20 routes of ~1 KiB each are a 20 KiB list, as GitHub's description is 9 MB of routes.
    const app = createApp({ maxBodyBytes: 4096 });
    const routes = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `r${i}`,
        match: { path: `/r${i}` },
        answer: { body: 'x'.repeat(1000) },
      }));
    const put = await send(app, 'PUT', 'big', { routes: routes(20) });
    expect(put.status).toBe(200);
    expect(await listed(app, 'big')).toHaveLength(20);
    const over = await send(app, 'PUT', 'big', { routes: routes(40) });
    expect(await errorOf(over)).toMatchObject({ status: 413, code: 'BODY_TOO_LARGE' });
    const answerOver = await send(app, 'PUT', 'big', {
      routes: [{ match: { path: '/a' }, answer: { body: 'x'.repeat(5000) } }],
    });
    expect(await errorOf(answerOver)).toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('replaces, appends, lists, removes one and clears; ids are generated when absent', async () => {
    const app = createApp();
    const put = await send(app, 'PUT', 'gh', {
      routes: [
        { id: 'repo', match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { ok: 1 } } },
        { match: { path: '/x' }, answer: {} },
      ],
    });
    expect(put.status).toBe(200);
    const saved = ((await put.json()) as { routes: { id: string }[] }).routes;
    expect(saved[0]).toEqual({
      id: 'repo',
      match: { method: 'GET', path: '/repos/:owner/:repo' },
      answer: { data: { ok: 1 } },
    });
    expect(saved[1]?.id).toMatch(/^[0-9a-f]{12}$/);

    const post = await send(app, 'POST', 'gh', { routes: [{ id: 'more', answer: { body: 'hi' } }] });
    expect(post.status).toBe(201);
    expect((await listed(app, 'gh')).map((route) => route.id)).toEqual(['repo', saved[1]?.id, 'more']);

    expect((await send(app, 'DELETE', 'gh', undefined, '/repo')).status).toBe(204);
    expect((await listed(app, 'gh')).map((route) => route.id)).toEqual([saved[1]?.id, 'more']);
    expect(await errorOf(await send(app, 'DELETE', 'gh', undefined, '/repo'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });

    expect((await send(app, 'PUT', 'gh', { routes: [{ answer: {} }] })).status).toBe(200);
    expect(await listed(app, 'gh')).toHaveLength(1);
    expect((await send(app, 'DELETE', 'gh')).status).toBe(204);
    expect(await listed(app, 'gh')).toEqual([]);
  });

  it('keeps data as its exact JSON text (big integers, 1.0, key order)', async () => {
    const app = createApp();
    const text = '{"routes":[{"id":"a","answer":{"data":{"b":12345678901234567890,"a":1.0,"2":-0}}}]}';
    expect((await send(app, 'PUT', 'exact', text)).status).toBe(200);
    const listedText = await (await send(app, 'GET', 'exact')).text();
    expect(listedText).toBe(text);
    const served = await app.request('/endpoint/exact/anything');
    expect(await served.text()).toBe('{"b":12345678901234567890,"a":1.0,"2":-0}');
  });

  it.each([
    [{ routes: [{ answer: {} }, { match: { path: 'users' }, answer: {} }] }, 'INVALID_ROUTE_PATTERN', 1],
    [{ routes: [{ match: { path: '/a/:id/b/:id' }, answer: {} }] }, 'INVALID_ROUTE_PATTERN', 0],
    [{ routes: [{ match: { path: '/a/*/b' }, answer: {} }] }, 'INVALID_ROUTE_PATTERN', 0],
    [{ routes: [{ answer: {}, extra: 1 }] }, 'UNKNOWN_FIELD', 0],
    [{ routes: [{ answer: { colour: 'red' } }] }, 'UNKNOWN_FIELD', 0],
    [{ routes: [{ answer: {} }, { answer: { data: 1, body: 'x' } }] }, 'INVALID_ANSWER', 1],
    [{ routes: [{ answer: { bodyBase64: 'not base64!' } }] }, 'INVALID_ANSWER', 0],
    [{ routes: [{ answer: { headers: { 'x-a': 'a\r\nset-cookie: x=1' } } }] }, 'INVALID_HEADER', 0],
    [{ routes: [{ answer: { headers: { 'Transfer-Encoding': 'chunked' } } }] }, 'INVALID_HEADER', 0],
    [{ routes: [{ answer: { headers: { Connection: 'close' } } }] }, 'INVALID_HEADER', 0],
    [{ routes: [{ answer: { headers: { 'content-length': '3' } } }] }, 'INVALID_HEADER', 0],
    [{ routes: [{ answer: { template: true, body: 'hi {{params.id' } }] }, 'INVALID_TEMPLATE', 0],
    [{ routes: [{ answer: { template: true, data: { a: '{{process.env}}' } } }] }, 'INVALID_TEMPLATE', 0],
    [{ routes: [{ answer: { statusCode: 99 } }] }, 'INVALID_STATUS_CODE', 0],
    [{ routes: [{ answer: { delay: -1 } }] }, 'INVALID_DELAY', 0],
    [{ routes: [{ id: 'a b', answer: {} }] }, 'INVALID_ROUTE_ID', 0],
    [
      {
        routes: [
          { id: 'a', answer: {} },
          { id: 'a', answer: {} },
        ],
      },
      'DUPLICATE_ROUTE_ID',
      1,
    ],
    [{ routes: [{ match: { method: 5 }, answer: {} }] }, 'INVALID_MATCH', 0],
    [{ routes: [{ match: { bodyJsonPaths: ['$..id'] }, answer: {} }] }, 'INVALID_MATCH', 0],
    [{ routes: [{ match: { bodyJsonPaths: [`$${'.a'.repeat(17)}`] }, answer: {} }] }, 'INVALID_MATCH', 0],
    [{ routes: [{ match: {} }] }, 'INVALID_ROUTE', 0],
    [{ routes: [1] }, 'INVALID_ROUTE', 0],
  ])('refuses %j with %s at index %i, and applies nothing', async (body, code, index) => {
    const app = createApp();
    await send(app, 'PUT', 'bad', { routes: [{ id: 'kept', answer: {} }] });
    const error = await errorOf(await send(app, 'PUT', 'bad', body));
    expect(error).toMatchObject({ status: 400, code, details: { index } });
    expect(error.message).toContain(`routes[${index}]`);
    expect((await listed(app, 'bad')).map((route) => route.id)).toEqual(['kept']);
  });

  it('refuses an appended id that is taken, and more routes than maxRoutes (nothing applied)', async () => {
    const app = createApp({ maxRoutes: 2 });
    await send(app, 'PUT', 'lim', { routes: [{ id: 'a', answer: {} }] });
    expect(await errorOf(await send(app, 'POST', 'lim', { routes: [{ id: 'a', answer: {} }] }))).toMatchObject({
      status: 400,
      code: 'DUPLICATE_ROUTE_ID',
    });
    expect(await errorOf(await send(app, 'POST', 'lim', { routes: [{ answer: {} }, { answer: {} }] }))).toMatchObject({
      status: 409,
      code: 'TOO_MANY_ROUTES',
    });
    expect(
      await errorOf(await send(app, 'PUT', 'lim', { routes: [{ answer: {} }, { answer: {} }, { answer: {} }] })),
    ).toMatchObject({ status: 409, code: 'TOO_MANY_ROUTES' });
    expect(await listed(app, 'lim')).toHaveLength(1);
    const health = (await (await app.request('/api/health')).json()) as { limits: { maxRoutes: number } };
    expect(health.limits.maxRoutes).toBe(2);
  });

  it('keeps routes beside the record: PUT of the record keeps them, deleting the endpoint or a reset removes them', async () => {
    const app = createApp();
    const putRecord = (data: unknown) =>
      app.request('/api/endpoints/both', { method: 'PUT', body: JSON.stringify({ data }) });
    await putRecord('v1');
    await send(app, 'PUT', 'both', { routes: [{ id: 'r', match: { path: '/x' }, answer: { body: 'route' } }] });
    await putRecord('v2');
    expect(await listed(app, 'both')).toHaveLength(1);
    expect(await (await app.request('/endpoint/both/x')).text()).toBe('route');
    // The record keeps exactly its four fields.
    expect(await (await app.request('/api/endpoints/both')).json()).toEqual({
      name: 'both',
      data: 'v2',
      statusCode: 200,
      delay: 0,
    });

    expect((await app.request('/api/endpoints/both', { method: 'DELETE' })).status).toBe(204);
    expect(await listed(app, 'both')).toEqual([]);
    expect((await app.request('/endpoint/both/x')).status).toBe(404);

    await send(app, 'PUT', 'reset', { routes: [{ answer: {} }] });
    // A name with routes and no record can be deleted too.
    await send(app, 'PUT', 'only', { routes: [{ answer: {} }] });
    expect((await app.request('/api/endpoints/only', { method: 'DELETE' })).status).toBe(204);
    expect(await listed(app, 'only')).toEqual([]);
    expect((await app.request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
    expect(await listed(app, 'reset')).toEqual([]);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await (await createApp().request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/endpoints/{name}/routes'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'post',
      'put',
    ]);
    expect(Object.keys(doc.paths['/api/endpoints/{name}/routes/{id}'] ?? {})).toEqual(['delete']);
  });
});
