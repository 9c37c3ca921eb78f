// A fake with memory through the fixture's handles: api.state/setState/reset
// over a real createMockServer() socket, and useMockServer's resetBetweenTests
// (collections back to their seed, state to its start, journal forgotten,
// routes kept) between the tests of one file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer, useMockServer } from '../src/index.js';

describe('api handle: state', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer();
  });
  afterAll(() => mock.close());

  it('fail once, then succeed: state, setState and reset through the handle', async () => {
    const pay = await mock.api('pay', [
      { match: { path: '/charge', state: 'started' }, answer: { statusCode: 503, setState: 'recovered' } },
      { match: { path: '/charge' }, answer: { statusCode: 200, data: { ok: true } } },
    ]);
    const charge = async () => (await fetch(pay.urlFor('/charge'), { method: 'POST' })).status;
    expect(await pay.state()).toEqual({ default: 'started' });
    expect([await charge(), await charge()]).toEqual([503, 200]);
    expect(await pay.state()).toEqual({ default: 'recovered' });
    await pay.reset({ journal: true });
    expect(await pay.state()).toEqual({ default: 'started' });
    expect(await pay.requests()).toEqual([]);
    expect(await pay.setState('recovered')).toEqual({ default: 'recovered' });
    expect(await charge()).toBe(200);
  });
});

describe('useMockServer({ resetBetweenTests: true })', () => {
  const mock = useMockServer({ resetBetweenTests: true });
  const order: string[] = [];

  it('a test writes to a collection and moves the state', async () => {
    await mock.setCollections('todos', { items: [{ id: 1, title: 'seed' }] });
    const todos = await mock.api('todos', [
      { match: { path: '/items', method: 'POST' }, answer: { resource: 'items', setState: 'dirty' } },
      { match: { path: '/items' }, answer: { resource: 'items' } },
    ]);
    const made = await fetch(todos.urlFor('/items'), { method: 'POST', body: '{"title":"new"}' });
    expect(made.status).toBe(201);
    expect(await mock.collection('todos', 'items')).toHaveLength(2);
    expect(await todos.state()).toEqual({ default: 'dirty' });
    order.push('first');
  });

  it('the next test finds the seed, the start and no requests; the routes are still there', async () => {
    expect(order).toEqual(['first']);
    const todos = await mock.api('todos');
    expect(await mock.collection('todos', 'items')).toEqual([{ id: 1, title: 'seed' }]);
    expect(await todos.state()).toEqual({ default: 'started' });
    expect(await todos.requests()).toEqual([]);
    expect(await todos.routes()).toHaveLength(2);
  });
});
