/**
 * The shared contract every {@link AnswerQueue} must pass (the memory queue
 * and the Redis queue). Each queue's own test file calls {@link runAnswerQueueContract};
 * this file is excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { QueuedAnswer, TakenAnswer } from '../api/answer-json.js';
import { JsonText } from '../codec/json-text.js';
import type { FilterSubject } from '../journal/request-filter.js';
import type { AnswerQueue } from './answer-queue.js';

/** Makes a fresh, empty queue that allows at most `maxAnswers` answers per name. */
export type AnswerQueueFactory = (options: { maxAnswers: number }) => Promise<AnswerQueue>;

/**
 * An answer with `data` as a plain value: a queue may hand back data it was
 * given as a value as {@link JsonText} (a queue that keeps text does).
 */
function plain<T extends TakenAnswer>(answer: T): T {
  return answer.data instanceof JsonText ? { ...answer, data: answer.data.value() } : answer;
}

/** The answer of the next take (data as a plain value), or `undefined`. */
async function answer(queue: AnswerQueue, name: string, request?: FilterSubject): Promise<TakenAnswer | undefined> {
  const taken = await queue.take(name, request);
  return taken && plain(taken.answer);
}

/** A request as the filter sees it. */
function request(method: string, subpath: string, json?: unknown): FilterSubject {
  const body = json === undefined ? '' : JSON.stringify(json);
  return {
    method,
    subpath,
    query: {},
    headers: {},
    body,
    bodyTruncated: false,
    ...(json === undefined ? {} : { json }),
  };
}

/** What is queued for `name` (data as plain values). */
async function listed(queue: AnswerQueue, name: string): Promise<QueuedAnswer[]> {
  return (await queue.list(name)).map(plain);
}

