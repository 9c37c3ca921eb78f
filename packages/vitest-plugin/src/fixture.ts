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
import { currentSession } from './session.js';

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
 * Vitest's `test` with two fixtures, each set up only for the tests that ask for it:
 * - `mock`, file-scoped: one in-memory server per test file, started by the first
 *   test that asks for it and closed after the file;
 * - `session`, test-scoped: with `mockpoint({ sessions: true })`, this test's own
 *   namespace in the run's daemon (docs/sessions.md); without, it throws `NO_SESSION`.
 * @example
 * import { test, expect } from '@mockpoint/vitest'
 * test('posts', async ({ mock }) => {
 *   const hook = await mock.add({ name: 'hook', data: { ok: true } })
 * })
 */
export const test = baseTest
  .extend('mock', { scope: 'file' }, mockServerFixture())
  // biome-ignore lint/correctness/noEmptyPattern: required shape of a fixture function
  .extend('session', { scope: 'test' }, async ({}) => currentSession());

/** Alias of {@link test}. */
export const it = test;

/** Options for {@link useMockServer}. */
export interface UseMockServerOptions extends CreateMockServerOptions {
  /** Remove every endpoint and recorded request after each test. @default false */
  resetAfterEach?: boolean;
  /**
   * After each test, return every name's collections to their seed and state to
   * its start, and forget the recorded requests; endpoints and routes stay (a fake
   * with memory set up once per file starts each test fresh). @default false
   */
  resetBetweenTests?: boolean;
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
  const { resetAfterEach, resetBetweenTests, ...serverOptions } = options;
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
  } else if (resetBetweenTests) {
    afterEach(async () => {
      await current?.resetAll({ journal: true });
    });
  }
  const started = (key: PropertyKey): MockServer => {
    if (current === undefined) {
      throw new MockServerError(
        'NOT_STARTED',
        `useMockServer(): the server starts in beforeAll; read "${String(key)}" inside a test or hook`,
      );
    }
    return current;
  };
  const bound = (server: MockServer, value: unknown): unknown =>
    typeof value === 'function' ? value.bind(server) : value;
  // Every trap forwards to the started server, so `'url' in mock`, `{ ...mock }` and
  // `Object.keys(mock)` behave as they do on the server itself.
  return new Proxy({} as MockServer, {
    get(_target, key) {
      // Not a thenable: `await mock` (or returning it from an async function) gives the handle back.
      if (key === 'then') return undefined;
      const server = started(key);
      return bound(server, Reflect.get(server, key));
    },
    has(_target, key) {
      return key !== 'then' && Reflect.has(started(key), key);
    },
    ownKeys() {
      return Reflect.ownKeys(started('keys'));
    },
    getOwnPropertyDescriptor(_target, key) {
      if (key === 'then') return undefined;
      const server = started(key);
      const descriptor = Reflect.getOwnPropertyDescriptor(server, key);
      if (descriptor === undefined) return undefined;
      // Reported configurable: the proxy's own target does not have the property
      // (a proxy may not report a non-configurable property its target lacks).
      return 'value' in descriptor
        ? { ...descriptor, value: bound(server, descriptor.value), configurable: true }
        : { ...descriptor, configurable: true };
    },
  });
}
