import { describe, expect, it } from 'vitest';
import { isKnownVersion, MAX_VERSION_CHARS } from './twin-versions.js';

const versions = { header: 'stripe-version', known: ['2024-04-10', '2024-06-20', '2025-03-31.basil'] };

describe('isKnownVersion', () => {
  it('takes the known versions, and a dated version older than them (an older SDK pins one)', () => {
    for (const known of versions.known) expect(isKnownVersion(versions, known)).toBe(true);
    expect(isKnownVersion(versions, '2023-10-16')).toBe(true); // stripe-node 14
    expect(isKnownVersion(versions, '2022-08-01')).toBe(true);
    expect(isKnownVersion(versions, '2020-08-27.acacia')).toBe(true);
  });

  it('refuses a version between or after the known ones, one written otherwise, and one too long', () => {
    expect(isKnownVersion(versions, '2024-05-01')).toBe(false);
    expect(isKnownVersion(versions, '2027-01-01')).toBe(false);
    expect(isKnownVersion(versions, '2019-2-19')).toBe(false);
    expect(isKnownVersion(versions, '2023-10-16 ')).toBe(false);
    expect(isKnownVersion(versions, '2023-10-16.Basil')).toBe(false);
    expect(isKnownVersion(versions, `2023-10-16.${'a'.repeat(MAX_VERSION_CHARS)}`)).toBe(false);
    expect(isKnownVersion(versions, 20231016)).toBe(false);
    expect(isKnownVersion(undefined, '2024-04-10')).toBe(false);
  });
});
