// The client's coverage method, against an app (no socket): hits and dead routes, names, the window, and
// INVALID_COVERAGE_QUERY.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, MockpointError } from '../index.js';

describe('client coverage', () => {
  it('answers the coverage of the names given, in the window; a bad time throws INVALID_COVERAGE_QUERY', async () => {
    const app = createApp();
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    await client.setRoutes('gh', [
      { id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: {} } },
      { id: 'repo', match: { method: 'GET', path: '/repos/:id' }, answer: { data: {} } },
    ]);
    await client.setRoutes('other', [{ id: 'x', answer: { data: {} } }]);
    expect((await client.read('gh')).status).toBe(404);
    expect((await app.request('/endpoint/gh/users/7')).status).toBe(200);

    const report = await client.coverage({ names: ['gh'] });
    expect(report.endpoints.map((e) => e.name)).toEqual(['gh']);
    expect(report.endpoints[0]?.routes.map((r) => [r.id, r.hits])).toEqual([
      ['user', 1],
      ['repo', 0],
    ]);
    expect(report.endpoints[0]?.dead.map((r) => r.id)).toEqual(['repo']);
    expect(report.endpoints[0]?.unmatched.count).toBe(1);

    const all = await client.coverage();
    expect(all.totals).toEqual({ routes: 3, dead: 2, unmatched: 1 });
    const later = await client.coverage({ since: new Date(Date.now() + 60_000).toISOString() });
    expect(later.requests).toBe(0);

    const bad = await client.coverage({ since: 'soon' }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(MockpointError);
    expect((bad as MockpointError).code).toBe('INVALID_COVERAGE_QUERY');
  });
});
