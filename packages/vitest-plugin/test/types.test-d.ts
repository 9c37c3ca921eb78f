// Type tests, checked by `tsc -b` (pnpm typecheck); never executed.
import { expectTypeOf, inject } from 'vitest';
import {
  type CollectionHandle,
  createMockServer,
  currentSession,
  expect,
  JsonText,
  type MockEndpoint,
  type MockpointProvided,
  type MockServer,
  type MockSession,
  type QueuedAnswer,
  test,
  type UnhandledRequest,
} from '../src/index.js';
import { mockpoint } from '../src/plugin.js';

interface User {
  id: number;
  name: string;
}

test('add<T>() types the endpoint data', async () => {
  await using mock = await createMockServer();

  const users = await mock.add<User[]>({ name: 'users', data: [{ id: 1, name: 'Ada' }] });
  expectTypeOf(users).toEqualTypeOf<MockEndpoint<User[]>>();
  expectTypeOf(users.data).toEqualTypeOf<User[]>();
  expectTypeOf(users.url).toBeString();
  expectTypeOf(users.statusCode).toBeNumber();
  expectTypeOf(mock.grpcAddress).toBeString();
  await expect(users).toHaveReceivedGrpc('shop.v1.Orders/GetOrder', { id: '7' });
  await expect(users).not.toHaveReceivedGrpc('GetOrder');
  // @ts-expect-error the method is a string
  await expect(users).toHaveReceivedGrpc(42);
  await expect(await mock.requests('users', { match: { grpc: { method: 'GetOrder' } } })).toBeDefined();

  // Inferred from the data when no type argument is given.
  const flags = await mock.add({ name: 'flags', data: { beta: true } });
  expectTypeOf(flags.data).toEqualTypeOf<{ beta: boolean }>();

  // @ts-expect-error the data must match T
  await mock.add<User>({ name: 'user', data: { id: 'one', name: 'Ada' } });
  // @ts-expect-error replace() keeps the endpoint's data type
  await users.replace({ data: 'not users' });
  expectTypeOf(await users.replace({ data: [], statusCode: 500 })).toEqualTypeOf<MockEndpoint<User[]>>();

  const [request] = await users.waitForRequests({ count: 1, timeout: 1000 });
  expectTypeOf(request!.method).toBeString();
  expectTypeOf(request!.json).toBeUnknown();
});

declare const hook: MockEndpoint<unknown>;

test('the matchers take endpoint handles and return promises', async () => {
  expectTypeOf(expect(hook).toHaveBeenRequested()).toEqualTypeOf<Promise<void>>();
  expectTypeOf(expect(hook).not.toHaveBeenRequestedTimes(2)).toEqualTypeOf<Promise<void>>();
  await expect(hook).toHaveBeenRequestedWith({ method: 'POST', body: expect.objectContaining({ id: 1 }) });
  // Not refused by the compiler (see matchers.ts); the matcher throws NOT_AN_ENDPOINT.
  // @ts-expect-error an unknown field
  await expect(hook).toHaveBeenRequestedWith({ status: 200 });
  expectTypeOf(expect(hook).not.toHaveBeenRequestedWithin(500)).toEqualTypeOf<Promise<void>>();
  await expect(hook).toHaveBeenRequestedWithin(500, { method: 'POST', body: { id: 1 } });
  // @ts-expect-error the window is a number of milliseconds
  await expect(hook).toHaveBeenRequestedWithin('500');
  // expect('hook') is not refused by the compiler (see matchers.ts); the matcher throws at run time.
});

