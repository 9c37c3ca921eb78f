import { describe, expect, it } from 'vitest';
import { TurnBudget } from '../turns/turn-budget.js';
import {
  JsonSyntaxError,
  JsonText,
  jsonTextOf,
  MAX_JSON_DEPTH,
  PARSE_IN_TURNS_CHARS,
  parseJsonInTurns,
  scanCheckedJson,
  scanJson,
  scanJsonInTurns,
  stringifyExact,
} from './json-text.js';

function problem(text: string, maxDepth?: number): string {
  try {
    scanJson(text, maxDepth);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    return (error as JsonSyntaxError).problem;
  }
  return 'none';
}

describe('scanJson', () => {
  it('keeps numbers and key order exactly as written', () => {
    const text = '{"b":1,"2":2,"id":12345678901234567890,"n":9007199254740993,"x":1e400,"z":-0,"f":1.50,"e":2E-3}';
    expect(scanJson(text).text).toBe(text);
  });

  it('drops whitespace outside strings only', () => {
    expect(scanJson(' \n{ "a b" : [ 1 , "x  y" ,\t{ } , [ ] ] }\r\n').text).toBe('{"a b":[1,"x  y",{},[]]}');
    expect(scanJson('  "  text  " ').text).toBe('"  text  "');
    expect(scanJson('true').text).toBe('true');
  });

  it('returns the top-level members as minified text, in order', () => {
    const { members } = scanJson('{ "name" : "a", "data" : { "id" : 12345678901234567890 }, "delay": 5 }');
    expect([...(members ?? [])]).toEqual([
      ['name', '"a"'],
      ['data', '{"id":12345678901234567890}'],
      ['delay', '5'],
    ]);
    expect(scanJson('[1]').members).toBeUndefined();
  });

  it('refuses a key twice in one object, also when spelled with escapes', () => {
    expect(problem('{"a":1,"a":2}')).toBe('duplicate-key');
    expect(problem('{"a":1,"\\u0061":2}')).toBe('duplicate-key');
    expect(problem('{"x":{"a":1,"b":{"a":2}},"y":{"a":3}}')).toBe('none');
    expect(problem('[{"a":1},{"a":2}]')).toBe('none');
  });

  it('refuses nesting deeper than the limit', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(problem(nest(MAX_JSON_DEPTH))).toBe('none');
    expect(problem(nest(MAX_JSON_DEPTH + 1))).toBe('too-deep');
    expect(problem('{"a":{"b":1}}', 1)).toBe('too-deep');
  });

  it('refuses everything JSON.parse refuses', () => {
    const bad = [
      '',
      ' ',
      '{',
      '}',
      '[1,]',
      '{"a":1,}',
      '{a:1}',
      "'x'",
      '01',
      '-',
      '1.',
      '.5',
      '1e',
      '+1',
      'NaN',
      'Infinity',
      'tru',
      'nul',
      '"\\x"',
      '"\\u12g4"',
      '"a\nb"',
      '"open',
      '1 2',
      '{"a" 1}',
      '[1 2]',
      '{"a":}',
      '--1',
      '0x10',
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(problem(text), text).toBe('syntax');
    }
  });

  it('accepts what JSON.parse accepts, and means the same value', () => {
    const good = ['0', '-0.0e+0', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"', '{"":""}', '[[],{}]', '"日本 🎉"', 'null'];
    for (const text of good) expect(JSON.parse(scanJson(text).text)).toEqual(JSON.parse(text));
  });

  it('keeps lone surrogates in strings while dropping whitespace', () => {
    expect(scanJson('[ "\ud800" , "a\udc00b" ]').text).toBe('["\ud800","a\udc00b"]');
    expect(scanJson('{ "k" : "é 🎉" }').text).toBe('{"k":"é 🎉"}');
  });

  it('splits a top-level array into its minified elements (and nothing deeper)', () => {
    expect(scanJson(' [ {"a" : [1, 2]} , 1.0 , "x, y" , [ ] ] ').elements).toEqual([
      '{"a":[1,2]}',
      '1.0',
      '"x, y"',
      '[]',
    ]);
    expect(scanJson('[]').elements).toEqual([]);
    expect(scanJson('{"a":[1]}').elements).toBeUndefined();
    expect(() => scanJson('[1,]')).toThrow(JsonSyntaxError);
  });

  it('says where the problem is', () => {
    expect(() => scanJson('{"a":1 x}')).toThrow(/position 7/);
  });

  // Past its first 256 characters a string is searched, not walked: the same checks and positions.
  const at = (text: string): string => {
    try {
      scanJson(text);
    } catch (error) {
      const { problem, position, message } = error as JsonSyntaxError;
      return `${problem} ${position} ${message.replace(/ \(found.*/, '')}`;
    }
    return 'none';
  };
  it.each([300, 5, 256, 257])('checks a string of %i characters and more like a short one', (length) => {
    const a = 'a'.repeat(length);
    const at1 = length + 1;
    expect(at(`"${a}\u0001x"`)).toBe(`syntax ${at1} control character in a string (escape it, e.g. \\n)`);
    expect(at(`"${a}\\x"`)).toBe(`syntax ${at1 + 1} invalid escape in a string`);
    expect(at(`"${a}\\`)).toBe(`syntax ${at1 + 1} invalid escape in a string`);
    expect(at(`"${a}\\u12G4"`)).toBe(`syntax ${at1 + 4} expected four hex digits after \\u`);
    expect(at(`"${a}`)).toBe(`syntax ${at1} unterminated string`);
    expect(at(`"${a}\\"${a}`)).toBe(`syntax ${2 * at1 + 1} unterminated string`);
    expect(at(`{"k":"${a}",\n"v":"${a}\n"}`)).toBe(
      `syntax ${2 * length + 14} control character in a string (escape it, e.g. \\n)`,
    );
    const escaped = `"${a}\\"\\\\\\u0041\\/${a}\\n${a}"`;
    expect(scanJson(escaped).text).toBe(escaped);
    expect(JSON.parse(scanJson(escaped).text)).toBe(`${a}"\\A/${a}\n${a}`);
    const key = `{ "${a}\\u0041" : "${a}\\"" , "b" : [ "${a}" ] }`;
    expect([...(scanJson(key).members ?? [])]).toEqual([
      [`${a}A`, `"${a}\\""`],
      ['b', `["${a}"]`],
    ]);
    expect(scanJson(key).keyTexts?.get(`${a}A`)).toBe(`"${a}\\u0041"`);
    expect(() => scanJson(`{"${a}":1,"${a}":2}`)).toThrow(/appears twice/);
  });

  it('scans a long string of many escapes in one pass (a 4 MB body of newlines: not one search to its end per escape)', () => {
    // 4 MB of "aaaaaa\n": about 500,000 escapes and no quote until the end. Searched to the end once
    // per escape this took minutes of one event-loop turn; in one pass it takes milliseconds. The
    // bound is the behaviour: a management body must not stall the daemon.
    const line = 'aaaaaa\\n';
    const body = line.repeat(500_000);
    const text = `{"body":"${body}","tail":"${'b'.repeat(300)}\\"${'c'.repeat(300)}"}`;
    const started = performance.now();
    const members = scanJson(text).members;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(members?.get('body')).toBe(`"${body}"`);
    expect(JSON.parse(members?.get('tail') ?? '')).toBe(`${'b'.repeat(300)}"${'c'.repeat(300)}`);
  });

  it('scanJsonInTurns finds and refuses what scanJson does, pausing between members and elements', async () => {
    const texts = [
      ' { "routes" : [ {"a": [1, {"b": 2}]} , "x" , [ ] ] , "more" : { "c" : [3] } } ',
      '[ 1 , [2, 3] , {"a": "b"} ]',
      '{"routes":[]}',
      '{}',
      '[]',
      ' "text" ',
      '12',
      '{"routes":[1,]}',
      '{"routes":[1] "x":2}',
      '{"a":1,"a":2}',
      '{"routes":[{"a":1,"a":2}]}',
      '[1] x',
      '{"routes":[1',
      `{"routes":[${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}]}`,
    ];
    const outcome = async (scan: () => unknown) => {
      try {
        return await scan();
      } catch (error) {
        return `${(error as JsonSyntaxError).problem} ${(error as Error).message}`;
      }
    };
    for (const text of texts) {
      expect(await outcome(() => scanJsonInTurns(text, new TurnBudget())), text).toEqual(
        await outcome(() => scanJson(text)),
      );
    }
    // It pauses before the member and each of its elements.
    class Counted extends TurnBudget {
      pauses = 0;
      override async pause() {
        this.pauses++;
      }
    }
    const list = `{"routes":[${Array.from({ length: 5 }, (_, i) => `{"id":${i}}`).join(',')}]}`;
    const budget = new Counted();
    expect(await scanJsonInTurns(list, budget)).toEqual(scanJson(list));
    expect(budget.pauses).toBe(6);
  });

  it('scanCheckedJson reads checked text like scanJson', () => {
    const long = 'x'.repeat(10_000);
    const text = ` { "routes" : [ {"answer": {"body": "${long}\\"\\u0041"}}, "${long}" ] } `;
    expect(scanCheckedJson(text)).toEqual(scanJson(text));
    expect(scanCheckedJson('[1, "a"]')).toEqual(scanJson('[1, "a"]'));
    expect(() => scanCheckedJson(`"${long}\\x"`)).toThrow(/invalid escape/);
  });
});

