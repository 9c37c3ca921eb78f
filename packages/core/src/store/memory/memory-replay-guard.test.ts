// The in-process replay memory: an id is a replay within its time and fresh
// after it, the bound forgets the oldest first, and an id recorded again after
// it expired is kept for its new time (its old place in the sweep's queue is
// skipped, never taken for the new one). A clock of our own, so no test waits.
import { describe, expect, it } from 'vitest';
import { runReplayGuardContract } from '../../webhook/replay-guard.case.test.js';
import { MemoryReplayGuard } from './memory-replay-guard.js';

runReplayGuardContract('MemoryReplayGuard', async () => ({
  guard: new MemoryReplayGuard(),
  close: async () => undefined,
}));

function guard(maxIds?: number) {
  const clock = { now: 1_000_000 };
  const replays = new MemoryReplayGuard(maxIds === undefined ? {} : { maxIds }, () => clock.now);
  return { replays, clock };
}

describe('MemoryReplayGuard', () => {
  it('tells an id seen again within its time, and forgets it after', () => {
    const { replays, clock } = guard();
    expect(replays.seen('a', 300)).toBe(false);
    clock.now += 299_999;
    expect(replays.seen('a', 300)).toBe(true);
    clock.now += 1;
    expect(replays.seen('a', 300)).toBe(false);
    expect(replays.seen('a', 300)).toBe(true);
  });

  it('sweeps expired ids as new ones arrive', () => {
    const { replays, clock } = guard();
    for (let i = 0; i < 50; i++) replays.seen(`old-${i}`, 1);
    clock.now += 1_000;
    replays.seen('new', 1);
    expect(replays.size).toBe(1);
  });

  it('past maxIds forgets the oldest first', () => {
    const { replays, clock } = guard(3);
    for (const id of ['a', 'b', 'c', 'd']) {
      replays.seen(id, 300);
      clock.now += 1;
    }
    expect(replays.size).toBe(3);
    expect(replays.seen('b', 300)).toBe(true);
    expect(replays.seen('c', 300)).toBe(true);
    expect(replays.seen('d', 300)).toBe(true);
    // 'a' was forgotten (and is remembered anew, which pushes out 'b').
    expect(replays.seen('a', 300)).toBe(false);
    expect(replays.seen('b', 300)).toBe(false);
  });

  it('an id recorded again after it expired keeps its new time, though its old entry comes up in the sweep', () => {
    const { replays, clock } = guard();
    replays.seen('a', 1);
    replays.seen('b', 10);
    clock.now += 1_000; // 'a' expired, 'b' not
    expect(replays.seen('a', 300)).toBe(false);
    clock.now += 10_000; // 'b' expired: the sweep passes 'a''s first (stale) entry
    replays.seen('c', 300);
    expect(replays.size).toBe(2);
    expect(replays.seen('a', 300)).toBe(true);
  });

  it('keeps its queue bounded when a long-lived id holds the head and short-lived ids are recorded again and again', () => {
    const { replays, clock } = guard(100);
    replays.seen('long', 3_600);
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 50; i++) replays.seen(`short-${i}`, 1);
      clock.now += 1_001; // every short id expired; 'long' has not
    }
    // 10,001 records: without compaction the queue would hold them all behind 'long'.
    expect(replays.queued).toBeLessThanOrEqual(2 * 100 + 1024 + 1);
    expect(replays.size).toBeLessThanOrEqual(101);
    expect(replays.seen('long', 3_600)).toBe(true);
    expect(replays.seen('short-0', 1)).toBe(false);
    expect(replays.seen('short-0', 1)).toBe(true);
  });

  it('stays within maxIds under a long run of fresh ids, and still tells the recent ones', () => {
    const { replays, clock } = guard(1_000);
    for (let i = 0; i < 20_000; i++) {
      expect(replays.seen(`id-${i}`, 300)).toBe(false);
      clock.now += 1;
    }
    expect(replays.size).toBe(1_000);
    expect(replays.seen('id-19999', 300)).toBe(true);
    expect(replays.seen('id-19000', 300)).toBe(true);
    expect(replays.seen('id-18999', 300)).toBe(false);
  });
});
