/**
 * The shared contract every {@link Journal} must pass (the memory journal and
 * the Redis journal). Each journal's own test file calls {@link runJournalContract};
 * this file is excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * Every case records through one view of the journal and reads through another:
 * for a journal in memory they are the same object, for a shared journal they
 * are two replicas, so "listed as recorded" also means "listed by every replica".
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RespondAnswer } from '../answer/endpoint-answer.js';
import type { JournalEntry } from '../api/journal-json.js';
import { answered } from './answer-record.js';
import { JOURNAL_READ_PAGE, type Journal, readJournalPaged } from './journal.js';
import { byQueue, type RecordedRequest } from './journal-entry.js';

/** The bounds a contract case may set; absent ones take the journal's defaults. */
export interface JournalContractOptions {
  size?: number;
  maxNames?: number;
  maxBytes?: number;
  maxWaiters?: number;
}

/** One journal under test, seen through two views. */
export interface JournalUnderTest {
  /** Where requests are recorded. */
  writer: Journal;
  /** Where they are read: `writer` itself, or another replica of the same journal. */
  reader: Journal;
  /** Resolves once every request recorded through `writer` is stored (at once where recording is synchronous). */
  flushed(): Promise<void>;
  /** Releases what the journal holds (connections); called after each case. */
  close(): Promise<void>;
}

/** Makes a fresh, empty journal with the given bounds. */
export type JournalFactory = (options: JournalContractOptions) => Promise<JournalUnderTest>;

const encoder = new TextEncoder();

/** A request as an adapter hands it over. */
function request(body: string | Uint8Array, target = '/endpoint/hook', method = 'POST'): RecordedRequest {
  return {
    method,
    target,
    rawHeaders: ['Content-Type', 'application/json', 'X-Trace', 'abc'],
    body: typeof body === 'string' ? encoder.encode(body) : body,
    bodyTruncated: false,
  };
}

const bodies = (entries: JournalEntry[]) => entries.map((entry) => entry.body);

