import { afterEach, describe, expect, it, vi } from 'vitest';
import { Clock } from '../clock/clock.js';
import { MemoryStateStore } from '../store/memory/memory-state-store.js';
import { StateTimers } from './state-timers.js';

afterEach(() => {
  vi.useRealTimers();
});

function timersOn(clock: Clock, max = 100) {
  const states = new MemoryStateStore();
  const errors: unknown[] = [];
  const timers = new StateTimers({ clock, states, max, report: (error) => errors.push(error) });
  return { states, timers, errors };
}

describe('StateTimers', () => {
  it('makes moves due by the clock, in order, and only from where the answer left the state', async () => {
    const real = { ms: 1_000_000 };
    const clock = new Clock(() => real.ms);
    clock.freeze(true);
    const { states, timers } = timersOn(clock);
    timers.schedule('a', 30_000, {}, { default: 'one' });
    timers.schedule('a', 30_000, { default: 'one' }, { default: 'two' }); // same time: after the first
    timers.schedule('b', 60_000, {}, { default: 'late' });
    timers.schedule('c', 10_000, { default: 'started' }, { default: 'moved' });
    await states.put('c', { default: 'elsewhere' }); // c moved meanwhile: its timed move is dropped
    clock.advance(30_000);
    await timers.fireDue();
    expect(await states.get('a')).toEqual({ default: 'two' });
    expect(await states.get('b')).toEqual({});
    expect(await states.get('c')).toEqual({ default: 'elsewhere' });
    expect(timers.size).toBe(1);
    timers.cancel('b');
    expect(timers.size).toBe(0);
    timers.close();
  });

  it('is bounded: past max, schedule refuses', () => {
    const clock = new Clock();
    const { timers } = timersOn(clock, 2);
    expect(timers.schedule('a', 1000, {}, { default: 'x' })).toBe(true);
    expect(timers.schedule('a', 1000, {}, { default: 'y' })).toBe(true);
    expect(timers.schedule('a', 1000, {}, { default: 'z' })).toBe(false);
    timers.cancelAll();
    expect(timers.size).toBe(0);
    timers.close();
  });

  it('fires on real time while the clock runs, and never by itself while it is frozen', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const running = new Clock();
    const frozen = new Clock();
    frozen.freeze(true);
    const run = timersOn(running);
    const stand = timersOn(frozen);
    run.timers.schedule('a', 30_000, {}, { default: 'done' });
    stand.timers.schedule('a', 30_000, {}, { default: 'done' });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(await run.states.get('a')).toEqual({});
    await vi.advanceTimersByTimeAsync(1);
    expect(await run.states.get('a')).toEqual({ default: 'done' });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(await stand.states.get('a')).toEqual({});
    // Thawed, the frozen clock's time runs from where it stood: 30 s more.
    frozen.freeze(false);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await stand.states.get('a')).toEqual({ default: 'done' });
    run.timers.close();
    stand.timers.close();
  });
});
