// A resource route's answer with _embed/_expand grows with the collections it draws from: it is
// admitted through the daemon's budget of expensive work (as a twin's large answer is), and past
// it, after the wait, answered mockpoint's own 429 RATE_LIMITED with Retry-After.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../index.js';
import { WorkBudget } from '../../turns/work-budget.js';

const MB = 1024 * 1024;

async function blog() {
  // Every answer with relations counted (threshold 1 byte); a wait of 20 ms.
  const budget = new WorkBudget({ units: 4 * MB, threshold: 1, waitMs: 20 });
  const mock = createApp({ workBudget: budget });
  const put = await mock.request('/api/endpoints/api/collections', {
    method: 'PUT',
    body: JSON.stringify({ posts: [{ id: 1, title: 'a' }], comments: [{ id: 1, postId: 1 }] }),
  });
  expect(put.status).toBe(200);
  const routes = await mock.request('/api/endpoints/api/routes', {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        { match: { path: '/comments/*' }, answer: { resource: 'comments' } },
        { match: { path: '/posts/*' }, answer: { resource: 'posts' } },
      ],
    }),
  });
  expect(routes.status).toBe(200);
  return { mock, budget };
}

describe("a resource route's relations through the daemon's budget of expensive work", () => {
  it('refuses a list and an item with _expand/_embed 429 RATE_LIMITED while the budget is full', async () => {
    const { mock, budget } = await blog();
    const held = await budget.admit(4 * MB);
    expect(held.admitted).toBe(true);
    // A page without relations is made at once, whatever the budget holds.
    expect((await mock.request('/endpoint/api/comments')).status).toBe(200);
    for (const path of ['/comments?_expand=post', '/posts/1?_embed=comments']) {
      const refused = await mock.request(`/endpoint/api${path}`);
      expect(refused.status, path).toBe(429);
      expect(Number(refused.headers.get('retry-after')), path).toBeGreaterThanOrEqual(1);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code, path).toBe('RATE_LIMITED');
      expect(body.error.message, path).toMatch(/_embed\/_expand.*budget of expensive work/);
    }
    if (held.admitted) held.release();
    const listed = await mock.request('/endpoint/api/comments?_expand=post');
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([{ id: 1, postId: 1, post: { id: 1, title: 'a' } }]);
    const item = await mock.request('/endpoint/api/posts/1?_embed=comments');
    expect(await item.json()).toEqual({ id: 1, title: 'a', comments: [{ id: 1, postId: 1 }] });
    expect(budget.used).toBe(0);
  });
});
