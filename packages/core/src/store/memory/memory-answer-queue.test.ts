import { describe, expect, it } from 'vitest';
import { runAnswerQueueContract } from '../../queue/answer-queue.case.test.js';
import { MemoryAnswerQueue } from './memory-answer-queue.js';

runAnswerQueueContract('MemoryAnswerQueue', async (options) => new MemoryAnswerQueue(options));

describe('MemoryAnswerQueue', () => {
  it('bounds the bytes of all queued data, and gives them back as answers are used or cleared', async () => {
    const queue = new MemoryAnswerQueue({ maxBytes: 10_000 });
    const big = 'x'.repeat(3000);
    await queue.push('a', [{ data: big, times: 1 }]);
    const held = queue.bytes;
    expect(held).toBeGreaterThan(6000);
    const error = await queue.push('b', [{ data: big, times: 1 }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'QUEUE_FULL' });
    expect(await queue.list('b')).toEqual([]);
    await queue.take('a');
    expect(queue.bytes).toBe(0);
    await queue.push('b', [{ data: big, times: 1 }]);
    await queue.clear('b');
    expect(queue.bytes).toBe(0);
  });
});
