// Both HMAC paths: node:crypto (Node, Bun, Deno) and crypto.subtle (Workers),
// against HMACs written out here with node:crypto directly.
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latin1FromBase64 } from '../codec/base64.js';
import {
  HMAC_ALGORITHMS,
  type HmacAlgorithm,
  hexSpells,
  hmac,
  hmacNow,
  latin1Equal,
  macNow,
  subtleHmac,
} from './hmac.js';

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

  // hmacNow computes small contents as two one-shot hashes over prepared pads
  // (RFC 2104 by hand), large ones and non-ASCII prefixes through createHmac.
  it.each(Object.keys(HMAC_ALGORITHMS) as HmacAlgorithm[])(
    '%s: hmacNow gives the HMAC of prefix + body for any key, prefix and body',
    (algorithm) => {
      const check = (key: Uint8Array, prefix: string, body: Uint8Array) => {
        const expected = createHmac(algorithm, key).update(prefix).update(body).digest('hex');
        expect(Buffer.from(hmacNow(algorithm, key, prefix, body) as Uint8Array).toString('hex')).toBe(expected);
      };
      fc.assert(
        fc.property(
          // Keys shorter than, as long as and longer than a block (64 or 128 bytes).
          fc.uint8Array({ minLength: 1, maxLength: 300 }),
          fc.string({ unit: fc.constantFrom('a', '.', '1', 'é', '€'), maxLength: 40 }),
          fc.uint8Array({ maxLength: 600 }),
          check,
        ),
        { numRuns: 300 },
      );
      // The same key again (its pads are reused), and bodies around the one-shot limit (64 KiB).
      const key = randomBytes(20);
      for (const length of [0, 65_536 - 11, 65_536 - 10, 65_536, 200_000])
        check(key, 'msg_1.1700.', randomBytes(length));
    },
  );

  // The check compares a MAC (latin1 text) with a signature where it lies in the header.
  it('hexSpells: hex of the MAC in either case matches, anything else does not, at any position', () => {
    const mac = macNow('sha256', randomBytes(20), '', randomBytes(100)) as string;
    const hex = Buffer.from(mac, 'latin1').toString('hex');
    expect(hexSpells(mac, hex)).toBe(true);
    expect(hexSpells(mac, `sha256=${hex}`, 7)).toBe(true);
    expect(hexSpells(mac, hex.toUpperCase())).toBe(true);
    expect(hexSpells(mac, `${hex}0`)).toBe(false);
    expect(hexSpells(mac, hex.slice(0, -2))).toBe(false);
    expect(hexSpells(mac, `sha256=${hex}`, 6)).toBe(false);
    for (let i = 0; i < hex.length; i++) {
      const other = hex[i] === '0' ? '1' : '0';
      expect(hexSpells(mac, hex.slice(0, i) + other + hex.slice(i + 1)), `digit ${i} changed`).toBe(false);
      expect(hexSpells(mac, `${hex.slice(0, i)}g${hex.slice(i + 1)}`), `digit ${i} not hex`).toBe(false);
    }
  });

  it('latin1Equal and latin1FromBase64: the decoded signature equals the MAC, one byte off does not', () => {
    const mac = macNow('sha256', randomBytes(20), 'msg_1.1700.', randomBytes(100)) as string;
    const base64 = Buffer.from(mac, 'latin1').toString('base64');
    expect(latin1Equal(mac, latin1FromBase64(base64) as string)).toBe(true);
    expect(latin1FromBase64(`${base64}=`)).toBeUndefined();
    expect(latin1FromBase64(base64.replace(/.$/, '!'))).toBeUndefined();
    for (let i = 0; i < mac.length; i++) {
      const changed = mac.slice(0, i) + String.fromCharCode(mac.charCodeAt(i) ^ 1) + mac.slice(i + 1);
      expect(latin1Equal(mac, changed), `byte ${i} changed`).toBe(false);
    }
    expect(latin1Equal(mac, mac.slice(1))).toBe(false);
  });
});
