import { describe, expect, it } from 'vitest';
import type { RespondAnswer, StreamAnswer } from '../../answer/endpoint-answer.js';
import { throttled } from './chaos-bandwidth.js';

function respond(body: string | Uint8Array | null): RespondAnswer {
  const length = body === null ? undefined : String(typeof body === 'string' ? body.length : body.byteLength);
  const headers: Record<string, string> =
    length === undefined ? {} : { 'content-type': 'text/plain', 'content-length': length };
  return { kind: 'respond', status: 200, headers, body, delay: 7 };
}

describe('throttled', () => {
  it('cuts the body into slices a tenth of a second apart at the rate: all bytes, in order, no Content-Length', () => {
    const body = 'abcdefghij'.repeat(100); // 1000 bytes
    const stream = throttled(respond(body), 500) as StreamAnswer;
    expect(stream.kind).toBe('stream');
    expect(stream.delay).toBe(7);
    expect(stream.headers).toEqual({ 'content-type': 'text/plain' });
    // 50 bytes each 100 ms: 1000 bytes in 20 slices, the last sent 1.9 s after the first (500 bytes/s).
    expect(stream.frames.map((frame) => frame.bytes.byteLength)).toEqual(Array(20).fill(50));
    expect(stream.frames.map((frame) => frame.delay)).toEqual([0, ...Array(19).fill(100)]);
    const total = stream.frames.reduce((sum, frame) => sum + frame.delay, 0) / 1000;
    expect(Math.abs(total - (1000 - 50) / 500)).toBeLessThan(1e-9);
    expect(new TextDecoder().decode(Buffer.concat(stream.frames.map((frame) => frame.bytes)))).toBe(body);
  });

  it('holds at most 1000 slices, views of the body (no copies), however slow the rate', () => {
    const bytes = new Uint8Array(1_000_000);
    const stream = throttled(respond(bytes), 1) as StreamAnswer;
    expect(stream.frames.length).toBe(1000);
    expect(stream.frames.every((frame) => frame.bytes.buffer === bytes.buffer)).toBe(true);
    // 1000 bytes a slice at 1 byte/s: a slice each 1000 s; the rate is kept.
    expect(stream.frames[1]?.delay).toBe(1_000_000);
  });

  it('leaves an answer without a body as it is', () => {
    const empty = respond(null);
    expect(throttled(empty, 10)).toBe(empty);
    const none = respond('');
    expect(throttled(none, 10)).toBe(none);
  });
});
