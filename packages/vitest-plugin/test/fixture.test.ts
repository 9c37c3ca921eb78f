import { test as baseTest, describe, expect } from 'vitest';
import { type MockServer, MockServerError, mockServerFixture, test, useMockServer } from '../src/index.js';

const seen: string[] = [];

describe('the `test` fixture', () => {
  test('starts an instance for the file', async ({ mock }) => {
    seen.push(mock.url);
    await mock.add({ name: 'kept', data: 1 });
    expect((await fetch(mock.endpointUrl('kept'))).status).toBe(200);
  });

  test('shares it between the tests of the file', async ({ mock }) => {
    expect(mock.url).toBe(seen[0]);
    expect(await mock.get('kept')).toMatchObject({ data: 1 });
  });

  test('has the route methods and api() handles', async ({ mock }) => {
    const api = await mock.api('fixture-api', [{ match: { path: '/ping' }, answer: { body: 'pong' } }]);
    expect(await (await fetch(api.urlFor('/ping'))).text()).toBe('pong');
    expect(await mock.routes('fixture-api')).toHaveLength(1);
    expect(mock.endpointUrl('fixture-api', '/ping')).toBe(api.urlFor('/ping'));
  });
});

describe('useMockServer()', () => {
  const mock = useMockServer({ resetAfterEach: true });
  // A helper that starts a server the async way; its promise settles during collection.
  const returnedFromAsync = (async () => useMockServer())().then(
    (server) => ({ server }),
    (error: unknown) => ({ error }),
  );
  let collectionError: unknown;
  try {
    void mock.url;
  } catch (error) {
    collectionError = error;
  }

  test('throws NOT_STARTED when used before beforeAll', () => {
    expect(collectionError).toBeInstanceOf(MockServerError);
    expect((collectionError as MockServerError).code).toBe('NOT_STARTED');
  });

  test('is a separate instance from the fixture, started in beforeAll', async () => {
    expect(mock.url).not.toBe(seen[0]);
    const hook = await mock.add({ name: 'kept', data: 2 });
    expect(await (await fetch(hook.url)).json()).toBe(2);
  });

  test('resetAfterEach removed the previous test’s endpoints', async () => {
    expect((await mock.list()).endpoints).toEqual([]);
  });

  test('behaves like the started server for `in`, spreading and Object.keys', async () => {
    expect('url' in mock).toBe(true);
    expect('add' in mock).toBe(true);
    expect('nonsense' in mock).toBe(false);
    expect(Object.keys(mock)).toEqual(expect.arrayContaining(['url', 'port', 'add', 'close', 'reset']));

    const copy = { ...mock };
    expect(copy.url).toBe(mock.url);
    expect(copy.port).toBe(mock.port);
    // Methods come along and still work on the server.
    const hook = await copy.add({ name: 'spread', data: 'ok' });
    expect(await (await fetch(hook.url)).json()).toBe('ok');
    expect(Object.getOwnPropertyDescriptor(mock, 'url')).toMatchObject({ value: mock.url, enumerable: true });
    expect(Object.getOwnPropertyDescriptor(mock, 'nonsense')).toBeUndefined();
  });

  test('is not a thenable: an async function can return it before the server starts', async () => {
    expect('then' in mock).toBe(false);
    expect(Reflect.get(mock, 'then')).toBeUndefined();
    expect(await mock).toBe(mock);
    // Resolved at collection time, before beforeAll: resolving reads `then`, which must not throw NOT_STARTED.
    const outcome = await returnedFromAsync;
    expect(outcome).not.toHaveProperty('error');
    const { server } = outcome as { server: MockServer };
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toBe(mock.url);
  });
});

// File-scoped fixtures must be defined at the top level of a file.
const levelTest = baseTest.extend('mock', { scope: 'file' }, mockServerFixture({ store: 'level' }));

describe('mockServerFixture()', () => {
  levelTest('builds a fixture with the given options', async ({ mock }) => {
    expect(await mock.health()).toMatchObject({ store: 'level' });
    expect(mock.dir).toBeDefined();
  });
});