describe('JsonText', () => {
  it('parse minifies; value and toJSON give the JavaScript value', () => {
    const text = JsonText.parse('{ "a" : [1, 2] }');
    expect(text.text).toBe('{"a":[1,2]}');
    expect(text.value()).toEqual({ a: [1, 2] });
    expect(JSON.stringify({ data: text })).toBe('{"data":{"a":[1,2]}}');
    expect(Object.isFrozen(text)).toBe(true);
  });

  it('stringifyExact writes every JsonText inside a value as its own text', () => {
    const big = new JsonText('{"id":12345678901234567890,"x":1.0}');
    expect(stringifyExact({ answers: [{ data: big, times: 1 }, { data: null }] })).toBe(
      '{"answers":[{"data":{"id":12345678901234567890,"x":1.0},"times":1},{"data":null}]}',
    );
    expect(stringifyExact(big)).toBe(big.text);
    expect(stringifyExact({ a: 'plain "text"', n: [1, 2] })).toBe(JSON.stringify({ a: 'plain "text"', n: [1, 2] }));
    expect(() => stringifyExact(undefined)).toThrow(TypeError);
  });

  it('jsonTextOf gives a JsonText its own text and a plain value its JSON', () => {
    expect(jsonTextOf(new JsonText('12345678901234567890'))).toBe('12345678901234567890');
    expect(jsonTextOf({ a: 1 })).toBe('{"a":1}');
    expect(jsonTextOf(undefined)).toBe('null');
  });
});

describe('parseJsonInTurns', () => {
  it('means what JSON.parse means, a large document built member by member across turns', async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) paths[`/p${i}/{id}`] = { get: { responses: { 200: { description: `ok ${i}` } } } };
    const text = JSON.stringify({ openapi: '3.0.3', paths, list: Object.values(paths), s: 'x'.repeat(70_000) });
    expect(text.length).toBeGreaterThan(PARSE_IN_TURNS_CHARS * 4);
    let turns = 0;
    const budget = new TurnBudget(0);
    const pause = budget.pause.bind(budget);
    budget.pause = async () => {
      turns++;
      await pause();
    };
    expect(await parseJsonInTurns(text, budget)).toEqual(JSON.parse(text));
    expect(turns).toBeGreaterThan(6000);
    // `__proto__` is an own member, as JSON.parse makes it, never the prototype.
    const proto = `{"__proto__":{"polluted":true},"pad":"${'y'.repeat(PARSE_IN_TURNS_CHARS)}"}`;
    const parsed = (await parseJsonInTurns(proto, new TurnBudget())) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'pad']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
