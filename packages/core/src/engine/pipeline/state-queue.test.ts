import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const send = async (mock: MockpointApp, path: string, init: RequestInit = {}) =>
  mock.request(`/endpoint/api${path}`, init);
const stateOf = async (mock: MockpointApp) => (await mock.request('/api/endpoints/api/state')).json();

async function queue(mock: MockpointApp, answers: unknown[]): Promise<void> {
  const pushed = await mock.request('/api/endpoints/api/queue', { method: 'POST', body: JSON.stringify({ answers }) });
  expect(pushed.status, await pushed.clone().text()).toBe(201);
}

async function queued(mock: MockpointApp): Promise<{ answers: Array<{ times: number }> }> {
  return (await mock.request('/api/endpoints/api/queue')).json() as Promise<{ answers: Array<{ times: number }> }>;
}

async function routes(mock: MockpointApp, list: unknown[]): Promise<void> {
  const put = await mock.request('/api/endpoints/api/routes', {
    method: 'PUT',
    body: JSON.stringify({ routes: list }),
  });
  expect(put.status, await put.clone().text()).toBe(200);
}

async function journal(
  mock: MockpointApp,
): Promise<Array<{ state?: unknown; answeredBy?: unknown; statusCode: number }>> {
  const read = await mock.request('/api/endpoints/api/requests');
  return ((await read.json()) as { requests: Array<{ state?: unknown; answeredBy?: unknown; statusCode: number }> })
    .requests;
}

describe('state machines on queued answers', () => {
  it('a queued answer moves the state; the routes then answer on the moved state', async () => {
    const mock = createApp();
    await routes(mock, [
      { match: { state: 'failed' }, answer: { statusCode: 200, data: { ok: 'after failure' } } },
      { answer: { statusCode: 200, data: { ok: 'first try' } } },
    ]);
    await queue(mock, [{ statusCode: 503, setState: 'failed' }]);
    const first = await send(mock, '/pay', { method: 'POST' });
    expect(first.status).toBe(503);
    expect(await stateOf(mock)).toEqual({ default: 'failed' });
    const second = await send(mock, '/pay', { method: 'POST' });
    expect(await second.text()).toBe('{"ok":"after failure"}');
    const entries = await journal(mock);
    const byQueue = entries.find((entry) => entry.statusCode === 503);
    expect(byQueue?.state).toEqual({ before: { default: 'started' }, after: { default: 'failed' } });
  });

  it('a queued answer with match.state waits for the state; templates read the state after its move', async () => {
    const mock = createApp();
    await queue(mock, [
      {
        match: { state: { order: 'paid' } },
        template: true,
        data: { order: '{{state.order}}' },
        setState: { order: 'shipped' },
      },
    ]);
    // Not at paid yet: the queued answer stays, the record (none) answers.
    expect((await send(mock, '/orders/1')).status).toBe(404);
    expect((await queued(mock)).answers).toHaveLength(1);
    await mock.request('/api/endpoints/api/state', { method: 'PUT', body: '{"order":"paid"}' });
    const answered = await send(mock, '/orders/1');
    expect(await answered.text()).toBe('{"order":"shipped"}');
    expect(await stateOf(mock)).toEqual({ order: 'shipped' });
    expect((await queued(mock)).answers).toHaveLength(0);
  });

  it('of 20 concurrent requests, exactly one takes each use that matches started and moves it', async () => {
    const mock = createApp();
    await routes(mock, [{ answer: { statusCode: 409 } }]);
    // Three uses, each only while the state is started; the first taker moves it away.
    await queue(mock, [{ match: { state: 'started' }, statusCode: 201, setState: 'taken', times: 3 }]);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => send(mock, '/claim').then((r) => r.status)));
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    // The two uses left stay queued, for when the state is started again.
    const left = await queued(mock);
    expect(left.answers.reduce((sum, answer) => sum + answer.times, 0)).toBe(2);
    await mock.request('/api/endpoints/api/reset', { method: 'POST' });
    expect((await send(mock, '/claim')).status).toBe(201);
  });

  it('a route that only renders {{state.x}} reads the state as it is (set by PUT or a queued move)', async () => {
    const mock = createApp();
    await routes(mock, [{ answer: { template: true, body: 'at {{ state.default }}' } }]);
    expect(await (await send(mock, '/')).text()).toBe('at started');
    await mock.request('/api/endpoints/api/state', { method: 'PUT', body: '{"default":"put"}' });
    expect(await (await send(mock, '/')).text()).toBe('at put');
    await queue(mock, [{ match: { method: 'POST' }, setState: 'moved' }]);
    // A GET passes the queued answer by: the route renders the state as it is.
    expect(await (await send(mock, '/')).text()).toBe('at put');
    expect(await (await send(mock, '/', { method: 'POST' })).text()).toBe('at moved');
  });

  it('lists setState with the queued answer and takes a queued answer in order with routes that use state', async () => {
    const mock = createApp();
    await routes(mock, [{ match: { state: 'started' }, answer: { statusCode: 202, setState: 'routed' } }]);
    await queue(mock, [{ statusCode: 418, setState: { default: 'queued' } }]);
    const listed = await (await mock.request('/api/endpoints/api/queue')).text();
    expect(listed).toBe('{"answers":[{"statusCode":418,"setState":{"default":"queued"},"times":1}]}');
    expect((await send(mock, '/')).status).toBe(418);
    expect(await stateOf(mock)).toEqual({ default: 'queued' });
    // The route wants started: the record (none) answers now.
    expect((await send(mock, '/')).status).toBe(404);
  });
});
