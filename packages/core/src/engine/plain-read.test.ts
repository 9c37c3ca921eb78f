import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';

/** A request through the app (the handler answers `/endpoint/` on every runtime the same way). */
async function send(app: ReturnType<typeof createApp>, path: string, method = 'GET', body?: unknown) {
  const response = await app.request(path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe('the plain read of a cached record', () => {
  it('is decided once per generation of changes, on the cached record, and undone by any change', async () => {
    const app = createApp();
    const { endpoints } = app.mockpoint;
    expect((await send(app, '/api/endpoint/add', 'PUT', { name: 'p', data: { a: 1 } })).status).toBe(201);
    // The first read looks every setting up through the pipeline: not known yet, not plain.
    expect(await send(app, '/endpoint/p')).toEqual({ status: 200, text: '{"a":1}' });
    const entry = endpoints.cache.get('p');
    expect(entry?.plainAt).toBe(-1);
    // The second finds each one known to be absent: decided now, for this generation.
    expect(await send(app, '/endpoint/p')).toEqual({ status: 200, text: '{"a":1}' });
    expect(entry?.plainAt).toBe(endpoints.changes.generation);
    expect(entry?.plain).toBe(true);
    const decided = endpoints.changes.generation;
    await send(app, '/endpoint/p');
    expect(entry?.plainAt).toBe(decided);

    // Chaos of another name is a change too: the next read decides again (still plain).
    expect((await send(app, '/api/endpoints/other/chaos', 'PUT', { rate: 1, faults: ['503'] })).status).toBe(200);
    expect(endpoints.changes.generation).toBeGreaterThan(decided);
    expect(await send(app, '/endpoint/p')).toEqual({ status: 200, text: '{"a":1}' });
    expect(entry?.plainAt).toBe(endpoints.changes.generation);

    // Its own chaos: not plain while it lasts, and every request goes through the chaos.
    expect((await send(app, '/api/endpoints/p/chaos', 'PUT', { rate: 1, faults: ['500'] })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await send(app, '/endpoint/p')).status).toBe(500);
    // Decided too, the other way: the next reads pay one comparison for it, not the lookups.
    expect(entry?.plainAt).toBe(endpoints.changes.generation);
    expect(entry?.plain).toBe(false);

    // Journaled alike: answered by the record, with the record's status.
    const journal = (await (await app.request('/api/endpoints/p/requests')).json()) as {
      requests: { answeredBy: unknown; statusCode?: number; status?: number }[];
    };
    expect(journal.requests.filter((r) => r.answeredBy === 'record')).toHaveLength(4);
  });

  it('is not taken below the bare URL, for a name with routes (decided once), or with a queued answer', async () => {
    const app = createApp();
    const { endpoints } = app.mockpoint;
    await send(app, '/api/endpoint/add', 'PUT', { name: 'r', data: 1 });
    const routes = { routes: [{ match: { method: 'GET', path: '/x' }, answer: { data: 2 } }] };
    expect((await send(app, '/api/endpoints/r/routes', 'PUT', routes)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect(await send(app, '/endpoint/r')).toEqual({ status: 200, text: '1' });
      expect(await send(app, '/endpoint/r/x')).toEqual({ status: 200, text: '2' });
    }
    expect(endpoints.cache.get('r')?.plainAt).toBe(endpoints.changes.generation);
    expect(endpoints.cache.get('r')?.plain).toBe(false);

    await send(app, '/api/endpoint/add', 'PUT', { name: 'q', data: 1 });
    for (let i = 0; i < 2; i++) await send(app, '/endpoint/q');
    const queued = await send(app, '/api/endpoints/q/queue', 'POST', { answers: [{ statusCode: 202, data: 'q' }] });
    expect(queued.status).toBe(201);
    expect(await send(app, '/endpoint/q')).toEqual({ status: 202, text: '"q"' });
    expect(await send(app, '/endpoint/q')).toEqual({ status: 200, text: '1' });
  });
});