test('collection handles are typed by the item type; toHaveState takes a value or scenarios', async () => {
  const users = hook.collection<User>('users');
  expectTypeOf(users).toEqualTypeOf<CollectionHandle<User>>();
  expectTypeOf(users.list()).resolves.toEqualTypeOf<User[]>();
  expectTypeOf(users.get(1)).resolves.toEqualTypeOf<User>();
  expectTypeOf(users.insert({ name: 'Grace' })).resolves.toEqualTypeOf<User>();
  expectTypeOf(users.update('1', { name: null })).resolves.toEqualTypeOf<User>();
  expectTypeOf(users.remove(1)).resolves.toBeVoid();
  expectTypeOf(users.replace([{ id: 1, name: 'Ada' }, new JsonText('{"id":2,"name":"G"}')])).resolves.toEqualTypeOf<
    User[]
  >();
  // @ts-expect-error the item's fields have the item type's types
  await users.insert({ name: 1 });
  // @ts-expect-error a patch names the item type's fields
  await users.update(1, { nickname: 'x' });
  // @ts-expect-error replace takes whole items
  await users.replace([{ name: 'Ada' }]);
  expectTypeOf(hook.collection('todos', { idField: 'key' }).get('a')).resolves.toEqualTypeOf<Record<string, unknown>>();

  await using mock = await createMockServer();
  expectTypeOf((await mock.api('api')).collection<User>('users')).toEqualTypeOf<CollectionHandle<User>>();
  expectTypeOf(mock.insertItem<User>('api', 'users', { name: 'Grace' })).resolves.toEqualTypeOf<User>();
  expectTypeOf(mock.itemText('api', 'users', 1)).resolves.toBeString();

  expectTypeOf(expect(hook).toHaveState('paid')).toEqualTypeOf<Promise<void>>();
  expectTypeOf(expect(hook).not.toHaveState({ order: 'paid', login: 'started' })).toEqualTypeOf<Promise<void>>();
  // @ts-expect-error a state value is a string
  await expect(hook).toHaveState({ order: 1 });
});

test('queued answers are typed', async () => {
  await hook.queue([{ statusCode: 503, times: 2 }, { fault: 'reset' }, { fault: 'hang' }, { data: { ok: true } }]);
  // @ts-expect-error an unknown fault
  await hook.queue([{ fault: 'explode' }]);
  expectTypeOf(await hook.getQueue()).toEqualTypeOf<QueuedAnswer[]>();
  expectTypeOf(await hook.queued()).toEqualTypeOf<QueuedAnswer[]>();
});

test('inject("mockpoint") is typed', () => {
  expectTypeOf(inject('mockpoint')).toEqualTypeOf<MockpointProvided>();
  expectTypeOf(inject('mockpoint').url).toBeString();
});

test('the fixture context has `mock`', ({ mock }) => {
  expectTypeOf(mock).toEqualTypeOf<MockServer>();
});

test('sessions: the `session` fixture, currentSession() and the plugin option are typed', async ({ session }) => {
  expectTypeOf(session).toEqualTypeOf<MockSession>();
  expectTypeOf(currentSession()).resolves.toEqualTypeOf<MockSession>();
  expectTypeOf(session.headers['mockpoint-session']).toBeString();
  expectTypeOf(session.unhandledRequests()).resolves.toEqualTypeOf<UnhandledRequest[]>();
  expectTypeOf(await session.add<User>({ name: 'u', data: { id: 1, name: 'Ada' } })).toEqualTypeOf<
    MockEndpoint<User>
  >();
  mockpoint({ sessions: true });
  mockpoint({ sessions: { onUnhandledRequest: 'warn', ttlMs: 60_000 } });
  // @ts-expect-error onUnhandledRequest is 'error', 'warn' or 'off'
  mockpoint({ sessions: { onUnhandledRequest: 'fail' } });
});

test('GraphQL: the schema methods and the graphql field of toHaveBeenRequestedWith are typed', async () => {
  expectTypeOf(hook.setGraphqlSchema('type Query { a: Int }')).toEqualTypeOf<Promise<void>>();
  expectTypeOf(hook.getGraphqlSchema()).resolves.toBeString();
  expectTypeOf(hook.clearGraphqlSchema()).toEqualTypeOf<Promise<void>>();
  await expect(hook).toHaveBeenRequestedWith({
    graphql: { operationName: 'A', operationType: 'query', variables: {} },
  });
  // @ts-expect-error an operation type is query, mutation or subscription
  await expect(hook).toHaveBeenRequestedWith({ graphql: { operationType: 'select' } });
});
