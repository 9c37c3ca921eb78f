// Queued answers with `match` and the one answer shape (headers, body,
// bodyBase64, template), and their fallback: what would answer without the
// queue (a route, else the record at the bare URL).
import { describe, expect, it } from 'vitest';
import { createApp, type JournalEntry, type MockpointApp } from '../../index.js';

async function send(app: MockpointApp, method: string, path: string, body?: unknown): Promise<Response> {
  return app.request(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function queue(app: MockpointApp, answers: unknown[]): Promise<Response> {
  return send(app, 'POST', '/api/endpoints/api/queue', { answers });
}

async function journal(app: MockpointApp): Promise<JournalEntry[]> {
  return ((await (await app.request('/api/endpoints/api/requests')).json()) as { requests: JournalEntry[] }).requests;
}

async function setup(): Promise<MockpointApp> {
  const app = createApp();
  const routes = await send(app, 'PUT', '/api/endpoints/api/routes', {
    routes: [
      {
        id: 'users',
        match: { path: '/users/:id' },
        answer: { headers: { link: '</users?page=2>; rel="next"' }, data: { id: 1 } },
      },
    ],
  });
  expect(routes.status).toBe(200);
  await send(app, 'PUT', '/api/endpoints/api', { data: { bare: true } });
  return app;
}

describe('queued answers with match, headers and bodies', () => {
  it('a queued answer with match answers only a matching request; the others get what would answer anyway', async () => {
    const app = await setup();
    const busy = { match: { method: 'POST', path: '/orders' }, statusCode: 503, data: { error: 'busy' } };
    expect((await queue(app, [busy])).status).toBe(201);
    // Not matching: the route and the record answer, the queued answer stays.
    expect(await (await send(app, 'GET', '/endpoint/api/users/7')).json()).toEqual({ id: 1 });
    expect(await (await send(app, 'POST', '/endpoint/api')).json()).toEqual({ bare: true });
    expect((await (await app.request('/api/endpoints/api/queue')).json()) as unknown).toEqual({
      answers: [{ ...busy, times: 1 }],
    });
    // Matching: taken once, then gone (no route answers /orders: 404 NO_ROUTE_MATCHED).
    const taken = await send(app, 'POST', '/endpoint/api/orders', { sku: 'a' });
    expect([taken.status, await taken.text()]).toEqual([503, '{"error":"busy"}']);
    const after = await send(app, 'POST', '/endpoint/api/orders');
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('NO_ROUTE_MATCHED');
    expect((await journal(app)).map((r) => r.answeredBy)).toEqual([
      { route: 'users' },
      'record',
      { queue: true },
      'none',
    ]);
  });

  it('absent fields fall back to the matching route: its status, headers and body', async () => {
    const app = await setup();
    await queue(app, [{ statusCode: 429, delay: 0 }, { headers: { 'retry-after': '3' } }, { body: 'plain' }]);
    const first = await send(app, 'GET', '/endpoint/api/users/7');
    expect([first.status, first.headers.get('link'), await first.text()]).toEqual([
      429,
      '</users?page=2>; rel="next"',
      '{"id":1}',
    ]);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // headers given: they replace the route's; the body (and its Content-Type) still falls back.
    const second = await send(app, 'GET', '/endpoint/api/users/7');
    expect([second.status, second.headers.get('retry-after'), second.headers.get('link')]).toEqual([200, '3', null]);
    expect([second.headers.get('content-type'), await second.text()]).toEqual([
      'application/json; charset=utf-8',
      '{"id":1}',
    ]);
    // A body given: its own Content-Type; the route's other headers stay.
    const third = await send(app, 'GET', '/endpoint/api/users/7');
    expect([third.status, third.headers.get('content-type'), third.headers.get('link'), await third.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      '</users?page=2>; rel="next"',
      'plain',
    ]);
    expect(third.headers.get('content-length')).toBe('5');
  });

  it('without a body and with nothing to fall back on, the answer is 404 NOT_FOUND (as without routes)', async () => {
    const app = await setup();
    await queue(app, [{ match: { path: '/nothing' }, statusCode: 503 }]);
    const response = await send(app, 'GET', '/endpoint/api/nothing');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('sends headers (repeated ones too), body and bodyBase64, and falls back to the record at the bare URL', async () => {
    const app = await setup();
    await queue(app, [
      { headers: { 'set-cookie': ['a=1', 'b=2'], 'content-type': 'text/csv' }, body: 'x,y', statusCode: 201 },
      { bodyBase64: 'AAEC/w==' },
      { statusCode: 500 },
    ]);
    const first = await send(app, 'GET', '/endpoint/api');
    expect(first.status).toBe(201);
    expect(first.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect([first.headers.get('content-type'), await first.text()]).toEqual(['text/csv', 'x,y']);
    const second = await send(app, 'GET', '/endpoint/api');
    expect(second.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await second.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    const third = await send(app, 'GET', '/endpoint/api');
    expect([third.status, await third.text()]).toEqual([500, '{"bare":true}']);
  });

  it('renders a template answer with the request and the parameters of its match.path', async () => {
    const app = await setup();
    await queue(app, [
      {
        match: { path: '/orders/:id' },
        template: true,
        headers: { 'x-order': '{{params.id}}' },
        data: { id: '{{params.id}}', amount: '{{body.amount}}', page: '{{query.page}}' },
      },
    ]);
    const response = await send(app, 'POST', '/endpoint/api/orders/42?page=2', { amount: 10 });
    expect(response.headers.get('x-order')).toBe('42');
    expect(await response.json()).toEqual({ id: '42', amount: 10, page: '2' });
    const [entry] = await journal(app);
    expect(entry).toMatchObject({ answeredBy: { queue: true }, params: { id: '42' }, subpath: '/orders/42' });
  });

  it('refuses a bad queued answer with a specific code and the index, and queues none of the request', async () => {
    const app = createApp();
    const cases: [unknown, string][] = [
      [{ data: 1, body: 'x' }, 'INVALID_ANSWER'],
      [{ bodyBase64: 'not base64!' }, 'INVALID_ANSWER'],
      [{ headers: { connection: 'close' } }, 'INVALID_HEADER'],
      [{ headers: { 'x-a': 'a\r\nb' } }, 'INVALID_HEADER'],
      [{ match: { path: '/a/:x/:x' } }, 'INVALID_ROUTE_PATTERN'],
      [{ match: { verb: 'GET' } }, 'UNKNOWN_FIELD'],
      [{ template: true, body: '{{params.id' }, 'INVALID_TEMPLATE'],
      [{ fault: 'reset', body: 'x' }, 'INVALID_BODY'],
    ];
    for (const [bad, code] of cases) {
      const response = await queue(app, [{ statusCode: 500 }, bad]);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect([error.code, error.message.startsWith('answers[1]')], JSON.stringify(bad)).toEqual([code, true]);
    }
    expect(await (await app.request('/api/endpoints/api/queue')).json()).toEqual({ answers: [] });
  });
});
