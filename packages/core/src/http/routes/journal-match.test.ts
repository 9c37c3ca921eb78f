// The `match` filter of GET /api/endpoints/{name}/requests: applied where the
// requests are, both when a page is read and when long-poll waiters are woken.
import { describe, expect, it, vi } from 'vitest';
import { createApp, type JournalPage, type MockpointApp, type RequestFilter } from '../../index.js';

function matchQuery(filter: RequestFilter | string): string {
  return `match=${encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter))}`;
}

async function page(app: MockpointApp, query: string): Promise<JournalPage> {
  const response = await app.request(`/api/endpoints/hook/requests?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as JournalPage;
}

async function send(app: MockpointApp, method: string, body?: unknown, target = '/endpoint/hook'): Promise<Response> {
  return app.request(target, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Resolves once `condition` holds, at most `ms` later. */
async function until(condition: () => boolean, ms = 5000): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: ms });
}

describe('journal requests ?match=', () => {
  it('lists only the requests that match', async () => {
    const app = createApp();
    await send(app, 'GET');
    await send(app, 'POST', { type: 'order.created', order: { id: 1 } });
    await send(app, 'POST', { type: 'order.paid', order: { id: 1, total: 3 } });
    await send(app, 'PUT', { type: 'order.paid' }, '/endpoint/hook?source=admin');

    const paid = await page(app, matchQuery({ body: { type: 'order.paid' } }));
    expect(paid.requests.map((r) => r.method)).toEqual(['POST', 'PUT']);
    const posts = await page(app, matchQuery({ method: 'post', body: { order: { id: 1 } } }));
    expect(posts.requests.map((r) => (r.json as { type: string }).type)).toEqual(['order.created', 'order.paid']);
    const admin = await page(app, matchQuery({ query: { source: 'admin' } }));
    expect(admin.requests).toHaveLength(1);
    expect((await page(app, matchQuery({ headers: { 'x-none': '1' } }))).requests).toEqual([]);
  });

  it('a long-poll counts only matching requests: unrelated traffic does not end it', async () => {
    const app = createApp();
    const waiting = page(app, `count=2&wait=20000&${matchQuery({ method: 'POST', body: { type: 'order.paid' } })}`);
    await until(() => app.mockpoint.journal.waiterCount === 1);

    await send(app, 'GET');
    await send(app, 'POST', { type: 'order.created' });
    await send(app, 'POST', { type: 'order.paid', n: 1 });
    await send(app, 'PUT', { type: 'order.paid' });
    // Four requests arrived, one matched: still waiting.
    expect(app.mockpoint.journal.waiterCount).toBe(1);

    await send(app, 'POST', { type: 'order.paid', n: 2 });
    const { requests, complete } = await waiting;
    expect(complete).toBe(true);
    expect(requests.map((r) => (r.json as { n: number }).n)).toEqual([1, 2]);
    expect(app.mockpoint.journal.waiterCount).toBe(0);
    // Unfiltered, all five are there.
    expect((await page(app, '')).requests).toHaveLength(5);
  });

  it('counts matching requests that were already there, after the given id', async () => {
    const app = createApp();
    await send(app, 'POST', { n: 1 });
    await send(app, 'POST', { n: 2 });
    const all = await page(app, '');
    const after = all.requests[0]?.id as number;

    const at = await page(app, `count=1&wait=5000&${matchQuery({ body: { n: 2 } })}`);
    expect(at).toMatchObject({ complete: true, requests: [{ json: { n: 2 } }] });
    const newer = await page(app, `count=1&after=${after}&${matchQuery({ body: { n: 1 } })}`);
    expect(newer).toEqual({ complete: false, requests: [], journalId: expect.any(String) });
  });

  it('answers on time with complete:false and only the matching requests when they do not come', async () => {
    const app = createApp();
    await send(app, 'POST', { n: 1 });
    const result = await page(app, `count=1&wait=100&${matchQuery({ method: 'DELETE' })}`);
    expect(result).toEqual({ complete: false, requests: [], journalId: expect.any(String) });
    expect(app.mockpoint.journal.waiterCount).toBe(0);
  });

  it.each([
    ['{', 'not valid JSON'],
    ['[]', 'match must be JSON of { method?, path?, query?, headers?, body?, signature? }'],
    ['{"methods":"GET"}', 'match must be JSON'],
    ['{"headers":{"a":1}}', 'match must be JSON'],
    ['{"query":{"a":[1]}}', 'match must be JSON'],
  ])('refuses match=%s with 400 INVALID_QUERY', async (match, message) => {
    const app = createApp();
    const response = await app.request(`/api/endpoints/hook/requests?${matchQuery(match)}`);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('INVALID_QUERY');
    expect(error.message).toContain(message);
  });

  it('treats __proto__ in a filter as an ordinary key', async () => {
    const app = createApp();
    await send(app, 'POST', JSON.parse('{"__proto__":{"x":1}}'));
    await send(app, 'POST', { other: true });
    const result = await page(app, matchQuery('{"body":{"__proto__":{"x":1}}}'));
    expect(result.requests).toHaveLength(1);
    const headers = await page(app, matchQuery('{"headers":{"__proto__":"x"}}'));
    expect(headers.requests).toEqual([]);
  });

  it('is in the OpenAPI document as a query parameter', async () => {
    const doc = (await (await createApp().request('/api/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; description: string }[] } }>;
    };
    const params = doc.paths['/api/endpoints/{name}/requests']?.get.parameters ?? [];
    expect(params.find((p) => p.name === 'match')?.description).toContain('RequestFilter as JSON');
  });
});
