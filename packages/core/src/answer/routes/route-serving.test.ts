/**
 * Routes as a client sees them, through both adapters (the native Node listener
 * and the Fetch route), which must agree byte for byte.
 */
import { closeListeners } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type JournalEntry, type MockpointApp } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS, type NodeAdapter } from '../../test-support/node-adapters.js';

afterEach(closeListeners);

/** Serves `app` through `adapter`; resolves with its URL. */
async function serve(adapter: NodeAdapter, app: MockpointApp): Promise<string> {
  return `http://127.0.0.1:${await NODE_ADAPTERS[adapter](app)}`;
}

async function setup(adapter: NodeAdapter, routes: unknown[], record?: unknown) {
  const app = createApp();
  if (record !== undefined) {
    await app.request('/api/endpoints/api', { method: 'PUT', body: JSON.stringify({ data: record }) });
  }
  const put = await app.request('/api/endpoints/api/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status).toBe(200);
  return { app, url: await serve(adapter, app) };
}

async function journal(app: MockpointApp): Promise<JournalEntry[]> {
  return ((await (await app.request('/api/endpoints/api/requests')).json()) as { requests: JournalEntry[] }).requests;
}

describe.each(NODE_ADAPTER_NAMES)('routes (%s adapter)', (adapter) => {
  it('answers subpaths with the first route, in list order, whose whole match holds', async () => {
    const { app, url } = await setup(adapter, [
      {
        id: 'create',
        match: { method: 'POST', path: '/users', body: { role: 'admin' } },
        answer: { statusCode: 201, data: { admin: true } },
      },
      { id: 'user', match: { path: '/users/:id' }, answer: { data: 'user' } },
      { id: 'first-any', match: { path: '/users/*' }, answer: { data: 'wild' } },
      { id: 'me', match: { path: '/users/me' }, answer: { data: 'never: user comes first' } },
      {
        id: 'keyed',
        match: { path: '/secret', headers: { 'X-Api-Key': 'k' }, query: { page: '2' } },
        answer: { body: 'ok' },
      },
    ]);
    expect(await (await fetch(`${url}/endpoint/api/users/42`)).json()).toBe('user');
    expect(await (await fetch(`${url}/endpoint/api/users/42/`)).json()).toBe('user');
    expect(await (await fetch(`${url}/endpoint/api/users/me`)).json()).toBe('user');
    expect(await (await fetch(`${url}/endpoint/api/users/42/repos`)).json()).toBe('wild');
    const created = await fetch(`${url}/endpoint/api/users`, { method: 'POST', body: '{"role":"admin","x":1}' });
    expect([created.status, await created.json()]).toEqual([201, { admin: true }]);
    const secret = await fetch(`${url}/endpoint/api/secret?page=2`, { headers: { 'x-api-key': 'k' } });
    expect([secret.status, await secret.text()]).toEqual([200, 'ok']);

    const entries = await journal(app);
    expect(entries[0]).toMatchObject({ subpath: '/users/42', params: { id: '42' }, answeredBy: { route: 'user' } });
    expect(entries[3]).toMatchObject({
      subpath: '/users/42/repos',
      params: { '*': '42/repos' },
      answeredBy: { route: 'first-any' },
    });
    expect(entries[4]).toMatchObject({
      subpath: '/users',
      params: {},
      answeredBy: { route: 'create' },
      statusCode: 201,
    });
  });

  it('answers the bare URL from the record when no route matches, and 404 NO_ROUTE_MATCHED with near misses below it', async () => {
    const { app, url } = await setup(
      adapter,
      [
        { id: 'issues', match: { method: 'GET', path: '/repos/:owner/:repo/issues' }, answer: {} },
        { id: 'pay', match: { method: 'POST', path: '/pay', body: { amount: 10 } }, answer: {} },
        { id: 'keyed', match: { path: '/keyed', headers: { 'x-api-key': 'k' } }, answer: {} },
        { id: 'far', match: { path: '/elsewhere/entirely' }, answer: {} },
      ],
      { from: 'record' },
    );
    expect(await (await fetch(`${url}/endpoint/api`)).json()).toEqual({ from: 'record' });
    expect(await (await fetch(`${url}/endpoint/api/`)).json()).toEqual({ from: 'record' });

    const near = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${url}/endpoint/api${path}`, init);
      expect(response.status).toBe(404);
      const body = (await response.json()) as {
        error: { code: string; details: { nearMisses: { id: string; reason: string }[] } };
      };
      expect(body.error.code).toBe('NO_ROUTE_MATCHED');
      return body.error.details.nearMisses;
    };
    const issue = await near('/repos/a/b/issue');
    expect(issue[0]).toEqual({
      id: 'issues',
      index: 0,
      reason: 'segment 4 is "issue", route wants "issues" (/repos/:owner/:repo/issues)',
    });
    expect(issue).toHaveLength(3);
    expect((await near('/repos/a/b/issues', { method: 'POST' }))[0]?.reason).toBe('method is POST, route wants GET');
    expect((await near('/pay', { method: 'POST', body: '{"amount":5}' }))[0]?.reason).toBe(
      'body.amount is 5, route wants 10',
    );
    expect((await near('/keyed'))[0]?.reason).toBe('header x-api-key missing');
    const entries = await journal(app);
    expect(entries.at(-1)).toMatchObject({ statusCode: 404, answeredBy: 'none', subpath: '/keyed' });
    expect(entries[0]).toMatchObject({ answeredBy: 'record', subpath: '/' });
  });

  it('sends headers (repeated ones too), text, bytes and status as given; HEAD without the body', async () => {
    const { url } = await setup(adapter, [
      {
        match: { path: '/text' },
        answer: { statusCode: 202, headers: { 'Set-Cookie': ['a=1', 'b=2'], Link: '<x>; rel="next"' }, body: 'héllo' },
      },
      { match: { path: '/bytes' }, answer: { bodyBase64: 'AAEC/w==', headers: { 'content-type': 'image/x-test' } } },
      { match: { path: '/empty' }, answer: { statusCode: 204, data: { ignored: true } } },
      { match: { path: '/json' }, answer: { data: [1, 2] } },
    ]);
    const text = await fetch(`${url}/endpoint/api/text`);
    expect(text.status).toBe(202);
    expect(text.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(text.headers.get('link')).toBe('<x>; rel="next"');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('content-length')).toBe('6');
    expect(await text.text()).toBe('héllo');
    const bytes = await fetch(`${url}/endpoint/api/bytes`);
    expect(bytes.headers.get('content-type')).toBe('image/x-test');
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    const empty = await fetch(`${url}/endpoint/api/empty`);
    expect([empty.status, await empty.text()]).toEqual([204, '']);
    const json = await fetch(`${url}/endpoint/api/json`);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('access-control-allow-origin')).toBe('*');
    const head = await fetch(`${url}/endpoint/api/json`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '5', '']);
  });

  it('renders templates: params, query, headers, body paths, uuid, now, seq; one placeholder keeps the JSON value', async () => {
    const { url } = await setup(adapter, [
      {
        id: 't',
        match: { path: '/orders/:id' },
        answer: {
          template: true,
          headers: { 'x-echo': '{{headers.x-request-id}}', 'x-seq': 'n{{seq}}' },
          data: {
            id: '{{params.id}}',
            amount: '{{body.order.amount}}',
            items: '{{body.order.items}}',
            line: 'page {{query.page}} of {{query.missing}}!',
            uuid: '{{uuid}}',
            now: '{{now}}',
            seq: '{{seq}}',
            proto: '{{body.__proto__}}',
            ctor: '{{body.constructor}}',
          },
        },
      },
      { match: { path: '/text' }, answer: { template: true, body: 'hi {{query.name}}\n' } },
    ]);
    const call = () =>
      fetch(`${url}/endpoint/api/orders/o-7?page=2`, {
        method: 'POST',
        headers: { 'x-request-id': 'req-1' },
        body: JSON.stringify({ order: { amount: 10, items: [1, { a: true }] } }),
      });
    const first = await call();
    expect(first.headers.get('x-echo')).toBe('req-1');
    expect(first.headers.get('x-seq')).toBe('n1');
    const body = (await first.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: 'o-7',
      amount: 10,
      items: [1, { a: true }],
      line: 'page 2 of !',
      seq: 1,
      proto: '',
      ctor: '',
    });
    expect(body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(body.now as string)).not.toBeNaN();
    expect(((await (await call()).json()) as { seq: number }).seq).toBe(2);
    expect(await (await fetch(`${url}/endpoint/api/text?name=%0D%0Aevil`)).text()).toBe('hi \r\nevil\n');
  });

  it("gives a regular-expression path's named groups as params, percent-decoded; other groups are not params", async () => {
    const { app, url } = await setup(adapter, [
      {
        id: 'post',
        match: { path: { matches: '(?i)/users/(?<id>[^/]+?)/(posts|notes)(?:/(?<page>[0-9]+))?/?' } },
        answer: { template: true, data: { id: '{{params.id}}', page: '{{params.page}}' } },
      },
    ]);
    expect(await (await fetch(`${url}/endpoint/api/USERS/a%20b/Posts/2/`)).json()).toEqual({ id: 'a b', page: '2' });
    expect(await (await fetch(`${url}/endpoint/api/users/x/notes`)).json()).toEqual({ id: 'x', page: '' });
    // A queued answer's regex path gives its groups too.
    const answers = [{ match: { path: { matches: '/q/(?<n>[0-9]+)' } }, statusCode: 202, data: 'queued' }];
    await app.request('/api/endpoints/api/queue', { method: 'POST', body: JSON.stringify({ answers }) });
    expect((await fetch(`${url}/endpoint/api/q/42`)).status).toBe(202);
    const entries = await journal(app);
    expect(entries.map((entry) => entry.params)).toEqual([{ id: 'a b', page: '2' }, { id: 'x' }, { n: '42' }]);
  });

  it('puts a queued answer before the routes, and the routes before the record', async () => {
    const { app, url } = await setup(
      adapter,
      [{ id: 'bare', match: { path: '/' }, answer: { body: 'route' } }],
      'record',
    );
    const queue = (answers: unknown[]) =>
      app.request('/api/endpoints/api/queue', { method: 'POST', body: JSON.stringify({ answers }) });
    await queue([{ statusCode: 503, data: 'busy' }, { statusCode: 502 }]);
    const queued = await fetch(`${url}/endpoint/api/anything`);
    expect([queued.status, await queued.json()]).toEqual([503, 'busy']);
    // Absent fields fall back to what would answer without the queue: here the route.
    const partial = await fetch(`${url}/endpoint/api`);
    expect([partial.status, await partial.text()]).toEqual([502, 'route']);
    expect(await (await fetch(`${url}/endpoint/api`)).text()).toBe('route');
    await app.request('/api/endpoints/api/routes', { method: 'DELETE' });
    expect(await (await fetch(`${url}/endpoint/api`)).json()).toBe('record');
    const entries = await journal(app);
    expect(entries.map((entry) => entry.answeredBy)).toEqual([
      { queue: true },
      { queue: true },
      { route: 'bare' },
      'record',
    ]);
  });
});

describe('routes and the caches', () => {
  it('serves a change at once (the compiled table is dropped on every change)', async () => {
    const app = createApp();
    const put = (body: string) =>
      app.request('/api/endpoints/c/routes', {
        method: 'PUT',
        body: JSON.stringify({ routes: [{ match: { path: '/x' }, answer: { body } }] }),
      });
    await put('one');
    expect(await (await app.request('/endpoint/c/x')).text()).toBe('one');
    await put('two');
    expect(await (await app.request('/endpoint/c/x')).text()).toBe('two');
    await app.request('/api/endpoints/c/routes', { method: 'DELETE' });
    expect((await app.request('/endpoint/c/x')).status).toBe(404);
  });

  it('a name with neither routes nor record is NOT_FOUND at the bare URL, NO_ROUTE_MATCHED below it', async () => {
    const app = createApp();
    expect(((await (await app.request('/endpoint/none')).json()) as { error: { code: string } }).error.code).toBe(
      'NOT_FOUND',
    );
    const below = (await (await app.request('/endpoint/none/a/b')).json()) as { error: { code: string } };
    expect(below.error.code).toBe('NO_ROUTE_MATCHED');
  });
});
