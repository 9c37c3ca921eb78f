// The client's queue methods, filtered waits and quiet-period checks.
import { describe, expect, it, vi } from 'vitest';
import { createApp, createClient, JsonText, type MockpointApp, MockpointError } from '../index.js';

function setup(): { app: MockpointApp; client: ReturnType<typeof createClient> } {
  const app = createApp();
  return { app, client: createClient({ baseUrl: 'http://mockpoint.test', app }) };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Resolves once the app holds `n` long-poll waiters. */
async function waiters(app: MockpointApp, n: number): Promise<void> {
  await vi.waitFor(() => expect(app.mockpoint.journal.waiterCount).toBe(n), { timeout: 5000 });
}

describe('client queue methods', () => {
  it('queue appends and resolves with what is queued; queued lists; clearQueue empties', async () => {
    const { client } = setup();
    expect(await client.queue('hook', [{ statusCode: 503, times: 2 }])).toEqual([{ statusCode: 503, times: 2 }]);
    expect(await client.queue('hook', [{ fault: 'reset' }, { data: null }])).toEqual([
      { statusCode: 503, times: 2 },
      { fault: 'reset', times: 1 },
      { data: null, times: 1 },
    ]);
    expect(await client.queued('hook')).toHaveLength(3);
    await client.clearQueue('hook');
    expect(await client.queued('hook')).toEqual([]);
  });

  it('queue sends a JsonText data as its exact text, and the endpoint answers those bytes', async () => {
    const { app, client } = setup();
    const text = '{"id":12345678901234567890,"price":1.0}';
    await client.queue('hook', [{ statusCode: 202, data: JsonText.parse(text) }]);
    const response = await app.request('/endpoint/hook');
    expect(response.status).toBe(202);
    expect(await response.text()).toBe(text);
  });

  it('queue throws the coded error the server answers with', async () => {
    const { client } = setup();
    const error = await rejection(client.queue('hook', [{ fault: 'boom' as 'reset' }]));
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'INVALID_FAULT', status: 400 });
    const full = await rejection(
      client.queue(
        'hook',
        Array.from({ length: 101 }, () => ({})),
      ),
    );
    expect(full).toMatchObject({ code: 'QUEUE_FULL', status: 409 });
  });
});

describe('client filtered waits', () => {
  it('waitForRequests with match returns only matching requests; unrelated ones do not end it', async () => {
    const { app, client } = setup();
    const waiting = client.waitForRequests('hook', {
      match: { method: 'POST', body: { type: 'paid' } },
      timeout: 20_000,
    });
    await waiters(app, 1);
    await client.read('hook');
    await client.read('hook', { method: 'POST', body: JSON.stringify({ type: 'created' }) });
    expect(app.mockpoint.journal.waiterCount).toBe(1);
    await client.read('hook', { method: 'POST', body: JSON.stringify({ type: 'paid', id: 3 }) });
    const requests = await waiting;
    expect(requests.map((r) => r.json)).toEqual([{ type: 'paid', id: 3 }]);
    expect(await client.requests('hook', { match: { method: 'GET' } })).toHaveLength(1);
  });

  it('WAIT_TIMEOUT names the filter', async () => {
    const { client } = setup();
    const error = await rejection(client.waitForRequests('hook', { match: { method: 'DELETE' }, timeout: 50 }));
    expect(error).toMatchObject({ code: 'WAIT_TIMEOUT' });
    expect((error as Error).message).toContain('matching {"method":"DELETE"}');
  });
});

