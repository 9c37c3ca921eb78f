import { describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { JOURNAL_READ_PAGE } from '../../journal/journal.js';
import { countingJournal } from '../../test-support/counting-journal.js';
import { MAX_UNKNOWN_NAMES, type UnknownName } from './unknown-names.js';

async function inbox(app: ReturnType<typeof createApp>): Promise<UnknownName[]> {
  const response = await app.request('/api/requests/unknown');
  expect(response.status).toBe(200);
  return ((await response.json()) as { names: UnknownName[] }).names;
}

describe('GET /api/requests/unknown', () => {
  it('lists names that received requests and have no record nor routes, newest first, with their count', async () => {
    const app = createApp();
    expect((await app.request('/api/endpoints/order-paid', { method: 'PUT', body: '{"data":1}' })).status).toBe(201);
    const routes = await app.request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: '{"routes":[{"answer":{}}]}',
    });
    expect(routes.status).toBe(200);
    await app.request('/endpoint/order-payd', { method: 'POST', body: '{}' });
    await app.request('/endpoint/order-paid', { method: 'POST', body: '{}' });
    await app.request('/endpoint/api/users');
    await app.request('/endpoint/ordr-paid', { method: 'PUT' });
    await app.request('/endpoint/order-payd', { method: 'POST', body: '{}' });
    await app.request(`/endpoint/${'x'.repeat(65)}`); // not a valid name: it could never be created
    const names = await inbox(app);
    expect(names.map(({ name, requests, lastMethod }) => ({ name, requests, lastMethod }))).toEqual([
      { name: 'order-payd', requests: 2, lastMethod: 'POST' },
      { name: 'ordr-paid', requests: 1, lastMethod: 'PUT' },
    ]);
    expect(Date.parse(names[0]?.lastReceivedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // Created: no longer unknown. Its journal cleared: gone too.
    expect((await app.request('/api/endpoints/order-payd', { method: 'PUT', body: '{"data":1}' })).status).toBe(201);
    expect((await app.request('/api/endpoints/ordr-paid/requests', { method: 'DELETE' })).status).toBe(204);
    expect(await inbox(app)).toEqual([]);
  });

  it('does not list a name that has only a GraphQL schema: its schema answers it', async () => {
    const app = createApp();
    const put = await app.request('/api/endpoints/gh/graphql', { method: 'PUT', body: 'type Query { a: Int }' });
    expect(put.status).toBe(201);
    await app.request('/endpoint/gh', { method: 'POST', body: '{"query":"{ a }"}' });
    await app.request('/endpoint/gj', { method: 'POST', body: '{"query":"{ a }"}' });
    expect((await inbox(app)).map(({ name }) => name)).toEqual(['gj']);
  });

  // A twin needs the providers the daemon ships: test/web-twin.test.ts has a twin-only name.
  it('does not list a name that holds only chaos or a collection: the endpoint list shows it', async () => {
    const app = createApp();
    const writes = [
      { method: 'PUT', path: '/api/endpoints/flaky/chaos', body: '{"rate":0,"faults":["500"]}' },
      { method: 'POST', path: '/api/endpoints/users/collections/people/items', body: '{"id":"1"}' },
    ];
    for (const { method, path, body } of writes) {
      expect((await app.request(path, { method, body })).status, path).toBeLessThan(300);
    }
    for (const name of ['flaky', 'users', 'flakey']) await app.request(`/endpoint/${name}/people`);
    expect((await inbox(app)).map(({ name }) => name)).toEqual(['flakey']);
    const listed = (await (await app.request('/api/endpoints')).json()) as { endpoints: { name: string }[] };
    expect(listed.endpoints.map(({ name }) => name)).toEqual(['flaky', 'users']);
  });

  it(`lists at most ${MAX_UNKNOWN_NAMES} names, the most recently requested`, async () => {
    const app = createApp();
    for (let i = 0; i < MAX_UNKNOWN_NAMES + 5; i++) await app.request(`/endpoint/n-${i}`);
    const names = await inbox(app);
    expect(names).toHaveLength(MAX_UNKNOWN_NAMES);
    expect(names[0]?.name).toBe(`n-${MAX_UNKNOWN_NAMES + 4}`);
    expect(names.at(-1)?.name).toBe('n-5');
  });
});

describe('GET /api/requests/unknown on a big journal', () => {
  it('reads the journal a page at a time and lets the event loop run between pages', async () => {
    // Counts how many entries each read of the journal formats.
    const { journal, pages } = countingJournal({ size: 1000 });
    const app = createApp({ journal });
    for (let i = 0; i < 1000; i++) await app.request(`/endpoint/typo-${i % 10}`, { method: 'POST', body: '{}' });
    let turned = false;
    setTimeout(() => {
      turned = true;
    }, 0);
    const names = await inbox(app);
    // A timer set before the read ran before it answered: the read did not hold the event loop throughout.
    expect(turned).toBe(true);
    expect(names).toHaveLength(10);
    expect(names.reduce((sum, one) => sum + one.requests, 0)).toBe(1000);
    expect(Math.max(...pages)).toBeLessThanOrEqual(JOURNAL_READ_PAGE);
    expect(pages.reduce((sum, n) => sum + n, 0)).toBe(1000);
  });
});
