import { describe, expect, it } from 'vitest';
import { jsonTextOf } from '../codec/json-text.js';
import { answerJson, parseAnswerJson } from './answer-json.js';
import { streamFromJson } from './answer-stream.js';

describe('a stream in the answer JSON (the form text-keeping queues store)', () => {
  it('round-trips with each event data exact', () => {
    const text = '{"format":"ndjson","events":[{"data":{"n":12345678901234567890,"f":1.0},"delay":5}],"end":"hang"}';
    const stream = streamFromJson(text) as { events: { data: unknown }[] };
    const again = parseAnswerJson(answerJson({ stream: stream as never }));
    expect(answerJson(again)).toBe(`{"stream":${text}}`);
    expect(jsonTextOf(again.stream?.events[0]?.data)).toBe('{"n":12345678901234567890,"f":1.0}');
  });
});
