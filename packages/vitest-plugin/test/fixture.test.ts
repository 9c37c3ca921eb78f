import { test as baseTest, describe, expect } from 'vitest';
import { MockServerError, mockServerFixture, test, useMockServer } from '../src/index.js';

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
});

describe('useMockServer()', () => {
  const mock = useMockServer({ resetAfterEach: true });
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
});

// File-scoped fixtures must be defined at the top level of a file.
const levelTest = baseTest.extend('mock', { scope: 'file' }, mockServerFixture({ store: 'level' }));

describe('mockServerFixture()', () => {
  levelTest('builds a fixture with the given options', async ({ mock }) => {
    expect(await mock.health()).toMatchObject({ store: 'level' });
    expect(mock.dir).toBeDefined();
  });
});
