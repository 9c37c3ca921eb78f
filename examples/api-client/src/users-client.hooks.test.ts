// The same client with useMockServer(): the instance starts in beforeAll and
// closes in afterAll; resetAfterEach empties it between tests.
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { describe } from 'vitest';
import { createUsersClient, type User } from './users-client.js';

describe('users client (useMockServer)', () => {
  const mock = useMockServer({ resetAfterEach: true });

  it('lists users', async () => {
    const users = await mock.add<User[]>({ name: 'users', data: [{ id: 2, name: 'Grace', email: 'g@example.com' }] });
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    const result = await client.listUsers();

    expect(result.ok && result.value.map((u) => u.name)).toEqual(['Grace']);
    await expect(users).toHaveBeenRequestedWith({ method: 'GET' });
  });

  it('starts the next test empty', async () => {
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/` });

    expect(await client.listUsers()).toEqual({ ok: false, error: { kind: 'not-found', status: 404 } });
  });

  it('answers slowly but in time', async () => {
    await mock.add<User[]>({ name: 'users', data: [], delay: 100 });
    const client = createUsersClient({ baseUrl: `${mock.url}/endpoint/`, timeoutMs: 5_000 });

    expect(await client.listUsers()).toEqual({ ok: true, status: 200, value: [] });
  });
});
