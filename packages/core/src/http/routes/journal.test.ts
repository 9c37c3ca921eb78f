import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type CreateAppOptions,
  createApp,
  type JournalEntry,
  type JournalPage,
  type MockpointApp,
} from '../../index.js';
import { JOURNAL_BODY_LIMIT, MAX_WAIT_MS } from '../../registry/limits.js';

async function add(app: MockpointApp, body: Record<string, unknown>): Promise<void> {
  const response = await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify(body) });
  expect(response.status).toBe(201);
}

async function journal(app: MockpointApp, name: string, query = ''): Promise<JournalPage> {
  const response = await app.request(`/api/endpoints/${name}/requests${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as JournalPage;
}

/** Resolves once `condition` holds, at most `ms` later. */
async function until(condition: () => boolean, ms = 5000): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: ms });
}

function fresh(options: CreateAppOptions = {}): MockpointApp {
  return createApp(options);
}

describe('request journal', () => {
  it('records every request to /endpoint/{name} with all its parts', async () => {
    const app = fresh();
    await add(app, { name: 'hook', data: { ok: true }, statusCode: 202 });
    const before = Date.now();
    const response = await app.request('/endpoint/hook?event=push&tag=a&tag=b', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sha256=abc' },
      body: JSON.stringify({ delivery: 7 }),
    });
    expect(response.status).toBe(202);
    const { requests, complete } = await journal(app, 'hook');
    expect(complete).toBe(true);
    expect(requests).toHaveLength(1);
    const [entry] = requests as [JournalEntry];
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/endpoint/hook',
      query: { event: 'push', tag: ['a', 'b'] },
      body: '{"delivery":7}',
      bodyTruncated: false,
      json: { delivery: 7 },
      statusCode: 202,
    });
    expect(entry.headers['x-signature']).toBe('sha256=abc');
    expect(entry.headers['content-type']).toBe('application/json');
    expect(new Date(entry.receivedAt).toISOString()).toBe(entry.receivedAt);
    expect(Date.parse(entry.receivedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(entry.receivedAt)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('records a body that is not JSON as text, with no json field', async () => {
    const app = fresh();
    await add(app, { name: 'form', data: 1 });
    await app.request('/endpoint/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=2',
    });
    await app.request('/endpoint/form');
    const { requests } = await journal(app, 'form');
    expect(requests.map((r) => r.body)).toEqual(['a=1&b=2', '']);
    expect(requests.every((r) => !('json' in r))).toBe(true);
  });

  it('records every read method, oldest first', async () => {
    const app = fresh();
    await add(app, { name: 'any', data: 'x' });
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
    for (const method of methods) await app.request('/endpoint/any', { method });
    const { requests } = await journal(app, 'any');
    expect(requests.map((r) => r.method)).toEqual(methods);
    const ids = requests.map((r) => r.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('records requests to unknown names (404) and lets them be read', async () => {
    const app = fresh();
    const response = await app.request('/endpoint/ghost', { method: 'POST', body: 'boo' });
    expect(response.status).toBe(404);
    const { requests } = await journal(app, 'ghost');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', body: 'boo', statusCode: 404 });
    // An invalid endpoint name is recorded and readable too.
    await app.request('/endpoint/not.valid');
    expect((await journal(app, 'not.valid')).requests).toHaveLength(1);
  });

  it('names its journal in every answer: the same id across reads, a new one for a new journal', async () => {
    const app = fresh();
    await app.request('/endpoint/hook');
    const first = (await journal(app, 'hook')) as JournalPage & { journalId: string };
    const again = (await journal(app, 'hook', '?after=1&wait=10')) as JournalPage & { journalId: string };
    const other = (await journal(app, 'other')) as JournalPage & { journalId: string };
    expect(first.journalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.journalId).toBe(first.journalId);
    expect(other.journalId).toBe(first.journalId);
    // A new app (a restarted daemon) starts ids again at 1, under another journal id.
    const restarted = fresh();
    await restarted.request('/endpoint/hook');
    const after = (await journal(restarted, 'hook')) as JournalPage & { journalId: string };
    expect(after.requests[0]?.id).toBe(first.requests[0]?.id);
    expect(after.journalId).not.toBe(first.journalId);
  });

  it('keeps only the last journalSize requests', async () => {
    const app = fresh({ journalSize: 3 });
    for (let i = 1; i <= 5; i++) await app.request(`/endpoint/ring?i=${i}`);
    const { requests } = await journal(app, 'ring');
    expect(requests.map((r) => r.query.i)).toEqual(['3', '4', '5']);
  });

  it('keeps the first 64 KiB of a large body and still answers normally', async () => {
    const app = fresh();
    await add(app, { name: 'big', data: { fine: true } });
    const response = await app.request('/endpoint/big', {
      method: 'POST',
      body: 'z'.repeat(JOURNAL_BODY_LIMIT + 1000),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ fine: true });
    const [entry] = (await journal(app, 'big')).requests as [JournalEntry];
    expect(entry.bodyTruncated).toBe(true);
    expect(entry.body).toBe('z'.repeat(JOURNAL_BODY_LIMIT));
  });

  it('DELETE clears one name only; deleting the endpoint keeps its journal', async () => {
    const app = fresh();
    await add(app, { name: 'a', data: 1 });
    await app.request('/endpoint/a');
    await app.request('/endpoint/b');
    const removed = await app.request('/api/endpoints/a', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await journal(app, 'a')).requests).toHaveLength(1);
    const cleared = await app.request('/api/endpoints/a/requests', { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect((await journal(app, 'a')).requests).toEqual([]);
    expect((await journal(app, 'b')).requests).toHaveLength(1);
  });

  it.each(['?wait=-1', '?wait=abc', '?wait=1.5', '?count=0', '?count=-3', '?count=two', '?wait=100&count=1.5'])(
    'refuses %s with 400 INVALID_QUERY',
    async (query) => {
      const app = fresh();
      const response = await app.request(`/api/endpoints/x/requests${query}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'INVALID_QUERY' } });
    },
  );

  it('refuses a name longer than any recorded one with 400 INVALID_NAME', async () => {
    const response = await fresh().request(`/api/endpoints/${'n'.repeat(257)}/requests`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_NAME' } });
  });
});

