import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

async function withRoutes(routes: unknown[]): Promise<MockpointApp> {
  const mock = createApp();
  const put = await mock.request('/api/endpoints/api/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.clone().text()).toBe(200);
  return mock;
}

const send = async (mock: MockpointApp, path: string, init: RequestInit = {}) =>
  mock.request(`/endpoint/api${path}`, init);
const stateOf = async (mock: MockpointApp) => (await mock.request('/api/endpoints/api/state')).json();

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

const FLAKY = [
  { id: 'first', match: { path: '/pay', state: 'started' }, answer: { statusCode: 503, setState: 'failed-once' } },
  {
    id: 'second',
    match: { path: '/pay', state: 'failed-once' },
    answer: { statusCode: 503, setState: 'failed-twice' },
  },
  { id: 'then', match: { path: '/pay' }, answer: { statusCode: 200, data: { ok: true } } },
];

describe('state machines on routes', () => {
  it('fail twice, then succeed: each answer moves the state the next request matches on', async () => {
    const mock = await withRoutes(FLAKY);
    expect(await stateOf(mock)).toEqual({ default: 'started' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(mock, '/pay', { method: 'POST' })).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect(await stateOf(mock)).toEqual({ default: 'failed-twice' });
    expect((await mock.request('/api/endpoints/api/reset', { method: 'POST' })).status).toBe(204);
    expect(await stateOf(mock)).toEqual({ default: 'started' });
    expect((await send(mock, '/pay', { method: 'POST' })).status).toBe(503);
  });

  it('of 20 concurrent requests that match started and move it, exactly one is answered by that route', async () => {
    const mock = await withRoutes([
      { id: 'win', match: { state: 'started' }, answer: { statusCode: 201, setState: 'taken' } },
      { id: 'late', answer: { statusCode: 409 } },
    ]);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => send(mock, '/claim').then((r) => r.status)));
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
  });

  it('named scenarios move apart; templates read {{state.x}} after the move', async () => {
    const mock = await withRoutes([
      {
        match: { path: '/orders/1/pay', method: 'POST' },
        answer: { setState: { order: 'paid' }, template: true, data: { status: '{{state.order}}' } },
      },
      {
        match: { path: '/orders/1', state: { order: 'paid', login: 'started' } },
        answer: { data: { status: 'paid' } },
      },
      { match: { path: '/orders/1' }, answer: { template: true, data: { status: '{{state.order}}' } } },
    ]);
    expect(await (await send(mock, '/orders/1')).json()).toEqual({ status: 'started' });
    expect(await (await send(mock, '/orders/1/pay', { method: 'POST' })).json()).toEqual({ status: 'paid' });
    expect(await (await send(mock, '/orders/1')).json()).toEqual({ status: 'paid' });
    // The last route looks at no state, and its template still reads the state as it is.
    await mock.request('/api/endpoints/api/state', { method: 'PUT', body: '{"order":"shipped","login":"in"}' });
    expect(await (await send(mock, '/orders/1')).json()).toEqual({ status: 'shipped' });
    expect(await stateOf(mock)).toEqual({ login: 'in', order: 'shipped' });
  });

  it('journal entries carry the state before and after; a journal filter reads the state before', async () => {
    const mock = await withRoutes(FLAKY);
    for (let i = 0; i < 3; i++) await send(mock, '/pay', { method: 'POST' });
    const page = (await (await mock.request('/api/endpoints/api/requests')).json()) as {
      requests: { state?: unknown }[];
    };
    expect(page.requests.map((entry) => entry.state)).toEqual([
      { before: { default: 'started' }, after: { default: 'failed-once' } },
      { before: { default: 'failed-once' }, after: { default: 'failed-twice' } },
      // The third answer's route looks at no state: its entry still says the state, unmoved (#49 item 7).
      { before: { default: 'failed-twice' }, after: { default: 'failed-twice' } },
    ]);
    const match = encodeURIComponent(JSON.stringify({ state: 'failed-once' }));
    const filtered = (await (await mock.request(`/api/endpoints/api/requests?match=${match}`)).json()) as {
      requests: { id: number }[];
    };
    expect(filtered.requests).toHaveLength(1);
  });

  it('PUT state sets the scenarios and the start a reset returns to; bad states are INVALID_STATE', async () => {
    const mock = await withRoutes(FLAKY);
    const put = await mock.request('/api/endpoints/api/state', { method: 'PUT', body: '{"default":"failed-once"}' });
    expect(put.status).toBe(200);
    expect((await send(mock, '/pay', { method: 'POST' })).status).toBe(503);
    expect(await stateOf(mock)).toEqual({ default: 'failed-twice' });
    await mock.request('/api/endpoints/api/reset', { method: 'POST' });
    expect(await stateOf(mock)).toEqual({ default: 'failed-once' });
    for (const body of ['{"default":"a b"}', '{"default":1}', '["x"]', `{${'"a":"b",'.repeat(0)}"é":"x"}`]) {
      const refused = await mock.request('/api/endpoints/api/state', { method: 'PUT', body });
      expect([400]).toContain(refused.status);
    }
    const bad = await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ match: { state: 'has space' }, answer: {} }] }),
    });
    expect(await errorOf(bad)).toMatchObject({ status: 400, code: 'INVALID_STATE' });
    const queued = await mock.request('/api/endpoints/api/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ match: { state: 'has space' }, statusCode: 500 }] }),
    });
    expect(await errorOf(queued)).toMatchObject({ status: 400, code: 'INVALID_STATE' });
    const queuedMove = await mock.request('/api/endpoints/api/queue', {
      method: 'POST',
      body: '{"answers":[{"statusCode":500,"setState":{"__proto__":"x"}}]}',
    });
    expect(await errorOf(queuedMove)).toMatchObject({ status: 400, code: 'INVALID_STATE' });
    const badMove = await mock.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { setState: { ok: 'x'.repeat(65) } } }] }),
    });
    expect(await errorOf(badMove)).toMatchObject({ status: 400, code: 'INVALID_STATE' });
  });

  it('PUT state refuses a scenario named __proto__ (INVALID_STATE), as routes do, instead of dropping it', async () => {
    const mock = await withRoutes(FLAKY);
    for (const body of ['{"__proto__":"paid"}', '{"default":"failed-once","__proto__":"paid"}']) {
      const refused = await mock.request('/api/endpoints/api/state', { method: 'PUT', body });
      expect(await errorOf(refused)).toMatchObject({ status: 400, code: 'INVALID_STATE' });
    }
    // Nothing was put: the scenarios are where they were.
    expect(await stateOf(mock)).toEqual({ default: 'started' });
  });

  it('a resource route may move the state too; deleting the endpoint forgets its state', async () => {
    const mock = await withRoutes([
      { match: { path: '/users', method: 'POST' }, answer: { resource: 'users', setState: 'has-users' } },
      { match: { path: '/users', state: 'started' }, answer: { data: [] } },
      { match: { path: '/users' }, answer: { resource: 'users' } },
    ]);
    await mock.request('/api/endpoints/api/collections', { method: 'PUT', body: '{"users":[]}' });
    expect(await (await send(mock, '/users')).text()).toBe('[]');
    const made = await send(mock, '/users', { method: 'POST', body: '{"name":"Ada"}' });
    expect(made.status).toBe(201);
    expect(await (await send(mock, '/users')).text()).toBe('[{"name":"Ada","id":1}]');
    await mock.request('/api/endpoints/api', { method: 'DELETE' });
    expect(await stateOf(mock)).toEqual({});
  });

  it('every step that selects a route sees the state: validation checks the route the state selects', async () => {
    const mock = await withRoutes([
      { match: { path: '/orders', state: 'locked' }, answer: { statusCode: 423 } },
      {
        match: { path: '/orders' },
        validate: { mode: 'enforce', body: { type: 'object', required: ['sku'] }, bodyRequired: true },
        answer: { statusCode: 201 },
      },
    ]);
    expect((await send(mock, '/orders', { method: 'POST', body: '{}' })).status).toBe(400);
    await mock.request('/api/endpoints/api/state', { method: 'PUT', body: '{"default":"locked"}' });
    expect((await send(mock, '/orders', { method: 'POST', body: '{}' })).status).toBe(423);
  });
});
