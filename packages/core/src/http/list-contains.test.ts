import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';

interface Page {
  endpoints: { name: string; data?: unknown; routes?: number }[];
  next: string | null;
  total: number;
}

async function list(app: MockpointApp, query: string): Promise<Page> {
  const response = await app.request(`/api/endpoints?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

async function seeded(): Promise<MockpointApp> {
  const app = createApp();
  const put = (name: string, body: string) => app.request(`/api/endpoints/${name}`, { method: 'PUT', body });
  expect((await put('order-paid', '{"data":{"event":"Paid"}}')).status).toBe(201);
  expect((await put('ORDER-refund', '{"data":{"event":"refund"}}')).status).toBe(201);
  expect((await put('user', '{"data":{"note":"the order was PAID twice"}}')).status).toBe(201);
  expect((await put('health', '{"data":12345678901234567890}')).status).toBe(201);
  const routes = await app.request('/api/endpoints/orders-api/routes', {
    method: 'PUT',
    body: '{"routes":[{"answer":{"data":1}}]}',
  });
  expect(routes.status).toBe(200);
  return app;
}

describe('GET /api/endpoints?contains=', () => {
  it('keeps names or data containing the text, ignoring case, in name order, with the total', async () => {
    const app = await seeded();
    const paid = await list(app, 'contains=pAiD');
    expect(paid.endpoints.map((e) => e.name)).toEqual(['order-paid', 'user']);
    expect(paid.total).toBe(2);
    expect(paid.endpoints[0]?.data).toEqual({ event: 'Paid' });
    // Names in any case, route-only names by name; the data's exact text (digits as stored).
    expect((await list(app, 'contains=order&summary=true')).endpoints).toEqual([
      { name: 'ORDER-refund', statusCode: 200, delay: 0 },
      { name: 'order-paid', statusCode: 200, delay: 0 },
      { name: 'orders-api', routes: 1 },
      { name: 'user', statusCode: 200, delay: 0 },
    ]);
    expect((await list(app, 'contains=234567890123456789')).endpoints.map((e) => e.name)).toEqual(['health']);
    expect((await list(app, 'contains=nothing-like-this')).total).toBe(0);
  });

  it('pages with limit and after; prefix narrows it further', async () => {
    const app = await seeded();
    const first = await list(app, 'contains=order&limit=2');
    expect(first.endpoints.map((e) => e.name)).toEqual(['ORDER-refund', 'order-paid']);
    expect(first).toMatchObject({ next: 'order-paid', total: 4 });
    const second = await list(app, `contains=order&limit=2&after=${first.next}`);
    expect(second.endpoints.map((e) => e.name)).toEqual(['orders-api', 'user']);
    expect(second.next).toBeNull();
    expect((await list(app, 'contains=paid&prefix=us')).endpoints.map((e) => e.name)).toEqual(['user']);
  });

  it('refuses a text longer than 200 characters', async () => {
    const app = createApp();
    const response = await app.request(`/api/endpoints?contains=${'a'.repeat(201)}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_QUERY');
  });
});
