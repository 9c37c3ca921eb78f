import { describe, expect, it } from 'vitest';
import { isoTimeMs } from './iso-time.js';

describe('isoTimeMs', () => {
  it('reads a time with its zone, and a date alone where the time is optional', () => {
    expect(isoTimeMs('2030-01-02T03:04:05.678Z', 'required')).toBe(Date.parse('2030-01-02T03:04:05.678Z'));
    expect(isoTimeMs('2030-01-02T03:04+02:00', 'required')).toBe(Date.parse('2030-01-02T01:04:00Z'));
    expect(isoTimeMs('2028-02-29', 'optional')).toBe(Date.parse('2028-02-29T00:00:00Z'));
    expect(isoTimeMs('2000-02-29', 'optional')).toBe(Date.parse('2000-02-29T00:00:00Z'));
    expect(isoTimeMs('2030-01-02', 'required')).toBeUndefined();
  });

  it('refuses a day or time the calendar does not have, never rolling it over', () => {
    for (const text of [
      '2030-02-30T00:00:00Z',
      '2029-02-29',
      '1900-02-29',
      '2030-04-31',
      '2030-00-10',
      '2030-13-01',
      '2030-01-00',
      '2030-01-01T24:00Z',
      '2030-01-01T00:60Z',
      '2030-01-01T00:00:60Z',
      '2030-01-01T00:00+24:00',
      '2030-01-01T00:00-00:60',
      '2030-01-01T00:00:00', // no zone: a local time
    ]) {
      expect(isoTimeMs(text, 'optional'), text).toBeUndefined();
    }
  });
});
