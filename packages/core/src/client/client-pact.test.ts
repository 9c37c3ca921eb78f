// The client's pact method, against an app (no socket): the journal of the names asked for as a
// Pact V4 contract's text, secrets only when asked; a missing provider is INVALID_QUERY.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, MockpointError } from '../index.js';

describe('client pact', () => {
  it('answers the contract of the names given, secrets left out unless asked', async () => {
    const app = createApp();
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    await client.setRoutes('users', [
      { id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: { id: 7 } } },
    ]);
    await client.add({ name: 'other', data: { other: true } });
    await app.fetch(
      new Request('http://mockpoint.test/endpoint/users/users/7', {
        headers: { authorization: 'Bearer s', accept: 'application/json' },
      }),
    );
    await client.read('other');

    const pact = JSON.parse(await client.pact({ consumer: 'web', provider: 'users-api', names: ['users'] }));
    expect(pact.metadata.pactSpecification.version).toBe('4.0');
    expect(pact.interactions).toHaveLength(1);
    expect(pact.interactions[0].request).toEqual({
      method: 'GET',
      path: '/users/7',
      headers: { accept: ['application/json'] },
    });
    expect(pact.interactions[0].response.body.content).toEqual({ id: 7 });

    const all = JSON.parse(await client.pact({ consumer: 'web', provider: 'api', secrets: true }));
    expect(all.interactions.map((one: { description: string }) => one.description)).toEqual([
      'users: GET /users/7 → 200',
      'other: GET / → 200',
    ]);
    expect(all.interactions[0].request.headers.authorization).toEqual(['Bearer s']);

    const bad = await client.pact({ consumer: 'web', provider: '' }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(MockpointError);
    expect((bad as MockpointError).code).toBe('INVALID_QUERY');
  });
});
