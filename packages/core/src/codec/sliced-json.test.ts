import { describe, expect, it } from 'vitest';
import { parseSliced } from './sliced-json.js';

/** A random JSON value with long and short strings, escapes, keys that look like marks and `__proto__`. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 4 : 7));
  const text = (n: number) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      const r = random();
      out +=
        r < 0.02 ? '"' : r < 0.04 ? '\\' : r < 0.06 ? '\n' : r < 0.08 ? '\u0000' : r < 0.1 ? '\ud83d' : 'abc:'[i % 4];
    }
    return out;
  };
  if (pick === 0) return random() < 0.5 ? null : random() < 0.5;
  if (pick === 1) return Math.round((random() - 0.5) * 1e6) / 7;
  if (pick === 2) return random() < 0.5 ? 'x'.repeat(40 + Math.floor(random() * 60)) : text(Math.floor(random() * 120));
  if (pick === 3) return `\u0000sliced:${'y'.repeat(50)}`;
  if (pick === 4) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < 3; i++) object[random() < 0.1 ? 'k'.repeat(40) : `k${i}`] = randomValue(random, depth + 1);
  if (random() < 0.2)
    Object.defineProperty(object, '__proto__', { value: 1, enumerable: true, writable: true, configurable: true });
  return object;
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('parseSliced', () => {
  it('gives the value JSON.parse gives, for random texts with long strings sliced (strings of 32 units up)', () => {
    const random = seeded(4242);
    for (let i = 0; i < 400; i++) {
      const text = JSON.stringify(randomValue(random, 0));
      const sliced = parseSliced(text, 32);
      expect(sliced).toEqual(JSON.parse(text));
      expect(JSON.stringify(sliced)).toBe(text);
    }
  });

  it('keeps `__proto__` an own key, as JSON.parse does', () => {
    const text = `{"__proto__":{"polluted":"${'p'.repeat(100)}"},"a":"${'a'.repeat(100)}"}`;
    const value = parseSliced(text, 32) as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('slices a long string without escapes, copies one with escapes, never takes a long key for a value', () => {
    const long = 'z'.repeat(200);
    const text = `{ "${long}" : "${long}" ,"e":"${long}\\n${long}","arr":[ "${long}" ]}`;
    expect(parseSliced(text, 32)).toEqual(JSON.parse(text));
  });

  it('a string equal to the mark a call might use is a string like any other', () => {
    const text = JSON.stringify({ a: '\u0000sliced:0', b: 'q'.repeat(100), c: ['\u0000sliced:'] });
    expect(parseSliced(text, 32)).toEqual(JSON.parse(text));
  });

  it('holds no copy of a long string: twenty values of one 4 MB text take far less than 80 MB', () => {
    const text = JSON.stringify({ id: 'cus_1', object: { tax: { ip_address: 'x'.repeat(4_000_000) } } });
    const before = process.memoryUsage().heapUsed;
    const held = Array.from({ length: 20 }, () => parseSliced(text));
    const grown = process.memoryUsage().heapUsed - before;
    expect(held.every((value) => JSON.stringify(value) === text)).toBe(true);
    // JSON.parse would hold 20 copies of the field (80 MB); slices hold a few bytes each.
    expect(grown).toBeLessThan(40_000_000);
  });

  it('throws as JSON.parse does on a text that is not JSON', () => {
    for (const bad of [`{"a":"${'x'.repeat(100)}`, `{"a":"${'x'.repeat(100)}"`, `["${'x'.repeat(100)}" "y"]`, '']) {
      expect(() => parseSliced(bad, 32)).toThrow(SyntaxError);
    }
  });
});
