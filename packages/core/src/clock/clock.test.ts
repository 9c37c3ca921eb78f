import { describe, expect, it } from 'vitest';
import { CLOCK_MAX_MS, Clock } from './clock.js';

/** A clock over a hand-moved real time. */
function clockAt(start: number) {
  const real = { ms: start };
  return { real, clock: new Clock(() => real.ms) };
}

describe('Clock', () => {
  it('shows real time until moved', () => {
    const { real, clock } = clockAt(1_000);
    expect(clock.now()).toBe(1_000);
    real.ms = 5_000;
    expect(clock.now()).toBe(5_000);
    expect(clock.view()).toEqual({ now: new Date(5_000).toISOString(), frozen: false, offsetMs: 0 });
  });

  it('stands still while frozen, and runs on from there when thawed', () => {
    const { real, clock } = clockAt(1_000);
    clock.freeze(true);
    real.ms = 9_000;
    expect(clock.now()).toBe(1_000);
    expect(clock.view()).toMatchObject({ frozen: true, offsetMs: -8_000 });
    clock.freeze(false);
    real.ms = 10_000;
    expect(clock.now()).toBe(2_000);
  });

  it('sets and advances, frozen or running', () => {
    const { real, clock } = clockAt(1_000);
    clock.set(100_000);
    real.ms = 2_000;
    expect(clock.now()).toBe(101_000);
    clock.advance(30_000);
    expect(clock.now()).toBe(131_000);
    clock.freeze(true);
    clock.advance(5);
    real.ms = 50_000;
    expect(clock.now()).toBe(131_005);
    clock.set(7);
    expect(clock.now()).toBe(7);
  });

  it('goes back to real time on reset, and tells its listeners of each change', () => {
    const { real, clock } = clockAt(1_000);
    let changes = 0;
    clock.onChange(() => changes++);
    clock.freeze(true);
    clock.advance(60_000);
    real.ms = 3_000;
    clock.reset();
    expect(clock.now()).toBe(3_000);
    expect(clock.real).toBe(true);
    expect(changes).toBe(3);
  });

  it('refuses a time outside 1970–9999 and a negative advance', () => {
    const { clock } = clockAt(1_000);
    expect(() => clock.set(-1)).toThrow(RangeError);
    expect(() => clock.set(CLOCK_MAX_MS + 1)).toThrow(RangeError);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    clock.set(CLOCK_MAX_MS);
    expect(() => clock.advance(1)).toThrow(RangeError);
    expect(clock.now()).toBe(CLOCK_MAX_MS);
  });
});

describe('Clock state (shared through a backend)', () => {
  it('state() and adopt() carry it: frozen or offset, listeners told only of a change', () => {
    const { real, clock } = clockAt(1_000);
    const other = clockAt(1_000).clock;
    let told = 0;
    other.onChange(() => told++);
    clock.set(50_000);
    other.adopt(clock.state());
    expect(other.now()).toBe(50_000);
    other.adopt(clock.state());
    expect(told).toBe(1);
    clock.freeze(true);
    expect(clock.state()).toEqual({ frozenAt: 50_000 });
    other.adopt(clock.state());
    real.ms = 9_000;
    expect(other.now()).toBe(50_000);
    other.adopt({ offsetMs: 0 });
    expect(other.real).toBe(true);
    expect(told).toBe(3);
  });

  it('copy() is changed apart from the original', () => {
    const { clock } = clockAt(1_000);
    clock.freeze(true);
    const copy = clock.copy();
    copy.advance(5);
    expect(copy.now()).toBe(1_005);
    expect(clock.now()).toBe(1_000);
  });
});
