/** Relative times for the journal rows (run in Node: a pure function of two instants). */
import { describe, expect, test } from 'vitest';
import { formatAgo } from '../src/dom.js';

describe('formatAgo', () => {
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  const ago = (ms: number) => formatAgo(new Date(now - ms).toISOString(), now);

  test('seconds, minutes, hours, then the date', () => {
    expect(ago(0)).toBe('just now');
    expect(ago(4_999)).toBe('just now');
    expect(ago(12_000)).toBe('12 s ago');
    expect(ago(59_999)).toBe('59 s ago');
    expect(ago(60_000)).toBe('1 min ago');
    expect(ago(59 * 60_000)).toBe('59 min ago');
    expect(ago(3 * 3_600_000)).toBe('3 h ago');
    expect(ago(2 * 86_400_000)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test('a time ahead of this clock is "just now"; a bad time is shown as it is', () => {
    expect(ago(-30_000)).toBe('just now');
    expect(formatAgo('not a time', now)).toBe('not a time');
  });
});
