/**
 * The shared contract every {@link AnswerQueue} must pass (the memory queue now,
 * a Redis queue later). Each queue's own test file calls {@link runAnswerQueueContract};
 * this file is excluded from direct runs by the `*.case.test.ts` pattern.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { AnswerQueue, QueuedAnswer } from './answer-queue.js';

/** Makes a fresh, empty queue that allows at most `maxAnswers` answers per name. */
export type AnswerQueueFactory = (options: { maxAnswers: number }) => Promise<AnswerQueue>;

/** Registers the queue contract suite under `describe(name)`. */
export function runAnswerQueueContract(name: string, factory: AnswerQueueFactory): void {
  describe(`${name}: AnswerQueue contract`, () => {
    const fresh = () => factory({ maxAnswers: 10 });

    it('hands answers out in order, each once, then nothing', async () => {
      const queue = await fresh();
      expect(queue.pending('a')).toBe(false);
      const listed = await queue.push('a', [
        { statusCode: 503, times: 1 },
        { data: { ok: true }, times: 1 },
      ]);
      expect(listed).toEqual([
        { statusCode: 503, times: 1 },
        { data: { ok: true }, times: 1 },
      ]);
      expect(queue.pending('a')).toBe(true);
      expect(await queue.take('a')).toEqual({ statusCode: 503 });
      expect(await queue.take('a')).toEqual({ data: { ok: true } });
      expect(await queue.take('a')).toBeUndefined();
      expect(queue.pending('a')).toBe(false);
    });

    it('repeats an answer `times` times and lists what remains', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { fault: 'reset', times: 3 },
        { statusCode: 200, times: 1 },
      ]);
      expect(await queue.take('a')).toEqual({ fault: 'reset' });
      expect(await queue.list('a')).toEqual([
        { fault: 'reset', times: 2 },
        { statusCode: 200, times: 1 },
      ]);
      expect(await queue.take('a')).toEqual({ fault: 'reset' });
      expect(await queue.take('a')).toEqual({ fault: 'reset' });
      expect(await queue.take('a')).toEqual({ statusCode: 200 });
      expect(await queue.list('a')).toEqual([]);
    });

    it('appends to what is queued and keeps names apart (__proto__ is an ordinary name)', async () => {
      const queue = await fresh();
      await queue.push('__proto__', [{ statusCode: 500, times: 1 }]);
      await queue.push('__proto__', [{ statusCode: 501, times: 1 }]);
      await queue.push('other', [{ statusCode: 502, times: 1 }]);
      expect((await queue.list('__proto__')).map((a) => a.statusCode)).toEqual([500, 501]);
      expect(await queue.take('constructor')).toBeUndefined();
      expect(await queue.take('other')).toEqual({ statusCode: 502 });
    });

    it('keeps data exactly, null included, and an absent data absent', async () => {
      const queue = await fresh();
      const data = JSON.parse('{"__proto__":{"x":1},"n":null}') as unknown;
      await queue.push('a', [
        { data, times: 1 },
        { data: null, times: 1 },
        { delay: 5, times: 1 },
      ]);
      expect(JSON.stringify((await queue.take('a'))?.data)).toBe('{"__proto__":{"x":1},"n":null}');
      expect(await queue.take('a')).toEqual({ data: null });
      expect(Object.hasOwn((await queue.take('a')) as object, 'data')).toBe(false);
    });

    it('refuses a push past the bound with QUEUE_FULL and queues none of it', async () => {
      const queue = await fresh();
      const answers: QueuedAnswer[] = Array.from({ length: 8 }, (_, i) => ({ statusCode: 500 + i, times: 1 }));
      await queue.push('a', answers);
      const error = await queue.push('a', answers.slice(0, 3)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'QUEUE_FULL', status: 409 });
      expect((error as Error).message).toContain('at most 10');
      expect(await queue.list('a')).toHaveLength(8);
      await queue.push('a', answers.slice(0, 2));
      expect(await queue.list('a')).toHaveLength(10);
    });

    it('hands each use out exactly once under 50 concurrent takes', async () => {
      const queue = await fresh();
      await queue.push('a', [
        { statusCode: 500, times: 20 },
        { statusCode: 501, times: 20 },
      ]);
      const taken = await Promise.all(Array.from({ length: 50 }, () => queue.take('a')));
      const statuses = taken.map((answer) => answer?.statusCode);
      expect(statuses.filter((s) => s === 500)).toHaveLength(20);
      expect(statuses.filter((s) => s === 501)).toHaveLength(20);
      expect(statuses.filter((s) => s === undefined)).toHaveLength(10);
      // In order: every 500 was handed out before any 501.
      expect(statuses.lastIndexOf(500)).toBeLessThan(statuses.indexOf(501));
    });

    it('clear empties one name and aborts its cleared() signal; clearAll empties all', async () => {
      const queue = await fresh();
      await queue.push('a', [{ fault: 'hang', times: 2 }]);
      await queue.push('b', [{ fault: 'hang', times: 1 }]);
      const a = queue.cleared('a');
      const b = queue.cleared('b');
      await queue.clear('a');
      expect(a.aborted).toBe(true);
      expect(b.aborted).toBe(false);
      expect(await queue.list('a')).toEqual([]);
      expect(queue.pending('a')).toBe(false);
      expect(queue.cleared('a').aborted).toBe(false); // a fresh signal for the next hang
      await queue.clearAll();
      expect(b.aborted).toBe(true);
      expect(await queue.list('b')).toEqual([]);
    });

    it('releaseHangs aborts every cleared() signal, now and later, and keeps the queued answers', async () => {
      const queue = await fresh();
      await queue.push('a', [{ fault: 'hang', times: 2 }]);
      const before = queue.cleared('a');
      queue.releaseHangs();
      expect(before.aborted).toBe(true);
      expect(queue.cleared('b').aborted).toBe(true);
      expect(await queue.list('a')).toEqual([{ fault: 'hang', times: 2 }]);
    });
  });
}
