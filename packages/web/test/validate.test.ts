/**
 * The page's form checks (pure functions, run in Node): the same name rule as
 * the server, JSON errors with their line and column, whole-number ranges and
 * shell quoting for the curl command.
 */
import { DEFAULT_MAX_DELAY_MS, NAME_PATTERN as SERVER_NAME_PATTERN } from '@mockpoint/core/client';
import { describe, expect, test } from 'vitest';
import {
  checkInteger,
  checkName,
  delayRange,
  lineColumn,
  locateJsonError,
  parseJson,
  STATUS_RANGE,
  shellQuote,
} from '../src/validate.js';

describe('checkName', () => {
  test('uses exactly the server rule', () => {
    for (const name of ['a', 'A-z_0', 'x'.repeat(64), 'x'.repeat(65), '', 'a b', 'é', 'a/b', '__proto__', 'a.b']) {
      expect(checkName(name, true) === undefined, name).toBe(SERVER_NAME_PATTERN.test(name));
    }
  });

  test('says what is wrong', () => {
    expect(checkName('', false)).toBeUndefined();
    expect(checkName('', true)).toBe('Enter a name: it becomes the last part of the URL.');
    expect(checkName('a b/c/', true)).toBe('Only letters, digits, _ and - are allowed (not space, "/").');
    expect(checkName('y'.repeat(70), true)).toBe('Too long: 70 characters, at most 64.');
  });
});

describe('parseJson', () => {
  test('accepts every JSON value', () => {
    for (const text of ['{}', '[]', 'null', '0', '-1.5e3', '"s"', 'true', ' {"a":[1,{"b":null}]} ']) {
      expect(parseJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
    }
  });

  test('points at the first mistake, with line and column', () => {
    const cases: [string, string][] = [
      ['', 'Enter a JSON value, e.g. {"ok": true}, [] or null.'],
      ['{\n  "a": 1,\n  "b": \n}', "Invalid JSON at line 4, column 1: expected a value, found '}'."],
      ['{"a": 1,}', 'Invalid JSON at line 1, column 9: a trailing comma is not allowed.'],
      ['[1, 2,]', 'Invalid JSON at line 1, column 7: a trailing comma is not allowed.'],
      ["{'a': 1}", "Invalid JSON at line 1, column 2: expected a property name in double quotes, found '''."],
      ["['x']", 'Invalid JSON at line 1, column 2: strings need double quotes, not single quotes.'],
      ['{"a" 1}', "Invalid JSON at line 1, column 6: expected ':' after the property name, found '1'."],
      ['{"a": 1', "Invalid JSON at line 1, column 8: expected ',' or '}', found the end of the text."],
      ['"abc', 'Invalid JSON at line 1, column 5: the string is not closed with ".'],
      [
        '"a\nb"',
        'Invalid JSON at line 1, column 3: a line break or control character inside a string must be escaped (\\n).',
      ],
      ['"\\x"', 'Invalid JSON at line 1, column 2: \\x is not a JSON escape.'],
      ['{} {}', "Invalid JSON at line 1, column 4: unexpected '{' after the end of the value."],
      ['01', "Invalid JSON at line 1, column 2: unexpected '1' after the end of the value."],
      ['undefined', "Invalid JSON at line 1, column 1: expected a value, found 'u'."],
    ];
    for (const [text, message] of cases) expect(parseJson(text), text).toEqual({ ok: false, message });
  });

  test('the scanner agrees with JSON.parse on what is valid', () => {
    const samples = [
      '{"a":1}',
      '[1,[2,[3,{"x":"\\u00e9\\n"}]]]',
      '1e5',
      '-0',
      '.5',
      '1.',
      '+1',
      '[,]',
      '{"a":1 "b":2}',
      'nul',
      'truex',
      '"\\u12"',
      '{"a":-}',
      '\t\r\n[]\n',
      '"tab\there"',
      '[1]]',
    ];
    for (const text of samples) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(locateJsonError(text) === undefined, text).toBe(valid);
    }
  });

  test('a key twice in one object and too deep nesting are refused, as the server does', () => {
    expect(parseJson('{\n  "a": 1,\n  "a": 2\n}')).toEqual({
      ok: false,
      message: 'Invalid JSON at line 3, column 3: the key "a" appears twice in one object; keys must be distinct.',
    });
    expect(parseJson(`${'['.repeat(600)}${']'.repeat(600)}`)).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^Invalid JSON at line 1, column 513: arrays\/objects nest deeper than 512 levels/,
      ),
    });
  });

  test('lineColumn counts from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('checkInteger', () => {
  test('whole numbers within the range only', () => {
    expect(checkInteger('404', STATUS_RANGE)).toEqual({ value: 404, problem: undefined });
    expect(checkInteger(' 200 ', STATUS_RANGE).problem).toBeUndefined();
    for (const raw of ['199', '600', '20.5', '-200', 'abc', '', '2e2']) {
      expect(checkInteger(raw, STATUS_RANGE).problem, raw).toBe('Status code must be a whole number from 200 to 599.');
    }
    // An empty field has no default: it is a problem, with no value.
    expect(checkInteger('', STATUS_RANGE).value).toBeNaN();
  });
});

describe('shellQuote', () => {
  test('leaves plain URLs alone and single-quotes the rest', () => {
    expect(shellQuote('http://127.0.0.1:16540/endpoint/a-b_c')).toBe('http://127.0.0.1:16540/endpoint/a-b_c');
    expect(shellQuote('http://h/x?a=1&b=2')).toBe("'http://h/x?a=1&b=2'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});

describe('limits from the server', () => {
  test('the delay range is the server’s MOCKPOINT_MAX_DELAY_MS, core’s default until the server has said', () => {
    expect(delayRange().max).toBe(DEFAULT_MAX_DELAY_MS);
    expect(checkInteger('5000', delayRange(1000)).problem).toBe('Delay must be a whole number from 0 to 1000 ms.');
    expect(checkInteger('1000', delayRange(1000)).problem).toBeUndefined();
    expect(checkInteger('90000', delayRange(120_000)).problem).toBeUndefined();
  });
});
