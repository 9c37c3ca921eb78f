/**
 * The page's retry pause (run in Node, whose AbortSignal is the same EventTarget):
 * it ends on time or on abort, and never leaves its abort listener behind.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { sleep } from '../src/sleep.js';

describe('sleep(ms, signal)', () => {
  test('removes its abort listener when the time is up, so retries do not pile listeners up', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) {
      await sleep(1, controller.signal);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
  });

  test('ends early when the signal aborts, leaving no listener', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    // Resolving at all is the behaviour: with the 60 s timer still running the test would time out.
    await pending;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('resolves at once for a signal that is already aborted', async () => {
    const signal = AbortSignal.abort();
    await sleep(60_000, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
