import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JournalEntry } from '../../api/journal-json.js';
import { runJournalContract } from '../../journal/journal.case.test.js';
import { BY_RECORD, captureRequest, type RecordedRequest, toJournalEntry } from '../../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT } from '../../registry/limits.js';
import { RequestJournal } from './memory-journal.js';

const encoder = new TextEncoder();

function entry(method = 'POST', body = ''): RecordedRequest {
  return { method, target: '/endpoint/x', rawHeaders: [], body: encoder.encode(body), bodyTruncated: false };
}

/** What the API would list for `request`: captured on the read path, formatted on read. */
async function capture(request: Request, statusCode: number, bodyLimit?: number): Promise<JournalEntry> {
  return toJournalEntry(1, await captureRequest(request, bodyLimit), statusCode, Date.now());
}

// Recording is synchronous: the writer and the reader are the same journal.
runJournalContract('RequestJournal', async (options) => {
  const journal = new RequestJournal(options);
  return { writer: journal, reader: journal, flushed: async () => undefined, close: async () => undefined };
});

describe('RequestJournal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the same entries, ids and names from the whole journal, its pages, each name and a follower', async () => {
    const journal = new RequestJournal();
    const followed: { name: string; entry: JournalEntry }[] = [];
    journal.follow({ wants: () => true, entries: (batch) => followed.push(...batch), ended: () => undefined });
    const names = ['a', 'b', 'c'];
    for (let i = 0; i < 9; i++) {
      const request = entry('POST', JSON.stringify({ i }));
      journal.record(
        names[i % 3] as string,
        request,
        200 + i,
        i % 2 === 0 ? BY_RECORD : undefined,
        1_764_000_000_000 + i,
      );
    }
    const whole = (await journal.since(0)).entries;
    expect(whole.map(({ name, entry: e }) => [name, e.id, e.statusCode, e.json])).toEqual(
      Array.from({ length: 9 }, (_, i) => [names[i % 3], i + 1, 200 + i, { i }]),
    );
    const paged = [];
    for (let after = 0; ; ) {
      const page = (await journal.since(after, undefined, 2)).entries;
      if (page.length === 0) break;
      paged.push(...page);
      after = page.at(-1)?.entry.id ?? after;
    }
    expect(paged).toEqual(whole);
    expect(followed).toEqual(whole);
    for (const name of names) {
      expect(journal.list(name)).toEqual(whole.filter((e) => e.name === name).map((e) => e.entry));
      expect((await journal.since(0, name)).entries).toEqual(whole.filter((e) => e.name === name));
    }
    // The journal's own figures stay its own: an entry has the API's fields only.
    expect(Object.keys(whole[0]?.entry ?? {}).sort()).toEqual(
      ['answeredBy', 'body', 'bodyTruncated', 'headers', 'id', 'json', 'method', 'params', 'path', 'query']
        .concat(['receivedAt', 'statusCode', 'subpath'])
        .sort(),
    );
    expect(whole[0]?.entry).toMatchObject({ answeredBy: 'record', receivedAt: '2025-11-24T16:00:00.000Z' });
    expect(whole[1]?.entry.answeredBy).toBe('none');
  });

  it('stays under maxBytes by dropping the oldest entries of the least recently used names', () => {
    const journal = new RequestJournal({ maxBytes: 10_000 });
    const body = 'x'.repeat(2000); // ~2.3 KB per entry with overhead (body bytes count once)
    journal.record('old', entry('POST', body), 200);
    journal.record('old', entry('POST', body), 200);
    journal.record('mid', entry('POST', body), 200);
    journal.record('new', entry('POST', body), 200);
    expect(journal.bytes).toBeLessThanOrEqual(10_000);
    journal.record('new', entry('POST', body), 200);
    journal.record('new', entry('POST', body), 200);
    expect(journal.bytes).toBeLessThanOrEqual(10_000);
    // Four entries fit. 'old' was least recently used: its entries went first.
    expect(journal.list('old')).toHaveLength(0);
    expect(journal.list('mid')).toHaveLength(1);
    expect(journal.list('new')).toHaveLength(3);
    journal.clearAll();
    expect(journal.bytes).toBe(0);
  });

  it("counts a mark's validation errors and upstream headers against maxBytes, and nothing for the record's mark", () => {
    const journal = new RequestJournal();
    journal.record('a', entry(), 200);
    const plain = journal.bytes;
    journal.record('a', entry(), 200, BY_RECORD);
    expect(journal.bytes).toBe(plain * 2);
    const message = 'm'.repeat(300);
    const errors = Array.from({ length: 20 }, () => ({ in: 'body' as const, path: '/items/0', message }));
    journal.record('a', entry(), 400, { answeredBy: { route: 'r' }, validation: { errors } });
    expect(journal.bytes - plain * 2).toBeGreaterThan(plain + 20 * 300 * 2);
    const before = journal.bytes;
    const headers = { 'set-cookie': ['a'.repeat(1000), 'b'.repeat(1000)], server: 'upstream' };
    journal.record('a', entry(), 200, {
      answeredBy: { route: 'p' },
      upstream: { url: 'http://up', statusCode: 200, headers },
    });
    expect(journal.bytes - before).toBeGreaterThan(plain + 2000 * 2);
  });

  it('keeps the newest entry even when it alone is over maxBytes', () => {
    const journal = new RequestJournal({ maxBytes: 100 });
    journal.record('a', entry('POST', 'first'), 200);
    journal.record('a', entry('POST', 'y'.repeat(500)), 200);
    expect(journal.list('a').map((e) => e.body.length)).toEqual([500]);
  });

  it('reads and immediate answers never create rings, so they cannot push real journals out', async () => {
    const journal = new RequestJournal({ maxNames: 2 });
    journal.record('a', entry(), 200);
    journal.record('b', entry(), 200);
    for (const name of ['x', 'y', 'z']) {
      expect(journal.list(name)).toEqual([]);
      expect((await journal.wait(name, 1, 0)).complete).toBe(false);
    }
    expect(journal.list('a')).toHaveLength(1);
    expect(journal.list('b')).toHaveLength(1);
  });

  it('drops the least recently used name past maxNames', () => {
    const journal = new RequestJournal({ maxNames: 2 });
    journal.record('a', entry(), 200);
    journal.record('b', entry(), 200);
    journal.record('a', entry(), 200); // a is now the most recent
    journal.record('c', entry(), 200);
    expect(journal.list('b')).toEqual([]);
    expect(journal.list('a')).toHaveLength(2);
    expect(journal.list('c')).toHaveLength(1);
  });

  it('wait times out after exactly timeoutMs with what there is', async () => {
    vi.useFakeTimers();
    const journal = new RequestJournal();
    journal.record('a', entry(), 200);
    let page: Awaited<ReturnType<RequestJournal['wait']>> | undefined;
    // The fake clock's time when the wait answered: exact, however the runner's own
    // steps through the fake clock are scheduled on a loaded machine.
    const start = Date.now();
    let answeredAfter: number | undefined;
    void journal.wait('a', 3, 60_000).then((p) => {
      page = p;
      answeredAfter = Date.now() - start;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(answeredAfter).toBe(60_000);
    expect(page?.complete).toBe(false);
    expect(page?.requests).toHaveLength(1);
    expect(journal.waiterCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an aborted signal releases the waiter and its timer', async () => {
    vi.useFakeTimers();
    const journal = new RequestJournal();
    const controller = new AbortController();
    const pending = journal.wait('a', 1, 60_000, controller.signal);
    expect(journal.waiterCount).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await expect(pending).resolves.toEqual({ requests: [], complete: false });
    expect(journal.waiterCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with every name held by a long-poll, a new name is recorded, its long-poll woken, its bytes counted once', async () => {
    const journal = new RequestJournal({ maxNames: 3 });
    const held = ['a', 'b', 'c'].map((name) => journal.wait(name, 1, 60_000));
    const fresh = journal.wait('new', 1, 60_000);
    journal.record('new', entry('POST', 'hello'), 200);
    await expect(fresh).resolves.toMatchObject({ complete: true, requests: [{ body: 'hello' }] });
    journal.record('other', entry('POST', 'x'), 200); // evicts 'new' (no waiter now), never itself
    expect(journal.list('other')).toHaveLength(1);
    expect(journal.list('new')).toHaveLength(0);
    journal.clearAll();
    expect(journal.bytes).toBe(0); // nothing counted in a ring that was evicted
    journal.releaseWaiters();
    await Promise.all(held);
  });

  it('does not evict a name that has waiters', async () => {
    const journal = new RequestJournal({ maxNames: 1 });
    const pending = journal.wait('waited', 1, 60_000);
    journal.record('other', entry(), 200);
    journal.record('waited', entry(), 200);
    await expect(pending).resolves.toMatchObject({ complete: true });
  });
});

describe('captureRequest and toJournalEntry', () => {
  it('records method, path, repeated query keys as arrays, headers, body and parsed JSON', async () => {
    const request = new Request('http://x/endpoint/hook?a=1&a=2&b=3&__proto__=p', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Custom': 'yes' },
      body: '{"k":[1,2]}',
    });
    const e = await capture(request, 201);
    expect(e).toMatchObject({
      method: 'POST',
      path: '/endpoint/hook',
      body: '{"k":[1,2]}',
      bodyTruncated: false,
      json: { k: [1, 2] },
      statusCode: 201,
    });
    expect(e.query).toEqual({ a: ['1', '2'], b: '3', ['__proto__']: 'p' });
    expect(Object.getPrototypeOf(e.query)).toBe(Object.prototype);
    expect(e.headers['x-custom']).toBe('yes');
    expect(e.headers['content-type']).toBe('application/json');
    expect(new Date(e.receivedAt).toISOString()).toBe(e.receivedAt);
  });

  it('leaves json absent for a body that is not JSON, and for no body', async () => {
    const text = await capture(new Request('http://x/endpoint/a', { method: 'POST', body: 'hello' }), 200);
    expect(text.body).toBe('hello');
    expect('json' in text).toBe(false);
    const none = await capture(new Request('http://x/endpoint/a'), 200);
    expect(none.body).toBe('');
    expect('json' in none).toBe(false);
  });

  it('keeps JSON null and false as parsed values', async () => {
    const nul = await capture(new Request('http://x/endpoint/a', { method: 'PUT', body: 'null' }), 200);
    expect('json' in nul).toBe(true);
    expect(nul.json).toBeNull();
  });

  it('keeps the first 64 KiB of a longer body and flags it truncated', async () => {
    const long = `${'a'.repeat(JOURNAL_BODY_LIMIT)}tail`;
    const e = await capture(new Request('http://x/endpoint/a', { method: 'POST', body: long }), 200);
    expect(JOURNAL_BODY_LIMIT).toBe(64 * 1024);
    expect(e.bodyTruncated).toBe(true);
    expect(e.body).toBe('a'.repeat(JOURNAL_BODY_LIMIT));
    expect('json' in e).toBe(false);
    const exact = await capture(
      new Request('http://x/endpoint/a', { method: 'POST', body: 'b'.repeat(JOURNAL_BODY_LIMIT) }),
      200,
    );
    expect(exact.bodyTruncated).toBe(false);
    expect(exact.body).toHaveLength(JOURNAL_BODY_LIMIT);
  });

  it('reads a chunked stream body and cuts it at the limit without a broken character', async () => {
    // Three chunks; the limit falls inside the 3-byte "€".
    const chunks = [encoder.encode('ab'), encoder.encode('c€'), encoder.encode('rest')];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const request = new Request('http://x/endpoint/a', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    const e = await capture(request, 200, 4);
    expect(e.bodyTruncated).toBe(true);
    expect(e.body).toBe('abc');
  });

  it('formats raw headers: lower-cased names, repeats joined, __proto__ kept as a header', () => {
    const e = toJournalEntry(
      7,
      { ...entry('GET'), target: '/endpoint/x?q=1', rawHeaders: ['X-Twice', 'a', 'x-twice', 'b', '__proto__', 'p'] },
      200,
      Date.UTC(2026, 0, 2, 3, 4, 5),
    );
    expect(e.headers).toEqual({ 'x-twice': 'a, b', ['__proto__']: 'p' });
    expect(Object.getPrototypeOf(e.headers)).toBe(Object.prototype);
    expect(e).toMatchObject({ id: 7, path: '/endpoint/x', query: { q: '1' }, receivedAt: '2026-01-02T03:04:05.000Z' });
  });
});