/** Registers the journal contract suite under `describe(name)`. */
export function runJournalContract(name: string, factory: JournalFactory): void {
  describe(`${name}: Journal contract`, () => {
    const open: JournalUnderTest[] = [];

    async function fresh(options: JournalContractOptions = {}): Promise<JournalUnderTest> {
      const journal = await factory(options);
      open.push(journal);
      return journal;
    }

    afterEach(async () => {
      for (const journal of open.splice(0)) {
        journal.writer.releaseWaiters();
        journal.reader.releaseWaiters();
        await journal.close();
      }
    });

    it('keeps a WebSocket message: its connection and direction, a binary frame as base64 even when it is UTF-8', async () => {
      const { writer, reader, flushed } = await fresh();
      const message = (body: Uint8Array, socket: NonNullable<RecordedRequest['socket']>): RecordedRequest => ({
        method: socket.code === undefined ? 'MESSAGE' : 'CLOSE',
        target: '/endpoint/ws/room',
        rawHeaders: [],
        body,
        bodyTruncated: false,
        socket,
      });
      writer.record('ws', message(encoder.encode('{"a":1}'), { direction: 'in', connection: 'c1' }), 0);
      writer.record('ws', message(encoder.encode('abc'), { direction: 'out', connection: 'c1', binary: true }), 0);
      writer.record('ws', message(encoder.encode('bye'), { direction: 'in', connection: 'c1', code: 4000 }), 0);
      await flushed();
      const page = await reader.wait('ws', 3, 0);
      expect(page.requests.map((e) => [e.method, e.body, e.bodyEncoding, e.json, e.websocket])).toEqual([
        ['MESSAGE', '{"a":1}', undefined, { a: 1 }, { direction: 'in', connection: 'c1' }],
        ['MESSAGE', 'YWJj', 'base64', undefined, { direction: 'out', connection: 'c1' }],
        ['CLOSE', 'bye', undefined, undefined, { direction: 'in', connection: 'c1', code: 4000 }],
      ]);
      expect(page.requests.map((e) => e.subpath)).toEqual(['/room', '/room', '/room']);
    });

    it('keeps what was answered (headers, exact body bytes), the times measured and the host it was sent to', async () => {
      const { writer, reader, flushed } = await fresh();
      const sent = request('{"n":1}', '/endpoint/hook/x');
      sent.host = 'api.stripe.com:443';
      sent.startedAt = 100;
      const answer: RespondAnswer = {
        kind: 'respond',
        status: 201,
        headers: { 'content-type': 'application/octet-stream', 'set-cookie': ['a=1', 'b=2'] },
        body: new Uint8Array([0xff, 0x00, 0x41]),
        delay: 0,
      };
      answered(sent, answer);
      // As a sink measures them (before the journal's own write, as the Node sink does for an answer sent at once).
      sent.firstByteAt = 112.5;
      sent.doneAt = 120.25;
      writer.record('hook', sent, 201);
      writer.record('hook', request('plain'), 404);
      await flushed();
      const [first, second] = (await reader.wait('hook', 2, 0)).requests;
      expect(first).toMatchObject({
        statusCode: 201,
        host: 'api.stripe.com:443',
        response: {
          headers: { 'content-type': 'application/octet-stream', 'set-cookie': ['a=1', 'b=2'] },
          body: '/wBB',
          bodyEncoding: 'base64',
          bodySize: 3,
          bodyTruncated: false,
        },
        timings: { wait: 12.5, total: 20.25 },
      });
      expect(second).not.toHaveProperty('response');
      expect(second).not.toHaveProperty('host');
      expect(second).not.toHaveProperty('timings');
    });

    it('lists what was recorded per name, oldest first, with increasing ids, as the API shows it', async () => {
      const { writer, reader, flushed } = await fresh();
      writer.record('hook', request('{"event":"paid"}', '/endpoint/hook?x=1&x=2&y=3'), 201);
      writer.record('other', request('elsewhere'), 200);
      writer.record('hook', request('2', '/endpoint/hook', 'PUT'), 404);
      await flushed();
      const page = await reader.wait('hook', 1, 0);
      expect(page.complete).toBe(true);
      expect(page.requests[0]).toEqual({
        id: expect.any(Number),
        method: 'POST',
        path: '/endpoint/hook',
        subpath: '/',
        params: {},
        answeredBy: 'none',
        query: { x: ['1', '2'], y: '3' },
        headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
        body: '{"event":"paid"}',
        bodyTruncated: false,
        json: { event: 'paid' },
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        statusCode: 201,
      });
      expect(page.requests.map((entry) => [entry.method, entry.statusCode])).toEqual([
        ['POST', 201],
        ['PUT', 404],
      ]);
      expect(page.requests[0]!.id).toBeLessThan(page.requests[1]!.id);
      expect(bodies((await reader.wait('other', 1, 0)).requests)).toEqual(['elsewhere']);
      expect(await reader.wait('never', 1, 0)).toEqual({ requests: [], complete: false });
    });

    it('keeps a body that is not UTF-8 as base64, a truncated one flagged, a too-deep JSON one as text', async () => {
      const { writer, reader, flushed } = await fresh();
      const bytes = new Uint8Array([0xff, 0x00, 0xfe, 0x80]);
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      writer.record('bin', request(bytes), 200);
      writer.record('cut', { ...request('{"partial'), bodyTruncated: true }, 200);
      writer.record('deep', request(deep), 200);
      await flushed();
      const [binary] = (await reader.wait('bin', 1, 0)).requests;
      expect(binary).toMatchObject({ body: Buffer.from(bytes).toString('base64'), bodyEncoding: 'base64' });
      const [cut] = (await reader.wait('cut', 1, 0)).requests;
      expect(cut).toMatchObject({ body: '{"partial', bodyTruncated: true });
      expect(cut && 'json' in cut).toBe(false);
      const [deepEntry] = (await reader.wait('deep', 1, 0)).requests;
      expect(deepEntry?.body).toBe(deep);
      expect(deepEntry && ('json' in deepEntry || 'bodyEncoding' in deepEntry)).toBe(false);
    });

    it('keeps who answered, the subpath and the route parameters of every request', async () => {
      const { writer, reader, flushed } = await fresh();
      const below = { ...request('x'), target: '/endpoint/api/users/42?page=2' };
      writer.record('api', below, 201, { answeredBy: { route: 'user' }, params: { id: '42' } });
      writer.record('api', request('y'), 200, { answeredBy: 'record' });
      writer.record('api', { ...request('z'), target: '/endpoint/api/' }, 404, { answeredBy: 'none' });
      writer.record('api', request('q'), 503, byQueue());
      await flushed();
      const entries = (await reader.wait('api', 4, 0)).requests;
      expect(entries.map((entry) => [entry.subpath, entry.params, entry.answeredBy])).toEqual([
        ['/users/42', { id: '42' }, { route: 'user' }],
        ['/', {}, 'record'],
        ['/', {}, 'none'],
        ['/', {}, { queue: true }],
      ]);
    });

    it('marks a request answered from the queue, with its fault; other requests carry no mark', async () => {
      const { writer, reader, flushed } = await fresh();
      writer.record('retry', request('1'), 503, byQueue());
      writer.record('retry', request('2'), 0, byQueue('reset'));
      writer.record('retry', request('3'), 200);
      await flushed();
      const entries = (await reader.wait('retry', 3, 0)).requests;
      expect(entries.map((entry) => [entry.statusCode, entry.queued, entry.fault])).toEqual([
        [503, true, undefined],
        [0, true, 'reset'],
        [200, undefined, undefined],
      ]);
      expect(Object.hasOwn(entries[0]!, 'fault')).toBe(false);
      expect(Object.hasOwn(entries[2]!, 'queued')).toBe(false);
    });

    it('with `after` lists only newer entries, and a filter applies to reads that do not wait', async () => {
      const { writer, reader, flushed } = await fresh();
      for (const body of ['1', '2', '3']) writer.record('n', request(body), 200);
      await flushed();
      const [first] = (await reader.wait('n', 1, 0)).requests;
      expect(bodies((await reader.wait('n', 1, 0, undefined, first!.id)).requests)).toEqual(['2', '3']);
      const odd = (entry: JournalEntry) => Number(entry.body) % 2 === 1;
      expect(bodies((await reader.wait('n', 1, 0, undefined, 0, odd)).requests)).toEqual(['1', '3']);
      expect(await reader.wait('n', 3, 0, undefined, 0, odd)).toMatchObject({ complete: false });
    });

    it('a long-poll is woken by the count-th request (not by its timeout) and counts as a waiter until then', async () => {
      const { writer, reader, flushed } = await fresh();
      const started = Date.now();
      const waiting = reader.wait('wake', 2, 20_000);
      await expect.poll(() => reader.waitersFor('wake')).toBe(1);
      expect([reader.waiterCount, reader.waitersFor('other')]).toEqual([1, 0]);
      writer.record('wake', request('first'), 200);
      await flushed();
      // Once this reader has seen the first request, the wait for two still waits.
      await reader.wait('wake', 1, 20_000);
      expect(reader.waitersFor('wake')).toBe(1);
      writer.record('wake', request('second'), 200);
      const page = await waiting;
      expect(page).toMatchObject({ complete: true });
      expect(bodies(page.requests)).toEqual(['first', 'second']);
      // The bound is the behaviour: woken by the second request, not ended by the 20 s timeout; generous.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect([reader.waiterCount, reader.waitersFor('wake')]).toEqual([0, 0]);
    });

    it('answers at once when enough entries exist, and wakes every waiter of a name', async () => {
      const { writer, reader, flushed } = await fresh();
      writer.record('ready', request('here'), 200);
      await flushed();
      expect(await reader.wait('ready', 1, 20_000)).toMatchObject({ complete: true, requests: [{ body: 'here' }] });
      expect(reader.waiterCount).toBe(0);
      const waits = [1, 2, 3].map(() => reader.wait('many', 1, 20_000));
      await expect.poll(() => reader.waitersFor('many')).toBe(3);
      writer.record('many', request('one'), 200);
      const pages = await Promise.all(waits);
      expect(pages.map((page) => [page.complete, bodies(page.requests)])).toEqual([
        [true, ['one']],
        [true, ['one']],
        [true, ['one']],
      ]);
      expect(reader.waiterCount).toBe(0);
    });

    it('a filtered long-poll counts only matching requests', async () => {
      const { writer, reader, flushed } = await fresh();
      const paid = (entry: JournalEntry) => (entry.json as { type?: string } | undefined)?.type === 'order.paid';
      const waiting = reader.wait('orders', 2, 20_000, undefined, 0, paid);
      await expect.poll(() => reader.waitersFor('orders')).toBe(1);
      writer.record('orders', request('{"type":"order.created"}'), 200);
      writer.record('orders', request('{"type":"order.paid","n":1}'), 200);
      writer.record('orders', request('', '/endpoint/orders', 'GET'), 200);
      await flushed();
      // Once this reader has seen three requests (one match), the wait for two matches still waits.
      await reader.wait('orders', 3, 20_000);
      expect(reader.waitersFor('orders')).toBe(1);
      writer.record('orders', request('{"type":"order.paid","n":2}'), 200);
      const page = await waiting;
      expect(page.complete).toBe(true);
      expect(bodies(page.requests)).toEqual(['{"type":"order.paid","n":1}', '{"type":"order.paid","n":2}']);
    });

    it('a wait ends at its timeout with what there is', async () => {
      const { writer, reader, flushed } = await fresh();
      writer.record('some', request('only'), 200);
      await flushed();
      const started = Date.now();
      const page = await reader.wait('some', 3, 300);
      // A timer may fire late under load, never early.
      expect(Date.now() - started).toBeGreaterThanOrEqual(295);
      expect(page).toEqual({ requests: [expect.objectContaining({ body: 'only' })], complete: false });
      expect(reader.waiterCount).toBe(0);
    });

    it('an abort ends a wait at once; an aborted signal or a zero timeout does not wait', async () => {
      const { reader } = await fresh();
      const started = Date.now();
      const controller = new AbortController();
      const aborted = reader.wait('none', 1, 20_000, controller.signal);
      await expect.poll(() => reader.waitersFor('none')).toBe(1);
      controller.abort();
      await expect(aborted).resolves.toEqual({ requests: [], complete: false });
      expect(reader.waiterCount).toBe(0);
      await expect(reader.wait('none', 1, 20_000, controller.signal)).resolves.toMatchObject({ complete: false });
      await expect(reader.wait('none', 1, 0)).resolves.toMatchObject({ complete: false });
      expect(reader.waiterCount).toBe(0);
      // Each wait would otherwise end only at its 20 s timeout, with the same answer.
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('releaseWaiters answers pending waits at once and every later one immediately', async () => {
      const { reader } = await fresh();
      const started = Date.now();
      const held = reader.wait('none', 1, 20_000);
      await expect.poll(() => reader.waiterCount).toBe(1);
      reader.releaseWaiters();
      await expect(held).resolves.toEqual({ requests: [], complete: false });
      expect(reader.waiterCount).toBe(0);
      await expect(reader.wait('none', 1, 20_000)).resolves.toEqual({ requests: [], complete: false });
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('refuses a long-poll past maxWaiters with TOO_MANY_WAITERS, and takes one again once a wait ends', async () => {
      const { writer, reader } = await fresh({ maxWaiters: 2 });
      const controller = new AbortController();
      const first = reader.wait('a', 1, 20_000, controller.signal);
      const second = reader.wait('b', 1, 20_000);
      await expect.poll(() => reader.waiterCount).toBe(2);
      await expect(reader.wait('c', 1, 20_000)).rejects.toMatchObject({ code: 'TOO_MANY_WAITERS', status: 503 });
      // A read without waiting is never refused.
      await expect(reader.wait('c', 1, 0)).resolves.toMatchObject({ complete: false });
      controller.abort();
      await first;
      expect(reader.waiterCount).toBe(1);
      const third = reader.wait('c', 1, 20_000);
      await expect.poll(() => reader.waitersFor('c')).toBe(1);
      writer.record('b', request('b'), 200);
      writer.record('c', request('c'), 200);
      const pages = await Promise.all([second, third]);
      expect(pages.map((page) => bodies(page.requests))).toEqual([['b'], ['c']]);
      expect(reader.waiterCount).toBe(0);
    });

    it('keeps the last `size` requests per name', async () => {
      const { writer, reader, flushed } = await fresh({ size: 3 });
      for (let i = 1; i <= 5; i++) writer.record('ring', request(String(i)), 200);
      await flushed();
      expect(bodies((await reader.wait('ring', 1, 0)).requests)).toEqual(['3', '4', '5']);
    });

    it('counts the requests it holds per name, in the order asked, within `size`, for every reader', async () => {
      const { writer, reader, flushed } = await fresh({ size: 3 });
      for (let i = 1; i <= 5; i++) writer.record('busy', request(String(i)), 200);
      writer.record('once', request('1'), 200);
      await flushed();
      expect(await reader.counts(['once', 'never', 'busy'])).toEqual([1, 0, 3]);
      expect(await reader.counts([])).toEqual([]);
      await reader.clear('busy');
      expect(await writer.counts(['busy', 'once'])).toEqual([0, 1]);
    });

    it('counting a name does not keep it from being dropped as the least recently recorded', async () => {
      const { writer, reader, flushed } = await fresh({ maxNames: 2 });
      writer.record('one', request('1'), 200);
      writer.record('two', request('2'), 200);
      await flushed();
      expect(await reader.counts(['one'])).toEqual([1]);
      writer.record('three', request('3'), 200);
      await flushed();
      expect(await reader.counts(['one', 'two', 'three'])).toEqual([0, 1, 1]);
    });

    it('keeps at most `maxNames` names, dropping the one recorded least recently', async () => {
      const { writer, reader, flushed } = await fresh({ maxNames: 2 });
      for (const name of ['one', 'two', 'three']) writer.record(name, request(name), 200);
      await flushed();
      expect((await reader.wait('one', 1, 0)).requests).toEqual([]);
      expect(bodies((await reader.wait('two', 1, 0)).requests)).toEqual(['two']);
      expect(bodies((await reader.wait('three', 1, 0)).requests)).toEqual(['three']);
    });

    it('stays within `maxBytes` by dropping the oldest entries, keeping the newest of the name just written', async () => {
      const { writer, reader, flushed } = await fresh({ maxBytes: 3000 });
      const big = 'x'.repeat(1000);
      for (let i = 0; i < 5; i++) writer.record('old', request(`${i}${big}`), 200);
      writer.record('new', request(`n${'y'.repeat(5000)}`), 200);
      await flushed();
      expect((await reader.wait('old', 1, 0)).requests).toEqual([]);
      expect((await reader.wait('new', 1, 0)).requests.map((entry) => entry.body.length)).toEqual([5001]);
    });

    it('clear forgets one name and clearAll every name, for every reader', async () => {
      const { writer, reader, flushed } = await fresh();
      writer.record('x', request('1'), 200);
      writer.record('y', request('2'), 200);
      await flushed();
      await reader.clear('x');
      expect((await writer.wait('x', 1, 0)).requests).toEqual([]);
      expect((await writer.wait('y', 1, 0)).requests).toHaveLength(1);
      await reader.clearAll();
      expect((await writer.wait('y', 1, 0)).requests).toEqual([]);
    });

    it('a paged read over many names hands every entry once, in id order, a page at a time', async () => {
      const { writer, reader, flushed } = await fresh({ size: 20 });
      // 120 names, 6 entries each, recorded interleaved so every page mixes names.
      for (let round = 0; round < 6; round++) {
        for (let n = 0; n < 120; n++) writer.record(`n${(n * 7 + round) % 120}`, request(`${round}:${n}`), 200);
      }
      await flushed();
      const pages: number[][] = [];
      const named: string[] = [];
      await readJournalPaged(reader, 0, undefined, (since) => {
        pages.push(since.entries.map((e) => e.entry.id));
        for (const e of since.entries) named.push(`${e.name}=${e.entry.body}`);
        return true;
      });
      const ids = pages.flat();
      expect(ids).toHaveLength(720);
      expect(new Set(ids).size).toBe(720);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(pages.map((page) => page.length)).toEqual([
        JOURNAL_READ_PAGE,
        JOURNAL_READ_PAGE,
        720 - 2 * JOURNAL_READ_PAGE,
      ]);
      expect(named[0]).toBe('n0=0:0');
      expect(named[719]).toBe(`n${(119 * 7 + 5) % 120}=5:119`);
      // A page from a cursor in the middle, of every name and of one name.
      const middle = ids[300] as number;
      expect((await reader.since(middle, undefined, 5)).entries.map((e) => e.entry.id)).toEqual(ids.slice(301, 306));
      const one = await reader.since(0, 'n3', 4);
      expect(one.entries.map((e) => `${e.name}=${e.entry.body}`)).toEqual(
        named.filter((s) => s.startsWith('n3=')).slice(0, 4),
      );
      expect((await reader.since(ids[719] as number)).entries).toEqual([]);
    });

    it('has one id for every reader, unchanged by recording', async () => {
      const { writer, reader, flushed } = await fresh();
      await writer.wait('any', 1, 0);
      await reader.wait('any', 1, 0);
      expect(writer.id).toEqual(expect.any(String));
      expect(writer.id).not.toBe('');
      expect(reader.id).toBe(writer.id);
      const first = writer.id;
      writer.record('any', request('1'), 200);
      await flushed();
      await reader.wait('any', 1, 0);
      expect([writer.id, reader.id]).toEqual([first, first]);
    });
  });
}
