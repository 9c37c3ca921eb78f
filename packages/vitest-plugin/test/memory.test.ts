// A fake with memory through the fixture's handles: api.state/setState/reset and
// api.collection() over a real createMockServer() socket, and useMockServer's resetBetweenTests
// (collections back to their seed, state to its start, journal forgotten,
// routes kept) between the tests of one file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, JsonText, MockpointError, type MockServer, useMockServer } from '../src/index.js';

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

interface User {
  id: number;
  name: string;
  role?: string;
  big?: number;
}

describe('api handle: collection()', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer();
  });
  afterAll(() => mock.close());

  it('replace (the seed too), insert, get, update (a merge, exact), remove, list; reset returns to the seed', async () => {
    const api = await mock.api('users-api', [{ match: { path: '/users' }, answer: { resource: 'users' } }]);
    const users = api.collection<User>('users');
    expect(await users.list()).toEqual([]);
    const seed = [new JsonText('{"id":1,"name":"Ada","big":12345678901234567890}')];
    expect(await users.replace(seed)).toEqual([{ id: 1, name: 'Ada', big: expect.any(Number) }]);
    const grace = await users.insert({ name: 'Grace' });
    expect(grace).toEqual({ name: 'Grace', id: 2 });
    // The code under test sees the item at the resource route, and its writes are seen by the handle.
    expect(await (await fetch(api.urlFor('/users/2'))).json()).toEqual(grace);
    await fetch(api.urlFor('/users'), { method: 'POST', body: '{"name":"Edsger"}' });
    expect(await users.get(3)).toEqual({ name: 'Edsger', id: 3 });
    expect(await users.update(1, { role: 'admin' })).toMatchObject({ id: 1, role: 'admin' });
    // A merge of one field leaves every other field's text as it was.
    expect(await mock.itemText('users-api', 'users', 1)).toBe(
      '{"id":1,"name":"Ada","big":12345678901234567890,"role":"admin"}',
    );
    await users.update(1, { role: null });
    await users.remove(2);
    expect((await users.list()).map((user) => user.id)).toEqual([1, 3]);
    const missing = await users.get(2).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(MockpointError);
    expect((missing as MockpointError).code).toBe('ITEM_NOT_FOUND');
    // Item writes left the seed alone.
    await api.reset();
    expect(await mock.collectionText('users-api', 'users')).toBe('[{"id":1,"name":"Ada","big":12345678901234567890}]');
  });

  it('concurrent inserts through the handle get distinct ids, none lost', async () => {
    const todos = (await mock.api('todos-api')).collection<{ id: number; n: number }>('todos');
    const made = await Promise.all(Array.from({ length: 25 }, (_, n) => todos.insert({ n })));
    expect(new Set(made.map((todo) => todo.id)).size).toBe(25);
    expect((await todos.list()).map((todo) => todo.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });

  it('idField names the id field', async () => {
    const files = (await mock.api('files-api')).collection<{ path: string; size: number }>('files', {
      idField: 'path',
    });
    await files.replace([{ path: 'a/b.txt', size: 1 }]);
    expect(await files.update('a/b.txt', { size: 2 })).toEqual({ path: 'a/b.txt', size: 2 });
    expect(await files.get('a/b.txt')).toEqual({ path: 'a/b.txt', size: 2 });
    const taken = await files.insert({ path: 'a/b.txt' }).catch((error: MockpointError) => error.code);
    expect(taken).toBe('ID_TAKEN');
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
