// Both HMAC paths: node:crypto (Node, Bun, Deno) and crypto.subtle (Workers),
// against HMACs written out here with node:crypto directly.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HMAC_ALGORITHMS, type HmacAlgorithm, hmac, subtleHmac } from './hmac.js';

describe('hmac', () => {
  it.each(Object.keys(HMAC_ALGORITHMS) as HmacAlgorithm[])(
    '%s: both paths give the HMAC of the bytes',
    async (algorithm) => {
      for (const length of [0, 1, 64, 1000]) {
        const key = randomBytes(32);
        const data = randomBytes(length);
        const expected = createHmac(algorithm, key).update(data).digest();
        const fast = await hmac(algorithm, key, data);
        const subtle = await subtleHmac(algorithm, key, data);
        expect(Buffer.from(fast).equals(expected)).toBe(true);
        expect(Buffer.from(subtle).equals(expected)).toBe(true);
      }
    },
  );
});
