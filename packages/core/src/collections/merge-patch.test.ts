import { describe, expect, it } from 'vitest';
import { mergePatchText } from './merge-patch.js';

describe('mergePatchText', () => {
  // RFC 7396, Appendix A: every example, as text.
  it.each([
    ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
    ['{"a":"b"}', '{"a":null}', '{}'],
    ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
    ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
    ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
    ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
    ['["a","b"]', '["c","d"]', '["c","d"]'],
    ['{"a":"b"}', '["c"]', '["c"]'],
    ['{"a":"foo"}', 'null', 'null'],
    ['{"a":"foo"}', '"bar"', '"bar"'],
    ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
    ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
    ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
  ])('RFC 7396 A: %s patched by %s is %s', (target, patch, result) => {
    expect(mergePatchText(target, patch)).toBe(result);
  });

  it('keeps the text of every member the patch does not name: big integers, decimals, escaped keys, key order', () => {
    const target = '{"2":1,"id":12345678901234567890,"price":1.50,"\\u0041":"x","b":1e400,"nested":{"z":-0,"a":1}}';
    expect(mergePatchText(target, '{"b":2,"nested":{"a":null,"n":100000000000000000001}}')).toBe(
      '{"2":1,"id":12345678901234567890,"price":1.50,"\\u0041":"x","b":2,"nested":{"z":-0,"n":100000000000000000001}}',
    );
  });

  it('replaces a member where it stands and adds new ones at the end', () => {
    expect(mergePatchText('{"a":1,"b":2,"c":3}', '{"d":4,"b":{"x":1}}')).toBe('{"a":1,"b":{"x":1},"c":3,"d":4}');
  });

  it('minifies what it is given', () => {
    expect(mergePatchText('{ "a" : [ 1 , 2 ] }', '{ "b" : { "c" : "d e" } }')).toBe('{"a":[1,2],"b":{"c":"d e"}}');
  });

  it('refuses text that is not JSON', () => {
    expect(() => mergePatchText('{"a":1}', '{"a":')).toThrow(/JSON|expected/);
  });
});