/** Registers the queue contract suite under `describe(name)`. */
export function runAnswerQueueContract(name: string, factory: AnswerQueueFactory): void {
  describe(`${name}: AnswerQueue contract`, () => {
    const fresh = () => factory({ maxAnswers: 10 });

    it('names the names with anything queued: a push adds one, taking the last use or a clear removes it', async () => {
      const queue = await fresh();
      expect(await queue.names()).toEqual([]);
      await queue.push('b', [{ statusCode: 503, times: 1 }]);
      await queue.push('a', [{ statusCode: 500, times: 2 }]);
      expect((await queue.names()).sort()).toEqual(['a', 'b']);
      expect((await answer(queue, 'b'))?.statusCode).toBe(503);
      expect(await queue.names()).toEqual(['a']);
      await queue.clear('a');
      expect(await queue.names()).toEqual([]);
    });

    it('gives grpc answers to gRPC calls only, and gRPC calls nothing else', async () => {
      const queue = await fresh();
      const call = (method: string): FilterSubject => ({
        ...request('POST', `/shop.Shop/${method}`, { id: '7' }),
        grpc: { service: 'shop.Shop', method, message: { id: '7' } },
      });
      await queue.push('a', [
        { grpc: { message: { id: 'one' } }, times: 1 },
        { statusCode: 503, times: 1 },
        { match: { grpc: { method: 'Get' } }, grpc: { status: { code: 'not_found' } }, times: 1 },
        { match: { method: 'POST' }, statusCode: 201, times: 1 },
        { grpc: { message: { id: 'three' } }, fault: 'reset', delay: 5, times: 1 },
      ]);
      // An HTTP request passes every grpc answer by, with or without a match.
      expect((await answer(queue, 'a', request('POST', '/shop.Shop/Get')))?.statusCode).toBe(503);
      expect((await answer(queue, 'a', request('POST', '/')))?.statusCode).toBe(201);
      expect(await answer(queue, 'a', request('POST', '/'))).toBeUndefined();
      expect(await answer(queue, 'a')).toBeUndefined();
      // A gRPC call takes them in order, its match looking at the call.
      await queue.push('a', [{ statusCode: 500, times: 1 }]);
      expect((await answer(queue, 'a', call('List')))?.grpc).toEqual({ message: { id: 'one' } });
      expect(await answer(queue, 'a', call('List'))).toEqual({
        grpc: { message: { id: 'three' } },
        fault: 'reset',
        delay: 5,
      });
      expect((await answer(queue, 'a', call('Get')))?.grpc).toEqual({ status: { code: 'not_found' } });
      expect(await answer(queue, 'a', call('Get'))).toBeUndefined();
      expect((await listed(queue, 'a')).map((one) => one.statusCode)).toEqual([500]);
    });

    it('puts a taken use back first in line, setState and exact data kept', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { match: { method: 'GET' }, statusCode: 503, times: 1 },
        { match: { method: 'POST' }, data: new JsonText('{"big":12345678901234567890}'), setState: 'paid', times: 2 },
      ]);
      const taken = await queue.take('a', request('POST', '/'));
      expect(taken?.answer.setState).toBe('paid');
      if (taken === undefined) throw new Error('nothing taken');
      await queue.putBack('a', taken);
      expect(queue.pending('a')).toBe(true);
      const queued = await queue.list('a');
      expect(queued.map((one) => [one.statusCode, one.times, one.setState])).toEqual([
        [undefined, 1, 'paid'],
        [503, 1, undefined],
        [undefined, 1, 'paid'],
      ]);
      expect((queued[0]?.data as JsonText | undefined)?.text).toBe('{"big":12345678901234567890}');
      // Taken again first, by a request it matches; then the queue goes on in order.
      expect((await answer(queue, 'a', request('POST', '/')))?.setState).toBe('paid');
      expect((await answer(queue, 'a', request('GET', '/')))?.statusCode).toBe(503);
    });

    it('puts a use back into an emptied queue', async () => {
      const queue = await fresh();
      await queue.push('a', [{ statusCode: 201, times: 1 }]);
      const taken = await queue.take('a');
      if (taken === undefined) throw new Error('nothing taken');
      expect(await queue.take('a')).toBeUndefined();
      await queue.putBack('a', taken);
      expect(queue.pending('a')).toBe(true);
      expect((await answer(queue, 'a'))?.statusCode).toBe(201);
      expect(await queue.take('a')).toBeUndefined();
    });

    it('hands answers out in order, each once, then nothing', async () => {
      const queue = await fresh();
      expect(queue.pending('a')).toBe(false);
      const pushed = await queue.push('a', [
        { statusCode: 503, times: 1 },
        { data: { ok: true }, times: 1 },
      ]);
      expect(pushed.map(plain)).toEqual([
        { statusCode: 503, times: 1 },
        { data: { ok: true }, times: 1 },
      ]);
      expect(queue.pending('a')).toBe(true);
      expect(await answer(queue, 'a')).toEqual({ statusCode: 503 });
      expect(await answer(queue, 'a')).toEqual({ data: { ok: true } });
      expect(await answer(queue, 'a')).toBeUndefined();
      expect(queue.pending('a')).toBe(false);
    });

    it('repeats an answer `times` times and lists what remains', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { fault: 'reset', times: 3 },
        { statusCode: 200, times: 1 },
      ]);
      expect(await answer(queue, 'a')).toEqual({ fault: 'reset' });
      expect(await listed(queue, 'a')).toEqual([
        { fault: 'reset', times: 2 },
        { statusCode: 200, times: 1 },
      ]);
      expect(await answer(queue, 'a')).toEqual({ fault: 'reset' });
      expect(await answer(queue, 'a')).toEqual({ fault: 'reset' });
      expect(await answer(queue, 'a')).toEqual({ statusCode: 200 });
      expect(await listed(queue, 'a')).toEqual([]);
    });

    it('appends to what is queued and keeps names apart (__proto__ is an ordinary name)', async () => {
      const queue = await fresh();
      await queue.push('__proto__', [{ statusCode: 500, times: 1 }]);
      await queue.push('__proto__', [{ statusCode: 501, times: 1 }]);
      await queue.push('other', [{ statusCode: 502, times: 1 }]);
      expect((await listed(queue, '__proto__')).map((a) => a.statusCode)).toEqual([500, 501]);
      expect(await answer(queue, 'constructor')).toBeUndefined();
      expect(await answer(queue, 'other')).toEqual({ statusCode: 502 });
    });

    it('keeps data exactly, null included, and an absent data absent', async () => {
      const queue = await fresh();
      const data = JSON.parse('{"__proto__":{"x":1},"n":null}') as unknown;
      await queue.push('a', [
        { data, times: 1 },
        { data: null, times: 1 },
        { delay: 5, times: 1 },
      ]);
      expect(JSON.stringify((await answer(queue, 'a'))?.data)).toBe('{"__proto__":{"x":1},"n":null}');
      expect(await answer(queue, 'a')).toEqual({ data: null });
      expect(Object.hasOwn((await answer(queue, 'a')) as object, 'data')).toBe(false);
    });

    it('refuses a push past the bound with QUEUE_FULL and queues none of it', async () => {
      const queue = await fresh();
      const answers: QueuedAnswer[] = Array.from({ length: 8 }, (_, i) => ({ statusCode: 500 + i, times: 1 }));
      await queue.push('a', answers);
      const error = await queue.push('a', answers.slice(0, 3)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'QUEUE_FULL', status: 409 });
      expect((error as Error).message).toContain('at most 10');
      expect(await listed(queue, 'a')).toHaveLength(8);
      await queue.push('a', answers.slice(0, 2));
      expect(await listed(queue, 'a')).toHaveLength(10);
    });

    it('hands each use out exactly once under 50 concurrent takes', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { statusCode: 500, times: 20 },
        { statusCode: 501, times: 20 },
      ]);
      const taken = await Promise.all(Array.from({ length: 50 }, () => queue.take('a')));
      const statuses = taken.map((t) => t?.answer.statusCode);
      expect(statuses.filter((s) => s === 500)).toHaveLength(20);
      expect(statuses.filter((s) => s === 501)).toHaveLength(20);
      expect(statuses.filter((s) => s === undefined)).toHaveLength(10);
      // In order: every 500 was handed out before any 501.
      expect(statuses.lastIndexOf(500)).toBeLessThan(statuses.indexOf(501));
    });

    it('keeps data as its exact text: big integers, 1.0, -0 and key order', async () => {
      const queue = await fresh();
      const text = '{"id":12345678901234567890,"x":1.0,"z":-0,"2":"b","b":2}';
      const pushed = await queue.push('a', [{ data: new JsonText(text), times: 2 }]);
      const textOf = (answer: TakenAnswer | undefined) => (answer?.data as JsonText | undefined)?.text;
      expect(textOf(pushed[0])).toBe(text);
      expect(textOf((await queue.list('a'))[0])).toBe(text);
      expect(textOf((await queue.take('a'))?.answer)).toBe(text);
    });

    it('clear empties one name and aborts the release of what was taken from it; clearAll empties all', async () => {
      const queue = await fresh();
      await queue.push('a', [{ fault: 'hang', times: 3 }]);
      await queue.push('b', [{ fault: 'hang', times: 1 }]);
      const a = (await queue.take('a'))?.release;
      const b = (await queue.take('b'))?.release;
      expect(a?.aborted).toBe(false);
      await queue.clear('a');
      await expect.poll(() => a?.aborted).toBe(true);
      expect(b?.aborted).toBe(false);
      expect(await listed(queue, 'a')).toEqual([]);
      expect(queue.pending('a')).toBe(false);
      await queue.clearAll();
      await expect.poll(() => b?.aborted).toBe(true);
      expect(await listed(queue, 'b')).toEqual([]);
    });

    it('a clear before a take never aborts what is taken after it', async () => {
      const queue = await fresh();
      await queue.push('a', [{ fault: 'hang', times: 1 }]);
      await queue.clear('a');
      await queue.push('a', [{ fault: 'hang', times: 1 }]);
      const taken = await queue.take('a');
      expect(taken?.answer).toEqual({ fault: 'hang' });
      // A later clear of another name: once its notice is in, so is the earlier one of
      // `a` (a shared queue delivers them in order), and it must not touch this take.
      await queue.push('b', [{ fault: 'hang', times: 1 }]);
      const marker = await queue.take('b');
      await queue.clear('b');
      await expect.poll(() => marker?.release.aborted).toBe(true);
      expect(taken?.release.aborted).toBe(false);
      await queue.clear('a');
      await expect.poll(() => taken?.release.aborted).toBe(true);
    });

    it('takes the first answer whose match holds, leaving the others queued in their place', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { match: { method: 'POST', path: '/orders' }, statusCode: 201, times: 2 },
        { match: { path: '/users/:id' }, headers: { 'x-one': ['1', '2'] }, body: 'user', times: 1 },
        { statusCode: 503, times: 1 },
      ]);
      // GET /users/7 skips the POST /orders answer and takes the user one.
      expect(await answer(queue, 'a', request('GET', '/users/7'))).toEqual({
        match: { path: '/users/:id' },
        headers: { 'x-one': ['1', '2'] },
        body: 'user',
      });
      // GET /users/8: nothing for users is left; the answer without a match is taken.
      expect(await answer(queue, 'a', request('GET', '/users/8'))).toEqual({ statusCode: 503 });
      // Nothing matches GET /orders: nothing is taken, and the queue keeps its answer.
      expect(await answer(queue, 'a', request('GET', '/orders'))).toBeUndefined();
      expect(await answer(queue, 'a')).toBeUndefined();
      expect(queue.pending('a')).toBe(true);
      expect(await listed(queue, 'a')).toEqual([
        { match: { method: 'POST', path: '/orders' }, statusCode: 201, times: 2 },
      ]);
      expect(await answer(queue, 'a', request('POST', '/orders'))).toMatchObject({ statusCode: 201 });
      expect(await answer(queue, 'a', request('POST', '/orders'))).toMatchObject({ statusCode: 201 });
      expect(await answer(queue, 'a', request('POST', '/orders'))).toBeUndefined();
      expect(await listed(queue, 'a')).toEqual([]);
    });

    it('matches the body as a JSON subset, and keeps every field of the one answer shape', async () => {
      const queue = await fresh();
      const full: QueuedAnswer = {
        match: { body: { amount: 10 } },
        statusCode: 402,
        headers: { 'retry-after': '1' },
        bodyBase64: 'AAEC',
        delay: 5,
        fault: 'close',
        template: true,
        times: 1,
      };
      await queue.push('a', [full]);
      expect(await answer(queue, 'a', request('POST', '/', { amount: 5 }))).toBeUndefined();
      const { times: _times, ...taken } = full;
      expect(await answer(queue, 'a', request('POST', '/', { amount: 10, currency: 'EUR' }))).toEqual(taken);
    });

    it('hands each matching use out exactly once under concurrent takes of different requests', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { match: { path: '/x' }, statusCode: 500, times: 10 },
        { statusCode: 501, times: 10 },
      ]);
      const takes = Array.from({ length: 30 }, (_, i) => queue.take('a', request('GET', i % 2 ? '/x' : '/y')));
      const statuses = (await Promise.all(takes)).map((t) => t?.answer.statusCode);
      expect(statuses.filter((s) => s === 500)).toHaveLength(10);
      expect(statuses.filter((s) => s === 501)).toHaveLength(10);
      expect(statuses.filter((s) => s === undefined)).toHaveLength(10);
      expect(await listed(queue, 'a')).toEqual([]);
    });

    it('releaseHangs aborts every release, now and later, and keeps the queued answers', async () => {
      const queue = await fresh();
      await queue.push('a', [{ fault: 'hang', times: 3 }]);
      const before = (await queue.take('a'))?.release;
      queue.releaseHangs();
      expect(before?.aborted).toBe(true);
      expect((await queue.take('a'))?.release.aborted).toBe(true);
      expect(await listed(queue, 'a')).toEqual([{ fault: 'hang', times: 1 }]);
    });

    it('announces each push and clear once (a clear of every queue as undefined), never a take', async () => {
      const queue = await fresh();
      const seen: (string | undefined)[] = [];
      const stop = queue.onChange((changed) => seen.push(changed));
      await queue.push('a', [{ statusCode: 503, times: 2 }]);
      // A shared queue announces through its notices, which may come after the call answers.
      await expect.poll(() => seen).toEqual(['a']);
      await queue.take('a');
      await queue.clear('a');
      await expect.poll(() => seen).toEqual(['a', 'a']);
      await queue.clearAll();
      await expect.poll(() => seen).toEqual(['a', 'a', undefined]);
      stop();
      // Stopped: not told of this push (which answers once this process has seen its notice).
      await queue.push('b', [{ statusCode: 503, times: 1 }]);
      const after = queue.onChange((changed) => seen.push(changed));
      await queue.push('c', [{ statusCode: 503, times: 1 }]);
      await expect.poll(() => seen).toEqual(['a', 'a', undefined, 'c']);
      after();
    });

    it('tells every listener, in the order they came, and each stops on its own', async () => {
      const queue = await fresh();
      const seen: string[] = [];
      const first = queue.onChange((changed) => seen.push(`first ${changed}`));
      const second = queue.onChange((changed) => seen.push(`second ${changed}`));
      await queue.push('a', [{ statusCode: 503, times: 1 }]);
      await expect.poll(() => seen).toEqual(['first a', 'second a']);
      first();
      await queue.push('b', [{ statusCode: 503, times: 1 }]);
      await expect.poll(() => seen).toEqual(['first a', 'second a', 'second b']);
      // The first listener again, after the second: told after it.
      const again = queue.onChange((changed) => seen.push(`again ${changed}`));
      await queue.clear('b');
      await expect.poll(() => seen).toEqual(['first a', 'second a', 'second b', 'second b', 'again b']);
      second();
      again();
      await queue.push('c', [{ statusCode: 503, times: 1 }]);
      await queue.clear('c');
      const last = queue.onChange((changed) => seen.push(`last ${changed}`));
      await queue.clear('c');
      await expect.poll(() => seen).toEqual(['first a', 'second a', 'second b', 'second b', 'again b', 'last c']);
      last();
    });
  });
}
