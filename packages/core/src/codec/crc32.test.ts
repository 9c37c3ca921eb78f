import { describe, expect, it } from 'vitest';
import { crc32, crc32c } from './crc32.js';

const CHECK = new TextEncoder().encode('123456789');

describe('crc32 and crc32c', () => {
  it('give the check values of their polynomials, and of a range of the bytes', () => {
    expect(crc32(CHECK)).toBe(0xcbf43926);
    expect(crc32c(CHECK)).toBe(0xe3069283);
    const framed = new Uint8Array([0xff, ...CHECK, 0xff]);
    expect(crc32(framed, 1, 10)).toBe(0xcbf43926);
    expect(crc32c(framed, 1, 10)).toBe(0xe3069283);
    expect(crc32(new Uint8Array())).toBe(0);
  });
});
