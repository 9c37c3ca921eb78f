// One mockpoint instance for this file (the file-scoped `mock` fixture); other
// files running at the same time have their own. `put` creates or replaces, so
// each test sets up exactly the answer it needs.
import { expect, test } from '@mockpoint/vitest';
import { describe } from 'vitest';
import { createUsersClient, type User } from './users-client.js';

const ada: User = { id: 1, name: 'Ada Lovelace', email: 'ada@example.com' };

describe('users client', () => {
  test('200: a user', async ({ mock }) => {
    await mock.put<User>('user-1', { data: ada });
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    expect(await client.getUser(1)).toEqual({ ok: true, status: 200, value: ada });
  });

  test('201: the created user, after POSTing the new one', async ({ mock }) => {
    const users = await mock.add<User>({ name: 'users', data: ada, statusCode: 201 });
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    const result = await client.createUser({ name: ada.name, email: ada.email });

    expect(result).toEqual({ ok: true, status: 201, value: ada });
    await expect(users).toHaveBeenRequestedTimes(1);
    await expect(users).toHaveBeenRequestedWith({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
  });

  test('404: not-found', async ({ mock }) => {
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    expect(await client.getUser(404)).toEqual({ ok: false, error: { kind: 'not-found', status: 404 } });
  });

  test('500: a server error with its message', async ({ mock }) => {
    await mock.put('users', { data: { message: 'database unavailable' }, statusCode: 500 });
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    expect(await client.listUsers()).toEqual({
      ok: false,
      error: { kind: 'server', status: 500, message: 'database unavailable' },
    });
  });

  test('timeout: the answer comes later than the client waits', async ({ mock }) => {
    const slow = await mock.put<User[]>('users', { data: [ada], delay: 5_000 });
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/`, timeoutMs: 150 });

    expect(await client.listUsers()).toEqual({ ok: false, error: { kind: 'timeout', timeoutMs: 150 } });
    expect(slow.delay).toBe(5_000);
  });

  test('timeout with hang: the service accepts the connection and never answers', async ({ mock }) => {
    await mock.put<User[]>('users', { data: [ada] });
    await mock.queue('users', [{ fault: 'hang' }]);
    // 1 s, not 150 ms: a client that gives up before its request is even written (one CPU stall on a busy
    // machine) leaves the hang queued, and the next request would hang instead of getting the record.
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/`, timeoutMs: 1000 });

    expect(await client.listUsers()).toEqual({ ok: false, error: { kind: 'timeout', timeoutMs: 1000 } });
    // Only that one request hung: the next one gets the record.
    expect(await client.listUsers()).toEqual({ ok: true, status: 200, value: [ada] });
  });

  test('network error with reset: the connection is reset before any answer', async ({ mock }) => {
    await mock.put<User[]>('users', { data: [ada] });
    await mock.queue('users', [{ fault: 'reset' }]);
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    const result = await client.listUsers();

    expect(result).toEqual({ ok: false, error: { kind: 'network', message: 'fetch failed' } });
    const request = (await mock.requests('users')).at(-1); // the file's server is shared by its tests
    expect(request).toMatchObject({ method: 'GET', queued: true, fault: 'reset' });
  });

  test('a body cut short with close: the status arrives, the JSON never completes', async ({ mock }) => {
    await mock.put<User[]>('users', { data: [ada, { ...ada, id: 2 }] });
    await mock.queue('users', [{ fault: 'close' }]);
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    expect(await client.listUsers()).toEqual({ ok: false, error: { kind: 'network', message: 'terminated' } });
  });
});
