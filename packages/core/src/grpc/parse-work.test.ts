// The parse-work bound counts what protobufjs's parser would cost, from tokens alone.
import { describe, expect, it } from 'vitest';
import { MockpointError } from '../wire/errors.js';
import { compileProtos } from './compile-protos.js';
import { checkParseWork, MAX_PARSE_WORK, parseWork } from './parse-work.js';

/** One message of `n` string fields, with a oneof member, a nested message with reserved ranges, an enum. */
function wide(n: number): string {
  const fields = Array.from({ length: n }, (_, i) => `  string field_${i} = ${i + 1}; // a comment = 1 {`).join('\n');
  return `syntax = "proto3";\npackage p;\nmessage M {\n${fields}\n  oneof o { int32 x = ${n + 1}; }\n  message In { int32 a = 1 [json_name = "b"]; reserved 2, 3 to 4; }\n  enum E { A = 0; B = 1; }\n  string message = ${n + 2};\n}\n`;
}

describe('parseWork', () => {
  it("counts each message's fields squared and times its reserved ranges, a oneof's in its message", () => {
    // M: 10 fields, the oneof's, `message`: 12² = 144; In: 2 "=" (the option's too, an upper bound) and 2 reserved: 4 + 4.
    expect(parseWork(wide(10))).toEqual({ work: 144 + 8, widest: 12 });
    expect(parseWork('message "unterminated').work).toBe(0);
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
