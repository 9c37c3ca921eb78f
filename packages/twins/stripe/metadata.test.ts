import { describe, expect, it } from 'vitest';
import { checkMetadata, METADATA_KEY_LENGTH, METADATA_KEYS, METADATA_VALUE_LENGTH } from './metadata.js';

describe('checkMetadata', () => {
  it("takes metadata within Stripe's bounds, at the top and inside another parameter", () => {
    const keys = Object.fromEntries(Array.from({ length: METADATA_KEYS }, (_, i) => [`k${i}`, 'v']));
    expect(checkMetadata({ metadata: keys })).toBeUndefined();
    expect(checkMetadata({ metadata: { ['k'.repeat(METADATA_KEY_LENGTH)]: 'v'.repeat(METADATA_VALUE_LENGTH) } })).toBe(
      undefined,
    );
    expect(checkMetadata({ subscription_data: { metadata: { a: 'b' } }, description: 'x'.repeat(9000) })).toBe(
      undefined,
    );
  });

  it('refuses a value, a key or a count past the bounds, naming the parameter', () => {
    const value = checkMetadata({ metadata: { note: 'x'.repeat(METADATA_VALUE_LENGTH + 1) } });
    expect(value).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'metadata[note]' });
    expect(value?.message).toContain(`up to ${METADATA_VALUE_LENGTH} characters`);
    expect(value?.message).toContain('xxxxxxxxxx...xxxxxxxxxx');
    const key = checkMetadata({ payment_intent_data: { metadata: { ['k'.repeat(METADATA_KEY_LENGTH + 1)]: 'v' } } });
    expect(key).toMatchObject({ param: 'payment_intent_data[metadata]' });
    expect(checkMetadata({ metadata: { 'a[b]': 'v' } })?.message).toMatch(/no square brackets/);
    const listed = { line_items: [{ price_data: { product_data: { metadata: { n: 'x'.repeat(501) } } } }] };
    expect(checkMetadata(listed)).toMatchObject({ param: 'line_items[0][price_data][product_data][metadata][n]' });
    const many = Object.fromEntries(Array.from({ length: METADATA_KEYS + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(checkMetadata({ metadata: many })?.message).toContain(`${METADATA_KEYS + 1} keys`);
  });
});
