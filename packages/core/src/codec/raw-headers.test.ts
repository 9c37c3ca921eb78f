import { describe, expect, it } from 'vitest';
import { declaresBody, headerLines, headerRecord, rawHeader, rawHeaderJoined } from './raw-headers.js';

const RAW = ['Host', 'a.test', 'X-Tag', 'one', 'content-type', 'text/plain', 'x-tag', 'two'];

describe('rawHeader', () => {
  it('reads a header in any case, the first one sent', () => {
    expect(rawHeader(RAW, 'host')).toBe('a.test');
    expect(rawHeader(RAW, 'x-tag')).toBe('one');
    expect(rawHeader(RAW, 'content-type')).toBe('text/plain');
  });

  it('is undefined for a header not sent, and ignores a name without a value', () => {
    expect(rawHeader(RAW, 'accept')).toBeUndefined();
    expect(rawHeader(['Host'], 'host')).toBeUndefined();
  });

  it('ignores case in ASCII only: KELVIN SIGN is not k', () => {
    expect(rawHeader(['\u212A', 'kelvin'], 'k')).toBeUndefined();
    expect(rawHeader(['K', 'ascii'], 'k')).toBe('ascii');
  });
});

describe('rawHeaderJoined', () => {
  it('joins every value of a repeated header with ", "', () => {
    expect(rawHeaderJoined(RAW, 'x-tag')).toBe('one, two');
    expect(rawHeaderJoined(RAW, 'host')).toBe('a.test');
    expect(rawHeaderJoined(RAW, 'accept')).toBeUndefined();
  });
});

describe('headerRecord', () => {
  it('lower-cases names and joins repeated ones', () => {
    expect(headerRecord(RAW)).toEqual({ host: 'a.test', 'x-tag': 'one, two', 'content-type': 'text/plain' });
  });

  it('is a plain object, where __proto__ is a header like any other', () => {
    const record = headerRecord(['__proto__', 'x']);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['__proto__']);
  });
});

describe('headerLines', () => {
  it('pairs names (as sent) with values, in order', () => {
    expect(headerLines(['A', '1', 'b', '2'])).toEqual([
      ['A', '1'],
      ['b', '2'],
    ]);
  });
});

describe('declaresBody', () => {
  it('is true for a Content-Length other than 0 or any Transfer-Encoding', () => {
    expect(declaresBody(['Content-Length', '5'])).toBe(true);
    expect(declaresBody(['transfer-encoding', 'chunked'])).toBe(true);
  });

  it('is false for no framing header or Content-Length: 0', () => {
    expect(declaresBody(['Host', 'a.test'])).toBe(false);
    expect(declaresBody(['Content-Length', '0'])).toBe(false);
  });
});