describe('journal long-poll', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('wakes within a few ms of the request arriving', async () => {
    const app = fresh();
    let answeredAt = 0;
    const poll = Promise.resolve(app.request('/api/endpoints/hook/requests?wait=5000&count=1')).then(
      async (response) => {
        answeredAt = performance.now();
        return (await response.json()) as JournalPage;
      },
    );
    await until(() => app.mockpoint.journal.waiterCount === 1);
    expect(answeredAt).toBe(0);
    const sentAt = performance.now();
    await app.request('/endpoint/hook', { method: 'POST', body: '{"n":1}' });
    const page = await poll;
    expect(answeredAt - sentAt).toBeLessThan(4000); // under the 5 s wait (a timer: never sooner): woken, not timed out
    expect(page.complete).toBe(true);
    expect(page.requests.map((r) => r.json)).toEqual([{ n: 1 }]);
    expect(app.mockpoint.journal.waiterCount).toBe(0);
  });

  it('waits for count requests, not fewer', async () => {
    const app = fresh();
    let done = false;
    const poll = Promise.resolve(app.request('/api/endpoints/hook/requests?wait=5000&count=2')).then(
      async (response) => {
        done = true;
        return (await response.json()) as JournalPage;
      },
    );
    await until(() => app.mockpoint.journal.waiterCount === 1);
    await app.request('/endpoint/hook');
    // The first request is recorded (and waiters woken) before its answer: the long-poll still waits.
    expect(app.mockpoint.journal.waiterCount).toBe(1);
    expect(done).toBe(false);
    await app.request('/endpoint/hook');
    const page = await poll;
    expect(page.complete).toBe(true);
    expect(page.requests).toHaveLength(2);
  });

  it('with after=<last id> lists only newer requests and waits for new ones even when the ring is full', async () => {
    const app = fresh({ journalSize: 2 });
    await app.request('/endpoint/full');
    await app.request('/endpoint/full');
    const seen = await journal(app, 'full');
    const lastId = seen.requests.at(-1)!.id;
    expect((await journal(app, 'full', `?after=${seen.requests[0]!.id}`)).requests.map((r) => r.id)).toEqual([lastId]);
    expect((await journal(app, 'full', `?after=${lastId}`)).requests).toEqual([]);

    // count=journalSize+1 could never complete; after=<last id>&count=1 does.
    const poll = Promise.resolve(app.request(`/api/endpoints/full/requests?wait=5000&count=1&after=${lastId}`)).then(
      async (response) => (await response.json()) as JournalPage,
    );
    await until(() => app.mockpoint.journal.waiterCount === 1);
    await app.request('/endpoint/full', { method: 'POST', body: '"third"' });
    const page = await poll;
    expect(page.complete).toBe(true);
    expect(page.requests.map((r) => r.json)).toEqual(['third']);
    expect(((await app.request('/api/endpoints/full/requests?after=-1')) as Response).status).toBe(400);
  });

  it('refuses a count larger than the journal keeps with 400 INVALID_QUERY naming MOCKPOINT_JOURNAL_SIZE', async () => {
    const app = fresh({ journalSize: 2 });
    const response = await app.request('/api/endpoints/x/requests?wait=10&count=3');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_QUERY');
    expect(body.error.message).toContain('MOCKPOINT_JOURNAL_SIZE');
    expect((await app.request('/api/endpoints/x/requests?wait=10&count=2')).status).toBe(200);
  });

  it('answers on time with what there is and complete:false when the wait passes', async () => {
    const app = fresh();
    await app.request('/endpoint/slow');
    const started = performance.now();
    const response = await app.request('/api/endpoints/slow/requests?wait=300&count=2');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    // On time, not held to a longer limit (the cap is 60 s); 5 s leaves a busy machine room.
    expect(elapsed).toBeLessThan(5000);
    const page = (await response.json()) as JournalPage;
    expect(page.complete).toBe(false);
    expect(page.requests).toHaveLength(1);
    expect(app.mockpoint.journal.waiterCount).toBe(0);
  });

  it('answers at once when the count is already there', async () => {
    const app = fresh();
    await app.request('/endpoint/ready');
    const started = performance.now();
    const page = await journal(app, 'ready', '?wait=5000&count=1');
    // Under the 5 s wait (a timer: never sooner): woken, not timed out; 4 s leaves a busy machine room.
    expect(performance.now() - started).toBeLessThan(4000);
    expect(page.complete).toBe(true);
  });

  it('caps the wait at 60 s', async () => {
    expect(MAX_WAIT_MS).toBe(60_000);
    const app = fresh();
    const wait = vi.spyOn(app.mockpoint.journal, 'wait').mockResolvedValue({ requests: [], complete: false });
    await journal(app, 'x', '?wait=600000&count=1');
    expect(wait).toHaveBeenLastCalledWith('x', 1, 60_000, expect.any(AbortSignal), 0, undefined);
    await journal(app, 'x', '?wait=300&count=4');
    expect(wait).toHaveBeenLastCalledWith('x', 4, 300, expect.any(AbortSignal), 0, undefined);
    await journal(app, 'x');
    expect(wait).toHaveBeenLastCalledWith('x', 1, 0, expect.any(AbortSignal), 0, undefined);
  });

  it('wakes every concurrent waiter of one endpoint', async () => {
    const app = fresh();
    const polls = Array.from({ length: 4 }, () =>
      Promise.resolve(app.request('/api/endpoints/fan/requests?wait=5000&count=1')).then(
        (r) => r.json() as Promise<JournalPage>,
      ),
    );
    await until(() => app.mockpoint.journal.waiterCount === 4);
    const sentAt = performance.now();
    await app.request('/endpoint/fan', { method: 'POST', body: 'x' });
    const pages = await Promise.all(polls);
    expect(performance.now() - sentAt).toBeLessThan(4000); // under the 5 s wait: every waiter woken, none timed out
    expect(pages.map((p) => p.complete)).toEqual([true, true, true, true]);
    expect(app.mockpoint.journal.waiterCount).toBe(0);
  });

  it('releases the waiter of a client that goes away', async () => {
    const app = fresh();
    const controller = new AbortController();
    const poll = Promise.resolve(
      app.request('/api/endpoints/gone/requests?wait=30000&count=1', { signal: controller.signal }),
    );
    await until(() => app.mockpoint.journal.waiterCount === 1);
    controller.abort();
    await until(() => app.mockpoint.journal.waiterCount === 0);
    await poll.catch(() => undefined);
  });

  it('over a real socket: wakes on arrival and releases the waiter on disconnect', async () => {
    const app = fresh();
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    try {
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      const { port } = server.address() as { port: number };
      const base = `http://127.0.0.1:${port}`;

      const poll = fetch(`${base}/api/endpoints/live/requests?wait=5000&count=1`).then((r) => r.json());
      await until(() => app.mockpoint.journal.waiterCount === 1);
      const sentAt = performance.now();
      await fetch(`${base}/endpoint/live`, { method: 'POST', body: '{"a":1}' });
      const page = (await poll) as JournalPage;
      expect(performance.now() - sentAt).toBeLessThan(4000); // under the 5 s wait (a timer: never sooner): woken, not timed out
      expect(page.requests[0]).toMatchObject({ method: 'POST', json: { a: 1 }, statusCode: 404 });

      const controller = new AbortController();
      const abandoned = fetch(`${base}/api/endpoints/quiet/requests?wait=30000&count=1`, {
        signal: controller.signal,
      }).catch(() => undefined);
      await until(() => app.mockpoint.journal.waiterCount === 1);
      controller.abort();
      await abandoned;
      await until(() => app.mockpoint.journal.waiterCount === 0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
