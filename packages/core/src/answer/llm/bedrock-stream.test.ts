// ConverseStream's frames: each event encoded by the AWS codec (loaded on first use) into a frame
// the codec decodes back with its three headers and payload, CRCs checked; and through the app, a
// route matched by the path the AWS SDK sends (model id percent-encoded) answering the frames, each
// chunk after chunkDelayMs, the journal seeing a 200.
import { EventStreamCodec } from '@smithy/core/event-streams';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../index.js';
import { RenderBudget } from '../template.js';
import { eventFrameEncoder, loadEventFrameEncoder, useEventStreamCodec } from './bedrock-stream.js';
import { llmAnswer, llmReady } from './llm-answer.js';

// As the Node, Bun and Deno adapters' serve() do (createApp alone names no codec).
useEventStreamCodec(() => import('@smithy/core/event-streams'));

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
  it('answers the SDK path (model id percent-encoded) with event frames, chunks apart, journaled 200', async () => {
    // The first Bedrock stream of this module: the route step waits for the codec to load.
    expect(eventFrameEncoder()).toBeUndefined();
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

  it('a HEAD gets the headers without frames; end reset cuts before the middle chunk', async () => {
    await loadEventFrameEncoder();
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
  it('rendered before it is loaded, an answer holds until it is, then is the stream', async () => {
    vi.resetModules();
    const fresh = await import('./llm-answer.js');
    (await import('./bedrock-stream.js')).useEventStreamCodec(() => import('@smithy/core/event-streams'));
    const render = fresh.llmAnswer({
      llm: { provider: 'bedrock', api: 'converse-stream', text: 'a b' },
      delay: 0,
      template: false,
      headers: () => new Map(),
    });
    const held = render(false, {
      params: {},
      query: {},
      headers: {},
      json: {},
      seq: 1,
      budget: new RenderBudget(1000),
    });
    expect(held).toMatchObject({ kind: 'fault', fault: 'hang', status: 200 });
    if (held.kind !== 'fault') return;
    expect(held.release?.aborted).toBe(true);
    const next = await held.next?.();
    expect(next?.kind === 'stream' && next.frames.length).toBe(6);
  });

  it('loads once, then encodes frames the codec decodes with their headers; a changed byte fails the CRC', async () => {
    const encode = await loadEventFrameEncoder();
    expect(await loadEventFrameEncoder()).toBe(encode);
    expect(eventFrameEncoder()).toBe(encode);
    const bytes = encode({
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
});

describe('where no codec was given (a Workers bundle)', () => {
  it('a converse-stream route answers 501 EVENT_STREAM_UNSUPPORTED, journaled; converse still answers', async () => {
    // Fresh modules: no adapter's serve() named the codec, as in a Workers bundle.
    vi.resetModules();
    try {
      const fresh = await import('../../index.js');
      const app = fresh.createApp();
      await app.request('/api/endpoints/wk/routes', {
        method: 'PUT',
        body: JSON.stringify({
          routes: [
            {
              match: { path: '/model/:m/converse-stream' },
              answer: { llm: { provider: 'bedrock', api: 'converse-stream', text: 'a' } },
            },
            {
              match: { path: '/model/:m/converse' },
              answer: { llm: { provider: 'bedrock', api: 'converse', text: 'a' } },
            },
          ],
        }),
      });
      const refused = await app.request('/endpoint/wk/model/m/converse-stream', { method: 'POST', body: '{}' });
      expect(refused.status).toBe(501);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('EVENT_STREAM_UNSUPPORTED');
      expect(body.error.message).toContain('converse (JSON) answers here');
      expect((await app.request('/endpoint/wk/model/m/converse', { method: 'POST', body: '{}' })).status).toBe(200);
      const journal = (await (await app.request('/api/endpoints/wk/requests')).json()) as {
        requests: { statusCode: number }[];
      };
      expect(journal.requests.map((entry) => entry.statusCode)).toEqual([501, 200]);
    } finally {
      vi.resetModules();
    }
  });
});

describe('useEventStreamCodec', () => {
  it('loads the codec with the loader given (a bundle that embeds it), once', async () => {
    vi.resetModules();
    const fresh = await import('./bedrock-stream.js');
    let calls = 0;
    fresh.useEventStreamCodec(() => {
      calls++;
      return import('@smithy/core/event-streams');
    });
    const encode = await fresh.loadEventFrameEncoder();
    await fresh.loadEventFrameEncoder();
    expect(calls).toBe(1);
    expect(codec.decode(encode({ event: 'messageStop', data: '{}', chunk: false })).headers[':event-type']?.value).toBe(
      'messageStop',
    );
    vi.resetModules();
  });
});

describe('an exception frame', () => {
  it('carries :exception-type and :message-type exception instead of an event type', async () => {
    const encode = await loadEventFrameEncoder();
    const message = codec.decode(encode({ event: 'throttlingException', data: '{"message":"slow"}', chunk: false }));
    expect(message.headers).toEqual({
      ':exception-type': { type: 'string', value: 'throttlingException' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    });
  });
});

describe('llmReady', () => {
  it('is for Bedrock streams only (an error beside text streams too), and undefined once the codec is loaded', async () => {
    expect(llmReady({ provider: 'bedrock', api: 'converse-stream', text: 'a', error: 'server' })).toBeDefined();
    expect(llmReady({ provider: 'bedrock', api: 'converse' })).toBeUndefined();
    expect(llmReady({ provider: 'openai', api: 'chat.completions', stream: true })).toBeUndefined();
    expect(llmReady({ provider: 'bedrock', api: 'converse-stream', error: 'server' })).toBeUndefined();
    const ready = llmReady({ provider: 'bedrock', api: 'converse-stream' });
    await loadEventFrameEncoder();
    expect(ready?.()).toBeUndefined();
  });
});
