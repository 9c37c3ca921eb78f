import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal-json.js';
import { readSse, type SseMessage } from '../client/sse-reader.js';
import { type CreateAppOptions, createApp, type JournalPage, type MockpointApp } from '../index.js';
import { RequestJournal } from '../store/memory/memory-journal.js';
import { countingJournal } from '../test-support/counting-journal.js';
import { JOURNAL_READ_PAGE, type JournalSince } from './journal.js';

/** An open stream: its events one at a time, each awaited (no polling, no sleeps). */
function events(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const body = response.body as ReadableStream<Uint8Array>;
  const iterator = readSse(body);
  return {
    async next(): Promise<SseMessage> {
      const { value, done } = await iterator.next();
      if (done) throw new Error('the stream ended');
      return value;
    },
    /** The events left, once the stream has ended. */
    async rest(): Promise<SseMessage[]> {
      const left: SseMessage[] = [];
      for await (const message of { [Symbol.asyncIterator]: () => iterator }) left.push(message);
      return left;
    },
    /** Leaves the stream: the reader cancels it (a generator never started holds no reader: cancel the body). */
    async close(): Promise<void> {
      await iterator.return(undefined);
      if (!body.locked) await body.cancel();
    },
  };
}

async function open(app: MockpointApp, path: string, headers: Record<string, string> = {}) {
  return events(await app.request(path, { headers }));
}

async function hit(app: MockpointApp, name: string, init: RequestInit = {}): Promise<void> {
  await app.request(`/endpoint/${name}`, init);
}

const data = (message: SseMessage) => JSON.parse(message.data) as Record<string, unknown>;

function fresh(options: CreateAppOptions = {}): MockpointApp {
  return createApp(options);
}

