// A twin's list (and search) reads its whole collection: it is admitted through the daemon's budget
// of expensive work like a large answer, and refused past it in the rate-limit style the profile's
// `busy` names (api/rate-limit-headers.ts), with Retry-After: mockpoint's own, GitHub's secondary.
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';
import { WorkBudget } from '../turns/work-budget.js';

const NOTE = { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      get: { responses: { '200': { description: 'the notes', ...json({ type: 'array', items: NOTE }) } } },
      post: { requestBody: json(NOTE), responses: { '201': { description: 'a note', ...json(NOTE) } } },
    },
    '/notes/{id}': { get: { parameters: [ID], responses: { '200': { description: 'a note', ...json(NOTE) } } } },
  },
};

const MB = 1024 * 1024;

/** An app whose budget admits every list (threshold 1 unit) and waits 20 ms; its twin holds three notes. */
async function notesTwin(busy?: { style: string; status: number }) {
  const budget = new WorkBudget({ units: 4 * MB, threshold: 1, waitMs: 20 });
  const app = createApp({ workBudget: budget });
  const profile = busy === undefined ? { name: 'notes' } : { name: 'notes', busy };
  const put = await app.request('/api/endpoints/n/twin', {
    method: 'PUT',
    body: JSON.stringify({ document: DOCUMENT, profile }),
  });
  expect(put.status).toBe(200);
  for (const title of ['a', 'b', 'c']) {
    const made = await app.request('/endpoint/n/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    expect(made.status).toBe(201);
  }
  return { app, budget };
}

describe("a twin's list through the daemon's budget of expensive work", () => {
  it('is refused in the ietf style with Retry-After while the budget stays full, answered once it has room', async () => {
    const { app, budget } = await notesTwin();
    const held = await budget.admit(4 * MB);
    expect(held.admitted).toBe(true);
    const refused = await app.request('/endpoint/n/notes');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toMatch(/a list read across its collection.*budget of expensive work/);
    if (held.admitted) held.release();
    const listed = await app.request('/endpoint/n/notes');
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as unknown[]).length).toBe(3);
    expect(budget.used).toBe(0);
  });

  it("is refused in the profile's busy style: GitHub's secondary rate limit, 403", async () => {
    const { app, budget } = await notesTwin({ style: 'github-secondary', status: 403 });
    const held = await budget.admit(4 * MB);
    const refused = await app.request('/endpoint/n/notes');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await refused.json()) as { message: string; documentation_url: string };
    // What Octokit's throttling plugin tells a secondary limit by.
    expect(body.message).toMatch(/^You have exceeded a secondary rate limit\..*budget of expensive work/);
    expect(body.documentation_url).toMatch(/secondary-rate-limits/);
    if (held.admitted) held.release();
  });
});

describe("a document's model, built through the daemon's budget", () => {
  /** A document of `n` collections (`2n` paths), titled `title` so that no earlier model is reused. */
  function documentOf(title: string, n: number) {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      paths[`/r${i}`] = DOCUMENT.paths['/notes'];
      paths[`/r${i}/{id}`] = DOCUMENT.paths['/notes/{id}'];
    }
    return { ...DOCUMENT, info: { title, version: '1' }, paths };
  }

  it('is refused RATE_LIMITED with Retry-After while the budget stays full, nothing kept; built once it has room', async () => {
    const budget = new WorkBudget({ units: 4 * MB, threshold: 1, waitMs: 20 });
    const app = createApp({ workBudget: budget });
    const body = JSON.stringify({ document: documentOf(`held ${Math.random()}`, 50) });
    const held = await budget.admit(4 * MB);
    expect(held.admitted).toBe(true);
    const refused = await app.request('/api/endpoints/big/twin', { method: 'PUT', body });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toMatch(/model \(a document of 100 paths\) waited for the daemon's budget/);
    expect((await app.request('/api/endpoints/big/twin')).status).toBe(404);
    if (held.admitted) held.release();
    const put = await app.request('/api/endpoints/big/twin', { method: 'PUT', body });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { collections: string[] }).collections).toHaveLength(50);
    expect(budget.used).toBe(0);
    // Built: the same document again is not admitted (a full budget does not refuse it).
    const again = await budget.admit(4 * MB);
    expect((await app.request('/api/endpoints/big/twin')).status).toBe(200);
    if (again.admitted) again.release();
  });
});
