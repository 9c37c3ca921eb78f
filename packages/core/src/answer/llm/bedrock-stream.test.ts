// ConverseStream's frames, written in the tree (event-stream-frame.ts), read back by the AWS SDK's own
// decoder (`EventStreamCodec` of `@smithy/core`, a devDependency: the oracle, never installed by a user)
// with their headers and payload, lengths and CRCs checked; and through the app, a route matched by
// the path the AWS SDK sends (model id percent-encoded) answering the frames, each chunk after
// chunkDelayMs, the journal seeing a 200 — with no adapter's serve() called (as in a Workers bundle).
import { EventStreamCodec } from '@smithy/core/event-streams';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../codec/crc32.js';
import { createApp } from '../../index.js';
import { RenderBudget } from '../template.js';
import { bedrockEventFrame } from './bedrock-stream.js';
import { eventStreamFrame } from './event-stream-frame.js';
import { llmAnswer } from './llm-answer.js';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** Each frame of `bytes` (split at each prelude's total length) as its event type and payload (the codec checks lengths and CRCs). */
function decodeAll(bytes: Uint8Array): { type: unknown; headers: string[]; payload: unknown }[] {
  const frames: { type: unknown; headers: string[]; payload: unknown }[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; ) {
    const length = view.getUint32(at);
    const message = codec.decode(bytes.subarray(at, at + length));
    at += length;
    expect(message.headers[':message-type']?.value).toBe('event');
    expect(message.headers[':content-type']?.value).toBe('application/json');
    frames.push({
      type: message.headers[':event-type']?.value,
      headers: Object.keys(message.headers).sort(),
      payload: JSON.parse(new TextDecoder().decode(message.body)),
    });
  }
  return frames;
}

describe('ConverseStream through the app', () => {
  it('answers the SDK path (model id percent-encoded) with event frames, chunks apart, journaled 200, no adapter needed', async () => {
    const app = createApp();
    const saved = await app.request('/api/endpoints/br/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          {
            match: { method: 'POST', path: '/model/anthropic.claude-3-haiku-20240307-v1:0/converse-stream' },
            answer: { llm: { provider: 'bedrock', api: 'converse-stream', text: 'Hi there', chunkDelayMs: 20 } },
          },
        ],
      }),
    });
    expect(saved.status).toBe(200);
    const started = performance.now();
    const response = await app.request('/endpoint/br/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream', {
      method: 'POST',
      body: '{"messages":[{"role":"user","content":[{"text":"hello"}]}]}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    expect(response.headers.get('x-amzn-requestid')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Two chunks, 20 ms apart each.
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    const frames = decodeAll(bytes);
    expect(frames.map((frame) => frame.type)).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    expect(frames.every((frame) => frame.headers.join() === ':content-type,:event-type,:message-type')).toBe(true);
    expect(frames[5]?.payload).toEqual({
      usage: { inputTokens: 12, outputTokens: 2, totalTokens: 14 },
      metrics: { latencyMs: 40 },
    });
    const journal = (await (await app.request('/api/endpoints/br/requests')).json()) as {
      requests: { statusCode: number }[];
    };
    expect(journal.requests.map((entry) => entry.statusCode)).toEqual([200]);
  });

  it('a HEAD gets the headers without frames; end reset cuts before the middle chunk', () => {
    const render = llmAnswer({
      llm: { provider: 'bedrock', api: 'converse-stream', text: 'a b c d', end: 'reset' },
      delay: 0,
      template: false,
      headers: () => new Map(),
    });
    const context = { params: {}, query: {}, headers: {}, json: {}, seq: 1, budget: new RenderBudget(1000) };
    const head = render(true, context);
    expect(head.kind === 'stream' && head.frames).toEqual([]);
    const cut = render(false, context);
    expect(cut.kind === 'stream' && cut.end).toBe('reset');
    if (cut.kind !== 'stream') return;
    const joined = new Uint8Array(cut.frames.reduce((sum, frame) => sum + frame.bytes.byteLength, 0));
    let at = 0;
    for (const frame of cut.frames) {
      joined.set(frame.bytes, at);
      at += frame.bytes.byteLength;
    }
    expect(decodeAll(joined).map((frame) => frame.payload)).toEqual([
      { role: 'assistant' },
      { contentBlockIndex: 0, delta: { text: 'a' } },
      { contentBlockIndex: 0, delta: { text: ' b' } },
    ]);
  });
});

describe('the event frame encoder', () => {
  it('encodes frames the SDK decodes with their headers; a changed byte fails the CRC', () => {
    const bytes = bedrockEventFrame({
      event: 'contentBlockDelta',
      data: '{"contentBlockIndex":0,"delta":{"text":"é"}}',
      chunk: true,
    });
    const message = codec.decode(bytes);
    expect(message.headers).toEqual({
      ':event-type': { type: 'string', value: 'contentBlockDelta' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    });
    expect(new TextDecoder().decode(message.body)).toBe('{"contentBlockIndex":0,"delta":{"text":"é"}}');
    // Prelude: total length, headers length, prelude CRC; the message CRC last.
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)).toBe(bytes.byteLength);
    const broken = bytes.slice();
    broken[broken.length - 6] = (broken[broken.length - 6] as number) ^ 1;
    expect(() => codec.decode(broken)).toThrow(/checksum/i);
  });

  it('is byte for byte what the SDK encodes, for random headers and payloads', () => {
    const text = fc.string({ unit: 'binary', maxLength: 60 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), text), {
          maxLength: 5,
          selector: ([name]) => name,
        }),
        fc.uint8Array({ maxLength: 300 }),
        (pairs, payload) => {
          const headers = Object.fromEntries(pairs);
          const ours = eventStreamFrame(headers, payload);
          const sdkHeaders = Object.fromEntries(
            pairs.map(([name, value]) => [name, { type: 'string', value }] as const),
          );
          expect(ours).toEqual(codec.encode({ headers: sdkHeaders, body: payload }));
          const back = codec.decode(ours);
          // The SDK's decoder assigns each header, so one named `__proto__` sets its result's
          // prototype rather than a member: compare the others (the bytes above hold them all).
          const { __proto__: _dropped, ...others } = sdkHeaders as Record<string, unknown>;
          expect({ ...back.headers }).toEqual(Object.hasOwn(sdkHeaders, '__proto__') ? others : sdkHeaders);
          expect(back.body).toEqual(payload);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses a header past its length field (255-byte name, 65,535-byte value)', () => {
    expect(() => eventStreamFrame({ ['n'.repeat(256)]: 'v' }, new Uint8Array())).toThrow(RangeError);
    expect(() => eventStreamFrame({ n: 'é'.repeat(32_768) }, new Uint8Array())).toThrow(RangeError);
    const longest = eventStreamFrame({ ['n'.repeat(255)]: 'v'.repeat(65_535) }, new Uint8Array());
    expect(codec.decode(longest).headers['n'.repeat(255)]?.value).toHaveLength(65_535);
  });
});

describe('crc32', () => {
  it('is the IEEE CRC-32 (the check value of "123456789", and of nothing)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });
});

describe('an exception frame', () => {
  it('carries :exception-type and :message-type exception instead of an event type', () => {
    const message = codec.decode(
      bedrockEventFrame({ event: 'throttlingException', data: '{"message":"slow"}', chunk: false }),
    );
    expect(message.headers).toEqual({
      ':exception-type': { type: 'string', value: 'throttlingException' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    });
  });
});
