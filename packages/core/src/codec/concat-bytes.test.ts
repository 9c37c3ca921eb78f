import { describe, expect, it } from 'vitest';
import { concatBytes } from './concat-bytes.js';

describe('concatBytes', () => {
  it('puts the parts one after the other, in a new array', () => {
    const a = new Uint8Array([1, 2]);
    const joined = concatBytes([a, new Uint8Array(0), new Uint8Array([3])]);
    expect(joined).toEqual(new Uint8Array([1, 2, 3]));
    const one = concatBytes([a]);
    expect(one).toEqual(a);
    expect(one).not.toBe(a);
    expect(concatBytes([])).toEqual(new Uint8Array(0));
  });

  it('takes the total length when the caller has counted it', () => {
    expect(concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])], 3)).toEqual(new Uint8Array([1, 2, 3]));
  });
});
