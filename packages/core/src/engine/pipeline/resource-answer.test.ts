import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const DB = {
  posts: '[{"id":1,"title":"a","views":12345678901234567890,"userId":1},{"id":2,"title":"b","views":1.50,"userId":2}]',
  comments: '[{"id":1,"postId":1,"body":"x"},{"id":2,"postId":2,"body":"y"}]',
  people: '[{"key":"ada","name":"Ada"}]',
};

async function app(options: Parameters<typeof createApp>[0] = {}): Promise<MockpointApp> {
  const mock = createApp(options);
  const put = await mock.request('/api/endpoints/api/collections', {
    method: 'PUT',
    body: `{"posts":${DB.posts},"comments":${DB.comments},"people":${DB.people}}`,
  });
  expect(put.status).toBe(200);
  const routes = await mock.request('/api/endpoints/api/routes', {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        { id: 'posts', match: { path: '/posts' }, answer: { resource: 'posts' } },
        { id: 'comments', match: { path: '/v1/comments/*' }, answer: { resource: 'comments' } },
        { id: 'people', match: { path: '/people' }, answer: { resource: { collection: 'people', idField: 'key' } } },
      ],
    }),
  });
  expect(routes.status).toBe(200);
  return mock;
}

function send(mock: MockpointApp, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return mock.request(`/endpoint/api${path}`, { method, body, headers: { host: 'mock.test', ...headers } });
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('resource routes', () => {
  it('a list answered again after a write, of its own collection or an embedded one, is the new one', async () => {
    const mock = await app();
    const query = '/posts?_sort=id&_page=1&_limit=1';
    expect(await (await send(mock, 'GET', query)).text()).toBe(
      '[{"id":1,"title":"a","views":12345678901234567890,"userId":1}]',
    );
    await send(mock, 'PATCH', '/posts/1', '{"title":"A"}');
    expect(await (await send(mock, 'GET', query)).text()).toBe(
      '[{"id":1,"title":"A","views":12345678901234567890,"userId":1}]',
    );
    const embedded = '/posts?id=2&_embed=comments';
    expect(await (await send(mock, 'GET', embedded)).text()).toBe(
      '[{"id":2,"title":"b","views":1.50,"userId":2,"comments":[{"id":2,"postId":2,"body":"y"}]}]',
    );
    await send(mock, 'PATCH', '/v1/comments/2', '{"body":"z"}');
    expect(await (await send(mock, 'GET', embedded)).text()).toBe(
      '[{"id":2,"title":"b","views":1.50,"userId":2,"comments":[{"id":2,"postId":2,"body":"z"}]}]',
    );
  });

  it('GET lists the collection as its exact text; the query language filters, sorts and pages', async () => {
    const mock = await app();
    const all = await send(mock, 'GET', '/posts');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await all.text()).toBe(DB.posts);
    expect(all.headers.get('x-total-count')).toBeNull();
    const page = await send(mock, 'GET', '/posts?_sort=id&_order=desc&_page=1&_limit=1');
    expect(await page.text()).toBe('[{"id":2,"title":"b","views":1.50,"userId":2}]');
    expect(page.headers.get('x-total-count')).toBe('2');
    expect(page.headers.get('access-control-expose-headers')).toBe('X-Total-Count, Link');
    expect(page.headers.get('link')).toBe(
      '<http://mock.test/endpoint/api/posts?_sort=id&_order=desc&_page=1&_limit=1>; rel="first", ' +
        '<http://mock.test/endpoint/api/posts?_sort=id&_order=desc&_page=2&_limit=1>; rel="next", ' +
        '<http://mock.test/endpoint/api/posts?_sort=id&_order=desc&_page=2&_limit=1>; rel="last"',
    );
    expect(await (await send(mock, 'GET', '/posts?title_like=B&_embed=comments')).text()).toBe(
      '[{"id":2,"title":"b","views":1.50,"userId":2,"comments":[{"id":2,"postId":2,"body":"y"}]}]',
    );
    expect(await errorOf(await send(mock, 'GET', '/posts?_limit=x'))).toMatchObject({
      status: 400,
      code: 'INVALID_QUERY',
    });
  });

  it('GET /:id answers the item (with _embed/_expand), or 404 ITEM_NOT_FOUND; HEAD has no body', async () => {
    const mock = await app();
    expect(await (await send(mock, 'GET', '/posts/1')).text()).toBe(
      '{"id":1,"title":"a","views":12345678901234567890,"userId":1}',
    );
    expect(await (await send(mock, 'GET', '/v1/comments/1?_expand=post')).text()).toBe(
      '{"id":1,"postId":1,"body":"x","post":{"id":1,"title":"a","views":12345678901234567890,"userId":1}}',
    );
    expect(await errorOf(await send(mock, 'GET', '/posts/9'))).toMatchObject({
      status: 404,
      code: 'ITEM_NOT_FOUND',
      message: expect.stringContaining('"9"'),
    });
    const head = await send(mock, 'HEAD', '/posts/2');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String('{"id":2,"title":"b","views":1.50,"userId":2}'.length));
    expect(await head.text()).toBe('');
  });

  it('POST adds an item with the next id, at the end, exact; 201 with its Location; a taken id is 409 ID_TAKEN', async () => {
    const mock = await app();
    const created = await send(mock, 'POST', '/posts', '{ "title": "c", "big": 98765432109876543210 }');
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('{"title":"c","big":98765432109876543210,"id":3}');
    expect(created.headers.get('location')).toBe('http://mock.test/endpoint/api/posts/3');
    expect(created.headers.get('access-control-expose-headers')).toBe('Location');
    expect(await (await send(mock, 'GET', '/posts/3')).text()).toBe('{"title":"c","big":98765432109876543210,"id":3}');
    expect(await errorOf(await send(mock, 'POST', '/posts', '{"id":"1"}'))).toMatchObject({
      status: 409,
      code: 'ID_TAKEN',
    });
    expect(await (await send(mock, 'POST', '/posts', '')).text()).toBe('{"id":4}');
    expect(await errorOf(await send(mock, 'POST', '/posts', '[1]'))).toMatchObject({
      status: 400,
      code: 'INVALID_ITEM',
    });
    expect(await errorOf(await send(mock, 'POST', '/posts', '{"a":'))).toMatchObject({
      status: 400,
      code: 'INVALID_JSON',
    });
    const list = JSON.parse(await (await mock.request('/api/endpoints/api/collections/posts')).text()) as unknown[];
    expect(list).toHaveLength(4);
  });

  it('PUT replaces (id kept), PATCH merges (RFC 7396), DELETE removes (200 {}); each 404 when there is no such item', async () => {
    const mock = await app();
    expect(await (await send(mock, 'PUT', '/posts/1', '{"title":"A","id":99}')).text()).toBe('{"title":"A","id":1}');
    expect(await (await send(mock, 'PATCH', '/posts/2', '{"views":null,"tags":["t"]}')).text()).toBe(
      '{"id":2,"title":"b","userId":2,"tags":["t"]}',
    );
    const removed = await send(mock, 'DELETE', '/posts/1');
    expect([removed.status, await removed.text()]).toEqual([200, '{}']);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect(await errorOf(await send(mock, method, '/posts/1', '{}'))).toMatchObject({
        status: 404,
        code: 'ITEM_NOT_FOUND',
      });
    }
    expect(await (await mock.request('/api/endpoints/api/collections/posts')).text()).toBe(
      '[{"id":2,"title":"b","userId":2,"tags":["t"]}]',
    );
  });

  it('an id that is a lone surrogate is stored, and Location names it (as U+FFFD) instead of failing', async () => {
    const mock = await app();
    const created = await send(mock, 'POST', '/posts', '{"id":"\\ud800x"}');
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('http://mock.test/endpoint/api/posts/%EF%BF%BDx');
  });

  it('an idField other than id; a collection that does not exist yet lists as [] and is made by a POST', async () => {
    const mock = await app();
    expect(await (await send(mock, 'GET', '/people/ada')).text()).toBe('{"key":"ada","name":"Ada"}');
    const created = await send(mock, 'POST', '/people', '{"name":"Grace"}');
    expect(JSON.parse(await created.text())).toMatchObject({
      name: 'Grace',
      key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await mock.request('/api/endpoints/api/routes', {
      method: 'POST',
      body: JSON.stringify({ routes: [{ match: { path: '/tags' }, answer: { resource: 'tags' } }] }),
    });
    expect(await (await send(mock, 'GET', '/tags')).text()).toBe('[]');
    expect(await (await send(mock, 'POST', '/tags', '{"name":"x"}')).text()).toBe('{"name":"x","id":1}');
  });

  it('methods a resource does not serve are 405 with Allow; paths below a nested collection are 404', async () => {
    const mock = await app();
    const put = await send(mock, 'PUT', '/posts', '{}');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await send(mock, 'POST', '/posts/1', '{}')).headers.get('allow')).toBe('GET, HEAD, PUT, PATCH, DELETE');
    expect((await send(mock, 'DELETE', '/posts/1/comments')).headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await errorOf(await send(mock, 'GET', '/posts/1/comments/1'))).toMatchObject({
      status: 404,
      code: 'ITEM_NOT_FOUND',
    });
  });

  it('a resource route adds its headers to successful answers; templated, they read {{item.field}}', async () => {
    const mock = await app();
    const routes = await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          {
            match: { path: '/posts' },
            answer: {
              resource: 'posts',
              template: true,
              headers: { 'X-Title': '{{item.title}}', ETag: '"{{item.id}}"', 'X-Seen': ['{{item.views}}', 'a'] },
            },
          },
          { match: { path: '/users' }, answer: { resource: 'users', headers: { 'Cache-Control': 'no-store' } } },
        ],
      }),
    });
    expect(routes.status, await routes.clone().text()).toBe(200);
    const one = await send(mock, 'GET', '/posts/1');
    expect(one.headers.get('x-title')).toBe('a');
    expect(one.headers.get('etag')).toBe('"1"');
    // Exact: the big integer as written, not a rounded double.
    expect(one.headers.get('x-seen')).toBe('12345678901234567890, a');
    const made = await send(mock, 'POST', '/posts', '{"title":"caf\\u00e9\\r\\nX-Evil: 1"}');
    expect(made.headers.get('x-title')).toBe('caf%C3%A9%0D%0AX-Evil: 1');
    expect(made.headers.get('x-evil')).toBeNull();
    // A list has no item: the placeholder renders empty; an error answer has no route headers.
    expect((await send(mock, 'GET', '/posts')).headers.get('etag')).toBe('""');
    expect((await send(mock, 'GET', '/posts/99')).headers.get('etag')).toBeNull();
    expect((await send(mock, 'GET', '/users')).headers.get('cache-control')).toBe('no-store');
    for (const answer of [
      { resource: 'posts', data: 1 },
      { template: true, body: '{{item.id}}' },
    ]) {
      const refused = await mock.request('/api/endpoints/api/routes', {
        method: 'PUT',
        body: JSON.stringify({ routes: [{ answer }] }),
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toMatch(
        /INVALID_ANSWER|INVALID_TEMPLATE/,
      );
    }
  });

  it("nested routes: /posts/1/comments lists and adds comments whose postId is 1, as json-server's", async () => {
    const mock = await app();
    expect(await (await send(mock, 'GET', '/posts/1/comments')).text()).toBe('[{"id":1,"postId":1,"body":"x"}]');
    const head = await send(mock, 'HEAD', '/posts/2/comments');
    expect([head.status, await head.text()]).toEqual([200, '']);
    const made = await send(mock, 'POST', '/posts/2/comments', '{"body":"z","n":12345678901234567890}');
    expect(made.status).toBe(201);
    expect(await made.text()).toBe('{"body":"z","n":12345678901234567890,"postId":"2","id":3}');
    expect(made.headers.get('location')).toBe('http://mock.test/endpoint/api/posts/2/comments/3');
    expect(await (await send(mock, 'GET', '/posts/2/comments?_sort=id&_order=desc')).text()).toBe(
      '[{"body":"z","n":12345678901234567890,"postId":"2","id":3},{"id":2,"postId":2,"body":"y"}]',
    );
    for (const child of ['nothing', '%E2%80%A6', '__proto__']) {
      for (const method of ['GET', 'POST']) {
        expect(
          await errorOf(await send(mock, method, `/posts/1/${child}`, method === 'POST' ? '{}' : undefined)),
        ).toMatchObject({
          status: 404,
          code: 'COLLECTION_NOT_FOUND',
        });
      }
    }
  });

  it('a write past the collection limits is 409 COLLECTION_TOO_LARGE and changes nothing', async () => {
    const mock = await app({ maxCollectionItems: 2 });
    expect(await errorOf(await send(mock, 'POST', '/posts', '{}'))).toMatchObject({
      status: 409,
      code: 'COLLECTION_TOO_LARGE',
    });
    expect(JSON.parse(await (await send(mock, 'GET', '/posts')).text())).toHaveLength(2);
  });

  it('is journaled as answered by its route', async () => {
    const mock = await app();
    await send(mock, 'POST', '/posts', '{"title":"c"}');
    const journal = (await (await mock.request('/api/endpoints/api/requests')).json()) as {
      requests: { method: string; answeredBy: unknown; statusCode: number }[];
    };
    expect(journal.requests[0]).toMatchObject({ method: 'POST', answeredBy: { route: 'posts' }, statusCode: 201 });
  });

  it('a resource answer is the whole answer: another field beside it is refused', async () => {
    const mock = createApp();
    const refused = await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { resource: 'posts', statusCode: 201 } }] }),
    });
    expect(await errorOf(refused)).toMatchObject({
      status: 400,
      code: 'INVALID_ANSWER',
      message: expect.stringContaining('statusCode'),
    });
    const badName = await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { resource: 'a b' } }] }),
    });
    expect(badName.status).toBe(400);
  });

  it('bounds what relations multiply: an answer past MOCKPOINT_MAX_COLLECTION_BYTES is 422 ANSWER_TOO_LARGE, before it is built', async () => {
    // 200 comments of one post, and a post of 20 KB: each comment expanded carries its own copy (4 MB).
    const mock = createApp({ maxCollectionBytes: 1024 * 1024 });
    const comments = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, postId: 1 }));
    const put = await mock.request('/api/endpoints/api/collections', {
      method: 'PUT',
      body: JSON.stringify({ posts: [{ id: 1, text: 'x'.repeat(20_000) }], comments }),
    });
    expect(put.status).toBe(200);
    await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          { match: { path: '/comments/*' }, answer: { resource: 'comments' } },
          { match: { path: '/posts/*' }, answer: { resource: 'posts' } },
        ],
      }),
    });
    expect(await errorOf(await send(mock, 'GET', '/comments?_expand=post'))).toMatchObject({
      status: 422,
      code: 'ANSWER_TOO_LARGE',
      message: expect.stringContaining('MOCKPOINT_MAX_COLLECTION_BYTES'),
    });
    // A page of it fits, and its Content-Length is its UTF-8 length.
    const page = await send(mock, 'GET', '/comments?_expand=post&_limit=10');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(JSON.parse(text)).toHaveLength(10);
    expect(page.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    // An item embedding past the bound: the post with its comments 60 times over is refused too.
    const many = Array.from({ length: 60 }, (_, i) => `_embed=comments&_embed=c${i}`).join('&');
    expect(await errorOf(await send(mock, 'GET', `/posts/1?${many}`))).toMatchObject({
      status: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining('at most 16'),
    });
    const one = await send(mock, 'GET', '/posts/1?_embed=comments&_embed=comments');
    expect(one.status).toBe(200);
    expect((JSON.parse(await one.text()) as { comments: unknown[] }).comments).toHaveLength(200);
  });

  it('a filter path of thousands of segments is refused with INVALID_QUERY, not read once per item', async () => {
    const mock = await app();
    const key = Array.from({ length: 7_000 }, () => 'a').join('.');
    expect(await errorOf(await send(mock, 'GET', `/posts?${key}=1`))).toMatchObject({
      status: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining('at most 256 characters'),
    });
    expect(await errorOf(await send(mock, 'GET', `/posts?_sort=${'a.'.repeat(40)}b`))).toMatchObject({
      status: 400,
      code: 'INVALID_QUERY',
      message: expect.stringContaining('at most 32 dotted segments'),
    });
    expect((await send(mock, 'GET', '/posts?userId=1&_sort=title')).status).toBe(200);
  });
});
