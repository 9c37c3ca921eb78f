// The todo client library (src/todo-client.ts) against a fake with memory: one
// mockpoint collection, `todos`, served as REST by one resource route. What the
// client creates, it lists; what it completes, it finds done; after each test
// the collection is back at its seed (resetEndpoint).
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { afterEach, beforeAll } from 'vitest';
import { createTodoClient, TodoError } from './todo-client.js';

const mock = useMockServer();
const SEED = [
  { id: 1, title: 'Write the tests', done: true },
  { id: 2, title: 'Ship it', done: false },
];

let todos: ReturnType<typeof createTodoClient>;

beforeAll(async () => {
  await mock.setCollections('todo-service', { todos: SEED }); // the seed a reset returns to
  const api = await mock.api('todo-service', [{ match: { path: '/todos' }, answer: { resource: 'todos' } }]);
  todos = createTodoClient(api.url);
});

afterEach(async () => {
  await mock.resetEndpoint('todo-service', { journal: true });
});

it('creates a todo, then lists it first, with the new total', async () => {
  const added = await todos.add('Read the docs');
  expect(added).toEqual({ title: 'Read the docs', done: false, id: 3 });
  const first = await todos.page(1);
  expect(first.total).toBe(3);
  expect(first.todos.map((todo) => todo.id)).toEqual([3, 2, 1]);
});

it('completes a todo: it is listed with the done ones, and the seed is back for the next test', async () => {
  await todos.complete(2);
  expect((await todos.page(1, { done: true })).todos.map((todo) => todo.title)).toEqual(['Ship it', 'Write the tests']);
  expect((await todos.page(1, { done: false })).total).toBe(0);
  expect(await mock.collection('todo-service', 'todos')).toEqual([
    { id: 1, title: 'Write the tests', done: true },
    { id: 2, title: 'Ship it', done: true },
  ]);
});

it('pages through many todos, and searches them', async () => {
  for (let i = 0; i < 12; i++) await todos.add(`Chore ${i}`);
  const second = await todos.page(2, { size: 5 });
  expect(second.total).toBe(14);
  expect(second.todos.map((todo) => todo.id)).toEqual([9, 8, 7, 6, 5]);
  expect((await todos.search('chore 1')).map((todo) => todo.title)).toEqual(['Chore 1', 'Chore 10', 'Chore 11']);
});

it('removes a todo: reading it again is a 404 the client reports', async () => {
  await todos.remove(1);
  const error = await todos.get(1).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TodoError);
  expect((error as TodoError).status).toBe(404);
  const api = await mock.api('todo-service');
  await expect(api).toHaveBeenRequestedWith({ method: 'DELETE', path: '/todos/1' });
});
