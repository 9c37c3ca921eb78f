import { describe, expect, it } from 'vitest';
import { isNowPath, nowIsNumber, nowMinBytes, renderNow } from './now-placeholder.js';

const AT = Date.parse('2030-06-15T12:34:56.789Z');

describe('{{now…}} date helpers', () => {
  it('renders ISO 8601, seconds, milliseconds and the UTC date, each moved by a duration', () => {
    expect(renderNow(AT, [])).toBe('2030-06-15T12:34:56.789Z');
    expect(renderNow(AT, ['epoch'])).toBe(Math.floor(AT / 1000));
    expect(renderNow(AT, ['epochMs'])).toBe(AT);
    expect(renderNow(AT, ['date'])).toBe('2030-06-15');
    expect(renderNow(AT, ['plus', '1d'])).toBe('2030-06-16T12:34:56.789Z');
    expect(renderNow(AT, ['minus', '30s', 'epoch'])).toBe(Math.floor(AT / 1000) - 30);
    expect(renderNow(AT, ['plus', '12h', 'date'])).toBe('2030-06-16');
    expect(renderNow(AT, ['minus', '500ms', 'epochMs'])).toBe(AT - 500);
  });

  it('stays a date at the ends of what a Date holds', () => {
    expect(renderNow(8.64e15, ['plus', '1d'])).toBe('+275760-09-13T00:00:00.000Z');
    expect(renderNow(-8.64e15, ['minus', '1d', 'date'])).toBe('-271821-04-20');
  });

  it('knows its forms, what is a number and the fewest bytes each renders', () => {
    for (const path of [[], ['epoch'], ['epochMs'], ['date'], ['plus', '1d'], ['minus', '90m', 'epoch']]) {
      expect(isNowPath(path), path.join('.')).toBe(true);
    }
    for (const path of [['iso'], ['plus'], ['plus', '1y'], ['plus', '-1d'], ['plus', '1d', 'x'], ['epoch', 'ms']]) {
      expect(isNowPath(path), path.join('.')).toBe(false);
    }
    expect(nowIsNumber(['epoch'])).toBe(true);
    expect(nowIsNumber(['plus', '1d', 'epochMs'])).toBe(true);
    expect(nowIsNumber(['date'])).toBe(false);
    expect([nowMinBytes([]), nowMinBytes(['date']), nowMinBytes(['epoch'])]).toEqual([24, 10, 1]);
    expect(renderNow(0, ['epoch']).toString().length).toBeGreaterThanOrEqual(nowMinBytes(['epoch']));
  });
});
