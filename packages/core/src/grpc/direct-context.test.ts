/** A direct call's context: its deadline (`grpc-timeout`) aborts it, one too far away does not. */
import { Code, type ConnectError } from '@connectrpc/connect';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DirectContext } from './direct-context.js';

describe('DirectContext deadline', () => {
  // Vitest's fake timers run the deadline's timer: 30 ms pass at once, decided by the clock.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts with deadline_exceeded when the deadline passes', async () => {
    const context = new DirectContext([]);
    context.deadline(1);
    await vi.advanceTimersByTimeAsync(30);
    expect(context.signal.aborted).toBe(true);
    expect((context.signal.reason as ConnectError).code).toBe(Code.DeadlineExceeded);
  });

  it('sets no deadline past what setTimeout keeps (grpc-timeout: 600H), rather than firing at once', async () => {
    const context = new DirectContext([]);
    context.deadline(600 * 3600 * 1000);
    context.deadline(2 ** 31);
    await vi.advanceTimersByTimeAsync(30);
    expect(context.signal.aborted).toBe(false);
    context.done();
  });

  it('keeps a deadline of exactly 2^31 - 1 ms', async () => {
    const context = new DirectContext([]);
    context.deadline(2 ** 31 - 1);
    await vi.advanceTimersByTimeAsync(30);
    expect(context.signal.aborted).toBe(false);
    context.done();
  });
});
