/**
 * Per-suite instances: a file-scoped `mock` fixture and `useMockServer()`.
 * Each test file gets its own server on its own port, so files running in
 * parallel never see each other's endpoints.
 *
 * @module
 */
import { afterAll, afterEach, test as baseTest, beforeAll } from 'vitest';
import { type CreateMockServerOptions, createMockServer, type MockServer } from './create-mock-server.js';
import { MockServerError } from './errors.js';

/**
 * A fixture function that starts a server and closes it on cleanup, for your own
 * `test.extend`. Give it `{ scope: 'file' }` for one instance per test file.
 * @example
 * export const test = baseTest.extend('mock', { scope: 'file' }, mockServerFixture({ store: 'level' }))
 */
export function mockServerFixture(options: CreateMockServerOptions = {}) {
  // Vitest reads the first parameter's destructuring pattern to find dependencies: there are none.
  // biome-ignore lint/correctness/noEmptyPattern: required shape of a fixture function
  return async ({}, { onCleanup }: { onCleanup: (cleanup: () => Promise<void>) => void }): Promise<MockServer> => {
    const server = await createMockServer(options);
    onCleanup(() => server.close());
    return server;
  };
}

/**
 * Vitest's `test` with a file-scoped `mock` fixture: one in-memory server per test
 * file, started by the first test that asks for it and closed after the file.
 * @example
 * import { test, expect } from '@mockpoint/vitest'
 * test('posts', async ({ mock }) => {
 *   const hook = await mock.add({ name: 'hook', data: { ok: true } })
 * })
 */
export const test = baseTest.extend('mock', { scope: 'file' }, mockServerFixture());

/** Alias of {@link test}. */
export const it = test;

/** Options for {@link useMockServer}. */
export interface UseMockServerOptions extends CreateMockServerOptions {
  /** Remove every endpoint and recorded request after each test. @default false */
  resetAfterEach?: boolean;
}

/**
 * Starts a server in `beforeAll` and closes it in `afterAll` of the current file
 * (or `describe` block). The returned handle forwards to that server; using it
 * before `beforeAll` has run (e.g. at collection time) throws `NOT_STARTED`.
 * @example
 * const mock = useMockServer()
 * it('reads', async () => { const users = await mock.add({ name: 'users', data: [] }) })
 */
export function useMockServer(options: UseMockServerOptions = {}): MockServer {
  const { resetAfterEach, ...serverOptions } = options;
  let current: MockServer | undefined;
  beforeAll(async () => {
    current = await createMockServer(serverOptions);
  });
  afterAll(async () => {
    await current?.close();
  });
  if (resetAfterEach) {
    afterEach(async () => {
      await current?.reset();
    });
  }
  return new Proxy({} as MockServer, {
    get(_target, key) {
      if (current === undefined) {
        throw new MockServerError(
          'NOT_STARTED',
          `useMockServer(): the server starts in beforeAll; read "${String(key)}" inside a test or hook`,
        );
      }
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
