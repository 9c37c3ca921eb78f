import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { serve } from '../adapter/node/index.js';
import { createApp, createClient, type JournalEvent, type LiveRequest, type MockpointApp } from '../index.js';

/** A client whose requests go to whichever app is current (a "restart" swaps it). */
function switchable(first: MockpointApp) {
  const state = { app: first, connections: [] as AbortController[] };
  const client = createClient({
    baseUrl: 'http://mockpoint.test',
    fetch: async (request) => {
      // Each connection can be cut from the outside, like a dropped network link.
      const cut = new AbortController();
      state.connections.push(cut);
      return state.app.fetch(new Request(request, { signal: AbortSignal.any([request.signal, cut.signal]) }));
    },
  });
  return { state, client };
}

async function hit(app: MockpointApp, name: string, body: string): Promise<void> {
  await app.request(`/endpoint/${name}`, { method: 'POST', body });
}

describe('client.watchRequests()', () => {
  it('yields the requests to a name as they arrive (only those matching), and leaving the loop closes the stream', async () => {
    const app = createApp();
    const { client } = switchable(app);
    const journals: JournalEvent[] = [];
    const seen: LiveRequest[] = [];
    const watching = (async () => {
      for await (const request of client.watchRequests('hook', {
        match: { method: 'POST' },
        onJournal: (event) => journals.push(event),
      })) {
        seen.push(request);
        if (seen.length === 2) break;
      }
    })();
    await expect.poll(() => journals.length).toBe(1);
    await app.request('/endpoint/hook'); // a GET: filtered out by the server
    await hit(app, 'other', 'not this name');
    await hit(app, 'hook', '1');
    await hit(app, 'hook', '2');
    await watching;
    expect(seen.map((r) => [r.name, r.method, r.body])).toEqual([
      ['hook', 'POST', '1'],
      ['hook', 'POST', '2'],
    ]);
    expect(journals[0]).toEqual({ journalId: app.mockpoint.journal.id, reset: false, after: 0 });
    await expect.poll(() => app.mockpoint.feed.size).toBe(0);
  });

  it('reconnects by itself after a dropped connection and resumes with Last-Event-ID: no gap, no duplicate', async () => {
    const app = createApp();
    const { state, client } = switchable(app);
    const controller = new AbortController();
    const bodies: string[] = [];
    let disconnects = 0;
    const watching = (async () => {
      for await (const request of client.watchRequests(undefined, {
        signal: controller.signal,
        onDisconnect: () => disconnects++,
      })) {
        bodies.push(request.body);
        if (bodies.length === 1) {
          // The link drops; two requests arrive before the client is back.
          state.connections.at(-1)?.abort();
          await hit(app, 'a', '2');
          await hit(app, 'b', '3');
        }
        if (bodies.length === 4) controller.abort();
      }
    })();
    await expect.poll(() => app.mockpoint.feed.size).toBe(1);
    await hit(app, 'a', '1');
    await expect.poll(() => bodies.length).toBe(3);
    await hit(app, 'a', '4');
    await watching; // ends quietly on abort
    expect(bodies).toEqual(['1', '2', '3', '4']);
    expect(disconnects).toBe(1);
    expect(state.connections).toHaveLength(2);
  });

  it('follows a restarted server: the new journal (reset) is read from its start', async () => {
    const before = createApp();
    const { state, client } = switchable(before);
    const controller = new AbortController();
    const journals: JournalEvent[] = [];
    const bodies: string[] = [];
    const watching = (async () => {
      for await (const request of client.watchRequests('hook', {
        signal: controller.signal,
        onJournal: (event) => journals.push(event),
      })) {
        bodies.push(request.body);
        if (bodies.length === 3) controller.abort();
      }
    })();
    await expect.poll(() => before.mockpoint.feed.size).toBe(1);
    await hit(before, 'hook', 'old');
    await expect.poll(() => bodies.length).toBe(1);
    // The server restarts: a new app (a new journal, ids from 1 again) with requests already in it.
    const after = createApp();
    await hit(after, 'hook', 'new-1');
    state.app = after;
    before.mockpoint.journal.releaseWaiters(); // shutdown ends the old stream
    await expect.poll(() => bodies.length).toBe(2);
    await hit(after, 'hook', 'new-2');
    await watching;
    expect(bodies).toEqual(['old', 'new-1', 'new-2']);
    expect(journals.map((j) => [j.journalId, j.reset])).toEqual([
      [before.mockpoint.journal.id, false],
      [after.mockpoint.journal.id, true],
    ]);
  });

  it('over the network (Node fetch), an abort ends the iteration at once, also while a read is pending', async () => {
    const app = createApp();
    const served = await serve(app, { overrideGlobalObjects: false });
    try {
      const client = createClient({ baseUrl: served.url });
      const controller = new AbortController();
      let journals = 0;
      const watching = (async () => {
        for await (const _ of client.watchRequests(undefined, {
          signal: controller.signal,
          onJournal: () => journals++,
        })) {
          // nothing arrives: the loop waits on a read
        }
      })();
      await expect.poll(() => journals).toBe(1);
      // A garbage collection first: the abort must not depend on objects only the runtime holds.
      setFlagsFromString('--expose-gc');
      (runInNewContext('gc') as () => void)();
      controller.abort();
      await watching;
      await expect.poll(() => app.mockpoint.feed.size).toBe(0);
    } finally {
      await served.close();
    }
  });

  it('throws the server error for a bad filter instead of retrying', async () => {
    const { client } = switchable(createApp());
    const iterator = client.watchRequests('hook', { match: { method: 7 } as never });
    await expect(iterator.next()).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });
});
