import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonTooDeep, MAX_JSON_DEPTH, readStreamPrefix } from './body.js';

describe('jsonTooDeep', () => {
  const nest = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('counts object and array nesting up to the limit', () => {
    expect(MAX_JSON_DEPTH).toBe(512);
    expect(jsonTooDeep(nest(512))).toBe(false);
    expect(jsonTooDeep(nest(513))).toBe(true);
    expect(jsonTooDeep('[[[1]]]', 2)).toBe(true);
    expect(jsonTooDeep('[[1],[2],[3]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeep('["[[[[", "{{{{"]', 1)).toBe(false);
    expect(jsonTooDeep('["\\"[[[[\\""]', 1)).toBe(false);
    expect(jsonTooDeep('["\\\\", [[1]]]', 2)).toBe(true);
  });
});

/** A stream of `count` chunks of `size` bytes, `gapMs` apart, that counts what was pulled. */
function paced(count: number, size: number, gapMs: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (state.pulled === count) return controller.close();
      if (state.pulled > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      state.pulled++;
      controller.enqueue(new Uint8Array(size));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('readStreamPrefix past its limit', () => {
  // The gaps and the pause bound run on fake timers (performance.now() with them): no real waiting.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** `reading` with every timer it sets run in time order until it ends. */
  async function timed<T>(reading: Promise<T>): Promise<T> {
    let done = false;
    const settled = reading.finally(() => {
      done = true;
    });
    while (!done) await vi.advanceTimersToNextTimerAsync();
    return settled;
  }

  it('drops the rest while it keeps coming, longer in all than the pause bound', async () => {
    // 8 chunks 60 ms apart: 420 ms of dropping in all, against a 150 ms pause bound.
    const { stream, state } = paced(8, 1024, 60);
    const read = await timed(readStreamPrefix(stream, 10, 1 << 20, undefined, 150));
    expect(read.truncated).toBe(true);
    expect(read.bytes.byteLength).toBe(10);
    expect(state).toEqual({ pulled: 8, cancelled: false });
  });

  it('stops at the first pause longer than the bound, and cancels the rest', async () => {
    const { stream, state } = paced(8, 1024, 400);
    const read = await timed(readStreamPrefix(stream, 10, 1 << 20, undefined, 100));
    expect(read.truncated).toBe(true);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(8);
  });
});