describe('journal stream', () => {
  it('sends each request to the name as it is recorded, in the shape of the journal, with the entry id as event id', async () => {
    const app = fresh();
    const stream = await open(app, '/api/endpoints/hook/requests/stream');
    const first = await stream.next();
    expect(first.event).toBe('journal');
    expect(data(first)).toEqual({ journalId: app.mockpoint.journal.id, reset: false, after: 0 });
    expect(first.retry).toBe(1000);

    await hit(app, 'other', { method: 'POST', body: 'not for this stream' });
    await hit(app, 'hook?x=1', { method: 'POST', headers: { 'x-sig': 'abc' }, body: '{"n":1}' });
    const message = await stream.next();
    expect(message.event).toBe('request');
    const listed = (await (await app.request('/api/endpoints/hook/requests')).json()) as JournalPage;
    const entry = listed.requests[0];
    expect(message.id).toBe(String(entry?.id));
    // The stream sends an entry as it is recorded, before its answer is sent: without the times measured then.
    const { timings, ...recorded } = entry as JournalEntry;
    expect(timings?.wait).toBeGreaterThanOrEqual(0);
    expect(data(message)).toEqual({ name: 'hook', ...recorded });
    expect(data(message)).toMatchObject({ method: 'POST', query: { x: '1' }, json: { n: 1 }, statusCode: 404 });
    await stream.close();
  });

  it('sends every name on /api/requests/stream, and only what ?match= accepts', async () => {
    const app = fresh();
    const all = await open(app, '/api/requests/stream');
    const posts = await open(
      app,
      `/api/requests/stream?match=${encodeURIComponent('{"method":"POST","body":{"t":"paid"}}')}`,
    );
    await all.next();
    await posts.next();
    await hit(app, 'a', { method: 'GET' });
    await hit(app, 'b', { method: 'POST', body: '{"t":"refund"}' });
    await hit(app, 'c', { method: 'POST', body: '{"t":"paid","x":1}' });
    expect([await all.next(), await all.next(), await all.next()].map((m) => data(m).name)).toEqual(['a', 'b', 'c']);
    const matched = await posts.next();
    expect(data(matched)).toMatchObject({ name: 'c', json: { t: 'paid', x: 1 } });
    await all.close();
    await posts.close();
  });

  it('refuses a bad filter or cursor with 400 INVALID_QUERY before streaming', async () => {
    const app = fresh();
    const bad = await app.request('/api/requests/stream?match=%7Bnope');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_QUERY');
    const cursor = await app.request('/api/requests/stream', { headers: { 'last-event-id': 'abc' } });
    expect(cursor.status).toBe(400);
    expect(app.mockpoint.feed.size).toBe(0);
  });

  it('resumes after Last-Event-ID (or ?after=) without a gap or a duplicate, then goes live', async () => {
    const app = fresh();
    for (let i = 1; i <= 5; i++) await hit(app, 'hook', { method: 'POST', body: String(i) });
    const byHeader = await open(app, '/api/endpoints/hook/requests/stream?after=1', { 'last-event-id': '3' });
    expect(data(await byHeader.next())).toMatchObject({ reset: false, after: 3 });
    expect([(await byHeader.next()).data, (await byHeader.next()).data].map((d) => JSON.parse(d).body)).toEqual([
      '4',
      '5',
    ]);
    const byQuery = await open(app, '/api/endpoints/hook/requests/stream?after=0');
    await byQuery.next();
    for (let i = 1; i <= 5; i++) expect(data(await byQuery.next()).body).toBe(String(i));
    await hit(app, 'hook', { method: 'POST', body: '6' });
    expect(data(await byHeader.next()).body).toBe('6');
    expect(data(await byQuery.next()).body).toBe('6');
    await byHeader.close();
    await byQuery.close();
  });

  it('sends a big backlog (after=0) a page at a time, the event loop running between pages, in order', async () => {
    const { journal, pages } = countingJournal({ size: 1000 });
    const app = fresh({ journal });
    for (let i = 0; i < 1000; i++) await hit(app, 'hook', { method: 'POST', body: String(i) });
    let turned = false;
    setTimeout(() => {
      turned = true;
    }, 0);
    const stream = await open(app, '/api/requests/stream?after=0');
    await stream.next(); // the journal event
    const ids: number[] = [];
    for (let i = 0; i < 1000; i++) ids.push(Number((await stream.next()).id));
    // A timer set before the stream opened ran before its backlog was read: the read did not hold the loop.
    expect(turned).toBe(true);
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(Math.max(...pages)).toBeLessThanOrEqual(JOURNAL_READ_PAGE);
    await stream.close();
  });

  it('stops reading the backlog once the stream has ended (a slow reader), not page after page for nobody', async () => {
    const reads: number[] = [];
    class CountingJournal extends RequestJournal {
      override async since(after: number, name?: string, limit?: number): Promise<JournalSince> {
        reads.push(after);
        return super.since(after, name, limit);
      }
    }
    const journal = new CountingJournal({ size: 1000 });
    const body = new TextEncoder().encode('x'.repeat(1024));
    for (let i = 0; i < 1000; i++) {
      journal.record(
        'hook',
        { method: 'POST', target: '/endpoint/hook', rawHeaders: [], body, bodyTruncated: false },
        200,
      );
    }
    const app = fresh({ journal, journalStreams: { maxBufferedBytes: 64 * 1024 } });
    const stream = await open(app, '/api/requests/stream?after=0');
    const rest = await stream.rest();
    expect((rest.at(-1) as SseMessage).event).toBe('end');
    expect(data(rest.at(-1) as SseMessage)).toMatchObject({ reason: 'slow-reader' });
    // One macrotask turn: the pager waits exactly one between pages, so a next page would have been asked for by now.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The head (journal id, newest id), then the first page, which overflowed the buffer: nothing more.
    expect(reads).toEqual([Number.MAX_SAFE_INTEGER, 0]);
  });

  it('sends a request that arrives during the first read once, not twice (read and live)', async () => {
    // A journal on which a request arrives while a stream's first read is under way.
    class BusyJournal extends RequestJournal {
      #arrived = false;
      override async since(after: number, name?: string, limit?: number): Promise<JournalSince> {
        // Once, during the first of the reads a stream's start makes.
        if (this.#arrived) return super.since(after, name, limit);
        this.#arrived = true;
        this.record(
          'hook',
          {
            method: 'POST',
            target: '/endpoint/hook',
            rawHeaders: [],
            body: new Uint8Array([49]),
            bodyTruncated: false,
          },
          200,
        );
        return super.since(after, name, limit);
      }
    }
    const app = fresh({ journal: new BusyJournal() });
    const stream = await open(app, '/api/endpoints/hook/requests/stream?after=0');
    await stream.next();
    const first = await stream.next();
    await hit(app, 'hook', { method: 'POST', body: '2' });
    const second = await stream.next();
    expect([first.id, data(second).body]).toEqual(['1', '2']);
    await stream.close();
  });

  it('announces a journal that started anew (another journalId, or a cursor past its newest id) and reads it from the start', async () => {
    const app = fresh();
    await hit(app, 'hook', { method: 'POST', body: 'a' });
    await hit(app, 'hook', { method: 'POST', body: 'b' });
    const other = await open(app, '/api/endpoints/hook/requests/stream?journal=an-old-journal', {
      'last-event-id': '1',
    });
    expect(data(await other.next())).toEqual({ journalId: app.mockpoint.journal.id, reset: true, after: 0 });
    expect(data(await other.next()).body).toBe('a');
    expect(data(await other.next()).body).toBe('b');
    const ahead = await open(app, '/api/endpoints/hook/requests/stream', { 'last-event-id': '900' });
    expect(data(await ahead.next())).toMatchObject({ reset: true, after: 0 });
    expect(data(await ahead.next()).body).toBe('a');
    const same = await open(app, `/api/endpoints/hook/requests/stream?journal=${app.mockpoint.journal.id}`, {
      'last-event-id': '1',
    });
    expect(data(await same.next())).toMatchObject({ reset: false, after: 1 });
    expect(data(await same.next()).body).toBe('b');
    for (const s of [other, ahead, same]) await s.close();
  });

  it('keeps an idle stream open with heartbeat comments', async () => {
    const app = fresh({ journalStreams: { heartbeatMs: 30 } });
    const response = await app.request('/api/requests/stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const text = new TextDecoder();
    let seen = '';
    while (!seen.includes(': keep-alive\n\n')) seen += text.decode((await reader.read()).value);
    expect(seen.startsWith('retry: 1000\nevent: journal\n')).toBe(true);
    await reader.cancel();
  });

  it('drops a reader that falls too far behind with a final end event, keeping nothing for it', async () => {
    const app = fresh({ journalStreams: { maxBufferedBytes: 8 * 1024 } });
    const slow = await open(app, '/api/requests/stream');
    await slow.next(); // the journal event; then it reads nothing while 40 requests of 1 KiB arrive
    for (let i = 0; i < 40; i++) await hit(app, 'hook', { method: 'POST', body: 'x'.repeat(1024) });
    expect(app.mockpoint.feed.size).toBe(0);
    const rest = await slow.rest();
    const last = rest.at(-1) as SseMessage;
    expect(last.event).toBe('end');
    expect(data(last)).toMatchObject({ reason: 'slow-reader' });
    // Whatever it had not been handed yet was dropped, not kept: far fewer than 40 requests.
    expect(rest.filter((m: SseMessage) => m.event === 'request').length).toBeLessThan(10);
  });

  it('caps the number of open streams (TOO_MANY_STREAMS), shown in health limits; a closed one frees its place', async () => {
    const app = fresh({ maxStreams: 2 });
    const health = (await (await app.request('/api/health')).json()) as { limits: { maxStreams: number } };
    expect(health.limits.maxStreams).toBe(2);
    const a = await open(app, '/api/requests/stream');
    const b = await open(app, '/api/endpoints/x/requests/stream');
    const refused = await app.request('/api/requests/stream');
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_STREAMS');
    await a.next();
    await a.close();
    expect(app.mockpoint.feed.size).toBe(1);
    const c = await open(app, '/api/requests/stream');
    await c.close();
    await b.close();
    expect(app.mockpoint.feed.size).toBe(0);
  });

  it('ends every open stream when the journal shuts down, and a stream opened later ends at once', async () => {
    const app = fresh();
    const stream = await open(app, '/api/endpoints/hook/requests/stream');
    await stream.next();
    app.mockpoint.journal.releaseWaiters();
    const rest = await stream.rest();
    expect(rest.map((m: SseMessage) => [m.event, data(m).reason])).toEqual([['end', 'shutdown']]);
    const late = await open(app, '/api/requests/stream');
    expect((await late.rest()).at(-1)?.event).toBe('end');
    expect(app.mockpoint.feed.size).toBe(0);
  });

  it('answers HEAD with the stream headers without opening a stream', async () => {
    const app = fresh();
    const response = await app.request('/api/requests/stream', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(app.mockpoint.feed.size).toBe(0);
  });

  it('is documented in the OpenAPI document as text/event-stream with the entry shape', async () => {
    const doc = (await (await fresh().request('/api/openapi.json')).json()) as {
      paths: Record<
        string,
        { get: { responses: Record<string, { content?: Record<string, { schema: { properties: object } }> }> } }
      >;
    };
    for (const path of ['/api/endpoints/{name}/requests/stream', '/api/requests/stream']) {
      const ok = doc.paths[path]?.get.responses['200'];
      expect(Object.keys(ok?.content ?? {})).toEqual(['text/event-stream']);
      expect(Object.keys(ok?.content?.['text/event-stream']?.schema.properties ?? {})).toEqual(
        expect.arrayContaining(['name', 'id', 'method', 'body']),
      );
    }
  });
});
