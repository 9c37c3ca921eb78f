// The parse-work bound counts what protobufjs's parser would cost, from tokens alone.
import { describe, expect, it } from 'vitest';
import { MockpointError } from '../registry/errors.js';
import { compileProtos } from './compile-protos.js';
import { checkParseWork, MAX_PARSE_WORK, parseWork } from './parse-work.js';

/** One message of `n` string fields, with a oneof member, a nested message with reserved ranges, an enum. */
function wide(n: number): string {
  const fields = Array.from({ length: n }, (_, i) => `  string field_${i} = ${i + 1}; // a comment = 1 {`).join('\n');
  return `syntax = "proto3";\npackage p;\nmessage M {\n${fields}\n  oneof o { int32 x = ${n + 1}; }\n  message In { int32 a = 1 [json_name = "b"]; reserved 2, 3 to 4; }\n  enum E { A = 0; B = 1; }\n  string message = ${n + 2};\n}\n`;
}

/** proto2's `B` open to extensions, and `n` string fields in `blocks` `extend` blocks of it (by `target`). */
function extended(n: number, blocks = 1, target = 'B'): string {
  const per = Math.ceil(n / blocks);
  const extend = Array.from({ length: blocks }, (_, b) => {
    const fields = Array.from(
      { length: Math.min(per, n - b * per) },
      (_, i) => `optional string f${b * per + i} = ${b * per + i + 1};`,
    );
    return `extend ${target} { ${fields.join(' ')} }`;
  });
  return `syntax = "proto2";\npackage p;\nmessage B { optional int32 own = 536870911; extensions 1 to 536870910; reserved 536870912; }\n${extend.join('\n')}\n`;
}

describe('parseWork', () => {
  it("counts each message's fields squared and times its reserved ranges, a oneof's in its message", () => {
    // M: 10 fields, the oneof's, `message`: 12² = 144; In: 2 "=" (the option's too, an upper bound) and 2 reserved: 4 + 4.
    expect(parseWork(wide(10))).toEqual({ work: 144 + 8, widest: 12 });
    expect(parseWork('message "unterminated').work).toBe(0);
  });

  it('counts the fields of `extend` blocks as fields of the type they extend', () => {
    // B: 1 own field and 1 reserved range (1² + 1 × 1); its 3 extension fields (in two blocks): 4² - 1² + 3 × 1.
    expect(parseWork(extended(3, 2))).toEqual({ work: 2 + 18, widest: 4 });
    // The target resolved by its last segment, and across sources.
    expect(parseWork(extended(3, 1, '.p.B'))).toEqual({ work: 2 + 18, widest: 4 });
    const ext = 'syntax = "proto2";\nimport "b.proto";\nextend p.B { optional int32 x = 5; optional int32 y = 6; }\n';
    expect(() => checkParseWork({ 'b.proto': extended(3_998), 'x.proto': ext })).toThrow(MockpointError);
    expect(() => checkParseWork({ 'b.proto': extended(3_990) })).not.toThrow();
    // A type not declared in the sources: the extension fields alone, squared.
    expect(parseWork('extend Elsewhere { optional int32 a = 1; optional int32 b = 2; }')).toEqual({
      work: 4,
      widest: 2,
    });
  });

  it("counts a oneof's and a group's fields for their message, the group's own for the group", () => {
    const proto = `syntax = "proto2";\nmessage M {\n  optional int32 a = 1;\n  oneof o { int32 b = 2; group G = 3 { optional int32 c = 4; optional int32 d = 5; } }\n  repeated group H = 6 { optional int32 e = 7; }\n}\nextend M { optional group X = 100 { optional int32 x = 1; } }\n`;
    // M: a, b, G, H = 4 own, plus X from the extend: 5² = 25 (its own 16 and 9 more); G: 2² = 4; H: 1; X: 1.
    expect(parseWork(proto)).toEqual({ work: 25 + 4 + 1 + 1, widest: 5 });
  });

  it('refuses 9,000 extension fields at once (parsed, they took 7.6 s)', async () => {
    const proto = extended(9_000);
    const started = performance.now();
    let error: unknown;
    try {
      checkParseWork({ 'e.proto': proto });
    } catch (thrown) {
      error = thrown;
    }
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(MockpointError);
    expect((error as MockpointError).code).toBe('GRPC_DEFINITIONS_TOO_COMPLEX');
    expect((error as MockpointError).details).toMatchObject({ widest: 9_001 });
    // What is taken still parses, the extensions on B.
    const registry = await compileProtos({ 'e.proto': extended(300) });
    expect(registry.getExtension('p.f299')?.extendee.typeName).toBe('p.B');
  });

  it('refuses 60,000 fields in one message at once, and takes 4,000', async () => {
    const started = performance.now();
    let error: unknown;
    try {
      checkParseWork({ 'w.proto': wide(60_000) });
    } catch (thrown) {
      error = thrown;
    }
    // Generous: the tokenizer is linear (the parse it spares took minutes).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(MockpointError);
    expect((error as MockpointError).code).toBe('GRPC_DEFINITIONS_TOO_COMPLEX');
    expect((error as MockpointError).details).toMatchObject({ widest: 60_002 });
    expect(parseWork(wide(3_990)).work).toBeLessThan(MAX_PARSE_WORK);
    expect((await compileProtos({ 'w.proto': wide(500) })).getMessage('p.M')?.fields).toHaveLength(502);
  });
});
