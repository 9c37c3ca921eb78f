import { describe, expect, it } from 'vitest';
import { durationMs, MAX_DURATION_MS } from './duration.js';

describe('durationMs', () => {
  it('reads milliseconds and each unit', () => {
    expect(durationMs(1500)).toBe(1500);
    expect(durationMs('250ms')).toBe(250);
    expect(durationMs('30s')).toBe(30_000);
    expect(durationMs('5m')).toBe(300_000);
    expect(durationMs('2h')).toBe(7_200_000);
    expect(durationMs('1d')).toBe(86_400_000);
    expect(durationMs('0s')).toBe(0);
  });

  it('refuses what is not a duration', () => {
    for (const bad of [-1, 1.5, Number.NaN, '30', '30 s', '1w', '-5s', '1.5s', '05s', '', null, {}, '367d']) {
      expect(durationMs(bad), JSON.stringify(bad)).toBeUndefined();
    }
    expect(durationMs(MAX_DURATION_MS)).toBe(MAX_DURATION_MS);
    expect(durationMs(MAX_DURATION_MS + 1)).toBeUndefined();
  });
});