describe('client.expectNoRequests', () => {
  it('resolves after the quiet period when nothing arrives, not before', async () => {
    const { client } = setup();
    const started = Date.now();
    await client.expectNoRequests('hook', { within: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(149);
  });

  it('throws UNEXPECTED_REQUEST as soon as a request arrives, naming it', async () => {
    const { app, client } = setup();
    const quiet = rejection(client.expectNoRequests('hook', { within: 20_000 }));
    await waiters(app, 1);
    await client.read('hook', { method: 'POST', body: '{}' });
    const error = await quiet;
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'UNEXPECTED_REQUEST', status: 417 });
    expect((error as Error).message).toMatch(
      /expected no request to "hook" within 20000 ms, but received POST \/endpoint\/hook after \d+ ms/,
    );
  });

  it('by default counts only requests arriving during the window; after: 0 counts earlier ones', async () => {
    const { client } = setup();
    await client.read('hook', { method: 'POST' });
    await client.expectNoRequests('hook', { within: 50 });
    const error = await rejection(client.expectNoRequests('hook', { within: 50, after: 0 }));
    expect(error).toMatchObject({ code: 'UNEXPECTED_REQUEST' });
  });

  it('with match, ignores requests that do not match', async () => {
    const { app, client } = setup();
    const quiet = client.expectNoRequests('hook', { within: 300, match: { method: 'POST' } });
    await waiters(app, 1);
    await client.read('hook'); // a GET: allowed
    await expect(quiet).resolves.toBeUndefined();
    const noisy = rejection(client.expectNoRequests('hook', { within: 20_000, match: { method: 'POST' } }));
    await waiters(app, 1);
    await client.read('hook', { method: 'POST' });
    expect(await noisy).toMatchObject({ code: 'UNEXPECTED_REQUEST' });
  });

  it('chains long-polls of at most 60 s for a long window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const waits: number[] = [];
      const client = createClient({
        baseUrl: 'http://mockpoint.test',
        fetch: async (request) => {
          const wait = Number(new URL(request.url).searchParams.get('wait'));
          waits.push(wait);
          vi.setSystemTime(Date.now() + wait);
          return Response.json({ requests: [], complete: false });
        },
      });
      await client.expectNoRequests('x', { within: 150_000, after: 0 });
      expect(waits).toEqual([60_000, 60_000, 30_000]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a negative window', async () => {
    const { client } = setup();
    expect(await rejection(client.expectNoRequests('x', { within: -1 }))).toBeInstanceOf(TypeError);
  });
});

// The waits are longer than the test's own timeout (30 s) and the client's longest long-poll (60 s): they
// pass only when the new journal ends the held poll at its first request, not when the poll runs out.
describe('client waits across a restarted journal (a new journalId)', () => {
  /** Two apps behind one client: the second stands for the daemon after a restart (ids start again at 1). */
  async function restartable() {
    const before = createApp();
    const after = createApp();
    let current = before;
    const client = createClient({ baseUrl: 'http://mockpoint.test', fetch: async (request) => current.fetch(request) });
    for (let i = 0; i < 5; i++) await before.request('/endpoint/hook', { method: 'POST', body: `old ${i}` });
    const restart = async () => {
      current = after;
      // The long-poll held by the old journal ends, as when its daemon goes away.
      before.mockpoint.journal.releaseWaiters();
    };
    return { before, after, client, restart };
  }

  it('waitForRequests with an `after` from the old journal gets the first request of the new one', async () => {
    const { before, after, client, restart } = await restartable();
    const last = (await client.requests('hook')).at(-1)?.id ?? 0;
    expect(last).toBe(5);
    const waiting = client.waitForRequests('hook', { after: last, timeout: 120_000 });
    await waiters(before, 1);
    await restart();
    await after.request('/endpoint/hook', { method: 'POST', body: 'new' });
    const got = await waiting;
    expect(got.map((r) => [r.id, r.body])).toEqual([[1, 'new']]);
  });

  it('expectNoRequests notices a request to the new journal, though its id is lower than the cursor', async () => {
    const { before, after, client, restart } = await restartable();
    const quiet = rejection(client.expectNoRequests('hook', { within: 120_000 }));
    await waiters(before, 1);
    await restart();
    await after.request('/endpoint/hook', { method: 'POST', body: 'sent again' });
    expect(await quiet).toMatchObject({ code: 'UNEXPECTED_REQUEST' });
  });
});
