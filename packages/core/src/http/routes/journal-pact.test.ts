// GET /api/requests.pact against an app (no socket): a journal longer than a page, every
// entry once, in id order, for one name, several or all; the query's rules.
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

async function contract(app: MockpointApp, query: string): Promise<{ description: string }[]> {
  const response = await app.request(`/api/requests.pact?consumer=web&provider=api${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { interactions: { description: string }[] }).interactions;
}

describe('GET /api/requests.pact', () => {
  it('reads a journal longer than a page, every entry once, in id order, of the names asked for', async () => {
    const app = createApp({ journalSize: 1000 });
    for (const name of ['a', 'b', 'c'])
      await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name, data: { name } }) });
    for (let i = 0; i < 600; i++) await app.request(`/endpoint/${'abc'[i % 3]}?i=${i}`);
    const all = await contract(app, '');
    expect(all.map((one) => one.description)).toEqual(
      Array.from({ length: 600 }, (_, i) => `${'abc'[i % 3]}: GET /?i=${i} → 200`),
    );
    expect(await contract(app, '&names=b')).toHaveLength(200);
    const two = await contract(app, '&names=a,c');
    expect(two).toHaveLength(400);
    expect(two.some((one) => one.description.startsWith('b:'))).toBe(false);
  });

  it('refuses a query without both names, or with a name the journal cannot hold', async () => {
    const app = createApp();
    for (const query of [
      'consumer=web',
      'provider=api',
      'consumer=&provider=api',
      'consumer=web&provider=api&secrets=yes',
    ]) {
      const response = await app.request(`/api/requests.pact?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_QUERY');
    }
    const long = await app.request(`/api/requests.pact?consumer=web&provider=api&names=${'x'.repeat(2000)}`);
    expect(((await long.json()) as { error: { code: string } }).error.code).toBe('INVALID_NAME');
  });
});
