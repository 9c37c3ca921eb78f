import { describe, expect, it } from 'vitest';
import { base64Bytes, fromBase64, isBase64, latin1FromBase64, toBase64, toBase64Url } from './base64.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('base64, written once', () => {
  it.each([
    [bytes(), ''],
    [bytes(0x66), 'Zg=='],
    [bytes(0x66, 0x6f), 'Zm8='],
    [bytes(0x66, 0x6f, 0x6f), 'Zm9v'],
    [bytes(0xfb, 0xff, 0xfe), '+//+'],
    [bytes(0, 255, 128, 7), 'AP+ABw=='],
  ])('%j is %j, and back', (raw, text) => {
    expect(toBase64(raw)).toBe(text);
    expect(isBase64(text)).toBe(true);
    expect(fromBase64(text)).toEqual(raw);
    expect(base64Bytes(text)).toEqual(raw);
    expect(latin1FromBase64(text)).toBe(String.fromCharCode(...raw));
  });

  it('encodes a body past the spread limit of String.fromCharCode', () => {
    const big = new Uint8Array(200_000).map((_, i) => i % 251);
    expect(fromBase64(toBase64(big))).toEqual(big);
  });

  it('decodes long checked text (natively under Node) to the bytes atob gives', () => {
    for (const length of [64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 300_001]) {
      const raw = new Uint8Array(length).map((_, i) => (i * 31) % 256);
      const text = toBase64(raw);
      const decoded = base64Bytes(text);
      expect(decoded).toEqual(raw);
      expect(decoded).toEqual(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
    }
  });

  it('encodes long bytes (natively under Node) to the text btoa gives, a view at an offset too', () => {
    for (const length of [64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 64 * 1024 + 2, 300_001]) {
      const backing = new Uint8Array(length + 7).map((_, i) => (i * 131) % 256);
      const view = backing.subarray(5, 5 + length);
      expect(toBase64(view)).toBe(btoa(Array.from(view, (byte) => String.fromCharCode(byte)).join('')));
    }
  });

  it.each(['Zg', 'Zg=', 'Zg===', 'Z===', 'Zm9v=', 'Zm 9v', 'Zm9v\n', '-_8=', 'Zg==Zg==', '====', 'Z=g=', '=Zg='])(
    '%j is not standard padded base64',
    (text) => {
      expect(isBase64(text)).toBe(false);
      expect(fromBase64(text)).toBeUndefined();
      expect(latin1FromBase64(text)).toBeUndefined();
    },
  );

  it('checks a text of 8 M characters (a 6 MiB body) in one pass, and one bad character in it', () => {
    const big = new Uint8Array(6 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 256;
    const text = toBase64(big);
    expect(text.length).toBeGreaterThan(8_000_000);
    expect(isBase64(text)).toBe(true);
    // Compared as one text (a deep equality of 6 M elements takes minutes).
    expect(Buffer.from(fromBase64(text) ?? []).equals(Buffer.from(big))).toBe(true);
    expect(isBase64(`${text.slice(0, 4_000_000)}*${text.slice(4_000_001)}`)).toBe(false);
    expect(isBase64(`${text.slice(0, -4)}A===`)).toBe(false);
  });

  it('toBase64Url: the URL alphabet without padding', () => {
    expect(toBase64Url(bytes(0xfb, 0xff, 0xfe, 0x66))).toBe('-__-Zg');
  });
});
