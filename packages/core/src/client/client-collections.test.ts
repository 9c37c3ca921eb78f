// The client's collection methods, against an app (no socket).
import { describe, expect, it } from 'vitest';
import { createApp, createClient, JsonText, MockpointError } from '../index.js';

function setup() {
  const app = createApp();
  return { app, client: createClient({ baseUrl: 'http://mockpoint.test', app }) };
}

describe('client collection methods', () => {
  it('setCollections, collections, collection, collectionText (exact), setCollection, removeCollection', async () => {
    const { client } = setup();
    expect(await client.collections('api')).toEqual({});
    const saved = await client.setCollections('api', {
      users: [new JsonText('{"id":1,"big":12345678901234567890}'), { id: 2, name: 'Grace' }],
    });
    expect(Object.keys(saved)).toEqual(['users']);
    expect(await client.collectionText('api', 'users')).toBe(
      '[{"id":1,"big":12345678901234567890},{"id":2,"name":"Grace"}]',
    );
    expect(await client.setCollection('api', 'posts', [{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(await client.collection('api', 'posts')).toEqual([{ id: 1 }]);
    await client.removeCollection('api', 'posts');
    const missing = await client.collection('api', 'posts').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(MockpointError);
    expect((missing as MockpointError).code).toBe('COLLECTION_NOT_FOUND');
  });

  it('resetEndpoint returns to the seed after resource writes, and forgets the journal only when asked', async () => {
    const { app, client } = setup();
    await client.setCollections('api', { todos: [{ id: 1, done: false }] });
    await client.setRoutes('api', [{ match: { path: '/todos' }, answer: { resource: 'todos' } }]);
    const created = await app.fetch(
      new Request(client.endpointUrl('api', '/todos'), { method: 'POST', body: '{"title":"x"}' }),
    );
    expect(await created.json()).toEqual({ title: 'x', id: 2 });
    expect(await client.collection('api', 'todos')).toHaveLength(2);
    await client.resetEndpoint('api');
    expect(await client.collection('api', 'todos')).toEqual([{ id: 1, done: false }]);
    expect(await client.requests('api')).toHaveLength(1);
    await client.resetEndpoint('api', { journal: true });
    expect(await client.requests('api')).toHaveLength(0);
  });

  it('item methods: insertItem, item, itemText, updateItem (merge, exact), replaceItem, removeItem; the seed stays', async () => {
    const { client } = setup();
    await client.setCollections('api', { users: [new JsonText('{"id":1,"big":12345678901234567890,"name":"Ada"}')] });
    const made = await client.insertItem<{ id: number; name: string }>('api', 'users', { name: 'Grace' });
    expect(made).toEqual({ name: 'Grace', id: 2 });
    expect(await client.insertItem('api', 'users', new JsonText('{"id":3,"n":1.50}'))).toEqual({ id: 3, n: 1.5 });
    expect(await client.itemText('api', 'users', 3)).toBe('{"id":3,"n":1.50}');
    const patched = await client.updateItem<{ id: number; name: string; big: number }>('api', 'users', 1, {
      name: 'Ada L.',
    });
    expect(patched.name).toBe('Ada L.');
    expect(await client.itemText('api', 'users', '1')).toBe('{"id":1,"big":12345678901234567890,"name":"Ada L."}');
    expect(await client.replaceItem('api', 'users', 2, { name: 'Grace H.' })).toEqual({ name: 'Grace H.', id: 2 });
    expect(await client.item('api', 'users', 2)).toEqual({ name: 'Grace H.', id: 2 });
    await client.removeItem('api', 'users', 3);
    const codes = await Promise.all([
      client.item('api', 'users', 3).catch((error: MockpointError) => error.code),
      client.insertItem('api', 'users', { id: 1 }).catch((error: MockpointError) => error.code),
      client.updateItem('api', 'users', 9, {}).catch((error: MockpointError) => error.code),
    ]);
    expect(codes).toEqual(['ITEM_NOT_FOUND', 'ID_TAKEN', 'ITEM_NOT_FOUND']);
    expect(await client.collectionText('api', 'users')).toBe(
      '[{"id":1,"big":12345678901234567890,"name":"Ada L."},{"name":"Grace H.","id":2}]',
    );
    await client.resetEndpoint('api');
    expect(await client.collectionText('api', 'users')).toBe('[{"id":1,"big":12345678901234567890,"name":"Ada"}]');
  });

  it('item methods take idField, and ids that need escaping in a URL', async () => {
    const { client } = setup();
    await client.setCollection('api', 'files', [{ path: 'a/b c?.txt', size: 1 }]);
    const options = { idField: 'path' };
    expect(await client.item('api', 'files', 'a/b c?.txt', options)).toEqual({ path: 'a/b c?.txt', size: 1 });
    await client.updateItem('api', 'files', 'a/b c?.txt', { size: 2 }, options);
    expect(await client.insertItem('api', 'files', { path: 'x', size: 3 }, options)).toEqual({ path: 'x', size: 3 });
    await client.removeItem('api', 'files', 'x', options);
    expect(await client.collection('api', 'files')).toEqual([{ path: 'a/b c?.txt', size: 2 }]);
    const refused = await client
      .item('api', 'files', 'x', { idField: '' })
      .catch((error: MockpointError) => error.code);
    expect(refused).toBe('INVALID_QUERY');
  });

  it('a bad collection is refused with its code', async () => {
    const { client } = setup();
    const error = await client.setCollections('api', { users: [1] }).catch((e: unknown) => e);
    expect((error as MockpointError).code).toBe('INVALID_COLLECTION');
  });

  it('state and setState: the scenarios as routes see them, set as the start a reset returns to', async () => {
    const { app, client } = setup();
    await client.setRoutes('api', [
      { match: { state: 'started' }, answer: { statusCode: 503, setState: 'recovered' } },
      { answer: { statusCode: 200 } },
    ]);
    expect(await client.state('api')).toEqual({ default: 'started' });
    const call = async () => (await app.fetch(new Request(client.endpointUrl('api', '/x')))).status;
    expect([await call(), await call()]).toEqual([503, 200]);
    expect(await client.state('api')).toEqual({ default: 'recovered' });
    await client.resetEndpoint('api');
    expect(await client.state('api')).toEqual({ default: 'started' });
    expect(await client.setState('api', 'recovered')).toEqual({ default: 'recovered' });
    await client.resetEndpoint('api');
    expect(await call()).toBe(200);
    const refused = await client.setState('api', { login: 'not ok' }).catch((error: unknown) => error);
    expect((refused as MockpointError).code).toBe('INVALID_STATE');
  });
});
