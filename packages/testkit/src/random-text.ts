/**
 * Seeded random text for fuzz tests: a small PRNG (so a failing run can be
 * replayed from its seed) and text made of code points of every kind a request
 * or a stored value might carry (controls, Latin-1, the BMP, astral, lone
 * surrogates), mostly visible ASCII so that many cases are valid.
 *
 * @module
 */

/** mulberry32: a small seeded PRNG answering numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code points of every kind (a lone surrogate is one UTF-16 unit). */
const KINDS: ((random: () => number) => string)[] = [
  (r) => String.fromCharCode(0x20 + Math.floor(r() * 95)), // visible ASCII and space
  () => '\t',
  (r) => String.fromCharCode(Math.floor(r() * 0x20)), // C0 controls (CR, LF, NUL included)
  () => '\u007f',
  (r) => String.fromCharCode(0x80 + Math.floor(r() * 0x80)), // U+0080-U+00FF
  () => '\u2028',
  (r) => String.fromCharCode(0x100 + Math.floor(r() * 0xd700)), // the rest of the BMP below the surrogates
  (r) => String.fromCodePoint(0x10000 + Math.floor(r() * 0x100000)), // astral
  (r) => String.fromCharCode(0xd800 + Math.floor(r() * 0x800)), // a lone surrogate
];

/** `length` code points, 60% visible ASCII, the rest of any kind. */
export function randomText(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const kind = random() < 0.6 ? 0 : Math.floor(random() * KINDS.length);
    out += (KINDS[kind] as (r: () => number) => string)(random);
  }
  return out;
}

/** JSON text of a string, every non-ASCII unit escaped (lone surrogates travel as `\uD800`). */
export function jsonString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
