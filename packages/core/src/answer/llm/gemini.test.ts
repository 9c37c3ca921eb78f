// Gemini's generateContent as an llm answer gives it, with fixed ids and time: the exact JSON
// response, the stream's chunks (text, function calls, a last chunk with finishReason and usage),
// the stream chosen by the path (SSE with alt=sse, a JSON array without), the model read from the
// path, and Google's error bodies; through the app, a route on the Gemini paths.
import { describe, expect, it } from 'vitest';
import type { LlmAnswer } from '../../api/answer-llm.js';
import { createApp } from '../../index.js';
import { geminiModelOf, geminiStreamed } from './gemini.js';
import { type LlmRequest, type LlmSource, llmWire } from './llm-wire.js';

const FIXED: LlmSource = { random: (_alphabet, count) => 'x'.repeat(count), now: () => Date.UTC(2025, 0, 1) };
const GEN = '/v1beta/models/gemini-2.5-pro:generateContent';
const STREAM = '/v1beta/models/gemini-2.5-pro:streamGenerateContent';

function wire(answer: Omit<LlmAnswer, 'provider' | 'api'>, request: Partial<LlmRequest> = {}) {
  const llm: LlmAnswer = { provider: 'gemini', api: 'generateContent', ...answer };
  return llmWire(
    {
      answer: llm,
      text: llm.text,
      request: { includeUsage: false, inputChars: 40, path: GEN, ...request },
      maxChunks: 1000,
    },
    FIXED,
  );
}

describe('Gemini generateContent', () => {
  it('a response, exactly: text and function call parts, STOP, usageMetadata, the model of the path', () => {
    const result = wire({
      text: 'Hi!',
      toolCalls: [
        { name: 'f', arguments: { a: 1 } },
        { name: 'g', id: 'c1' },
      ],
    });
    expect(result.kind === 'json' && result.body).toBe(
      '{"candidates":[{"content":{"parts":[{"text":"Hi!"},{"functionCall":{"name":"f","args":{"a":1}}},{"functionCall":{"id":"c1","name":"g","args":{}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":8,"totalTokenCount":18,"promptTokensDetails":[{"modality":"TEXT","tokenCount":10}]},"modelVersion":"gemini-2.5-pro","responseId":"xxxxxxxxxxxxxxxxxxxxxx"}',
    );
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/json; charset=UTF-8');
  });

  it('streamed on :streamGenerateContent?alt=sse: a chunk per text chunk, the calls, a last STOP chunk', () => {
    const result = wire({ text: 'Hi there', toolCalls: [{ name: 'f' }] }, { path: STREAM, alt: 'sse' });
    if (result.kind !== 'sse') throw new Error('not streamed');
    expect(result.headers['content-type']).toBe('text/event-stream');
    const chunks = result.events.map((event) => JSON.parse(event.data));
    expect(chunks.map((chunk) => chunk.candidates[0].content.parts)).toEqual([
      [{ text: 'Hi' }],
      [{ text: ' there' }],
      [{ functionCall: { name: 'f', args: {} } }],
      [{ text: '' }],
    ]);
    expect(chunks.map((chunk) => chunk.candidates[0].finishReason)).toEqual([undefined, undefined, undefined, 'STOP']);
    expect(chunks[0].usageMetadata).toEqual({
      promptTokenCount: 10,
      totalTokenCount: 10,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }],
    });
    expect(chunks[3].usageMetadata).toMatchObject({ candidatesTokenCount: 3, totalTokenCount: 13 });
    expect(result.events.map((event) => event.chunk)).toEqual([true, true, true, false]);
  });

  it('streamed without alt=sse: the chunks as one JSON array; the route stream field wins over the path', () => {
    const array = wire({ text: 'Hi there' }, { path: STREAM });
    expect(array.kind === 'json' && JSON.parse(array.body)).toHaveLength(3);
    expect(wire({ text: 'Hi', stream: false }, { path: STREAM, alt: 'sse' }).kind).toBe('json');
    expect(wire({ text: 'Hi', stream: true }).kind).toBe('sse');
    expect(wire({ text: 'Hi' }, { stream: true }).kind).toBe('json');
  });

  it('reads the model and the stream from the path', () => {
    expect(geminiModelOf('/v1beta/models/gemini-2.0-flash:generateContent')).toBe('gemini-2.0-flash');
    expect(geminiModelOf('/v1/models/tunedModels%2Fa:streamGenerateContent')).toBe('tunedModels/a');
    expect(geminiModelOf('/v1beta/models')).toBeUndefined();
    expect(geminiModelOf(undefined)).toBeUndefined();
    expect(geminiStreamed(STREAM)).toBe(true);
    expect(geminiStreamed(GEN)).toBe(false);
    const named = wire({ text: 'x', model: 'mine' });
    expect(named.kind === 'json' && JSON.parse(named.body).modelVersion).toBe('mine');
    const unnamed = wire({ text: 'x' }, { path: '/x' });
    expect(unnamed.kind === 'json' && JSON.parse(unnamed.body).modelVersion).toBe('gemini-2.5-flash');
  });

  it("errors: Google's body and status, RetryInfo with the quota error", () => {
    const quota = wire({ error: { type: 'rate_limit', retryAfter: 30 } });
    expect(quota.status).toBe(429);
    expect(quota.kind === 'json' && JSON.parse(quota.body).error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.Help' },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' },
      ],
    });
    for (const [type, status, name] of [
      ['overloaded', 503, 'UNAVAILABLE'],
      ['server', 500, 'INTERNAL'],
      ['context_length', 400, 'INVALID_ARGUMENT'],
    ] as const) {
      const result = wire({ error: { type, message: 'm' } });
      expect(result.status).toBe(status);
      expect(result.kind === 'json' && JSON.parse(result.body)).toEqual({
        error: { code: status, message: 'm', status: name },
      });
    }
    const busy = wire({ error: { type: 'overloaded', retryAfter: 2 } });
    expect(busy.kind === 'json' && JSON.parse(busy.body).error.details).toEqual([
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
    ]);
  });

  it('through the app: a route on /models/:model%3AgenerateContent, text templated', async () => {
    const app = createApp();
    await app.request('/api/endpoints/gem/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          {
            match: { path: '/v1beta/models/:model%3AstreamGenerateContent' },
            answer: {
              template: true,
              llm: { provider: 'gemini', api: 'generateContent', text: 'Model {{params.model}}' },
            },
          },
          {
            match: { path: '/v1beta/models/:model%3AgenerateContent' },
            answer: {
              template: true,
              llm: { provider: 'gemini', api: 'generateContent', text: 'Hi {{body.contents.0.parts.0.text}}' },
            },
          },
        ],
      }),
    });
    const json = await app.request('/endpoint/gem/v1beta/models/gemini-2.5-flash:generateContent', {
      method: 'POST',
      body: '{"contents":[{"role":"user","parts":[{"text":"Ada"}]}]}',
    });
    const body = (await json.json()) as {
      candidates: { content: { parts: unknown[] } }[];
      modelVersion: string;
      usageMetadata: { promptTokenCount: number };
    };
    expect(body.candidates[0]?.content.parts).toEqual([{ text: 'Hi Ada' }]);
    expect(body.modelVersion).toBe('gemini-2.5-flash');
    // The contents' JSON text, 42 characters, / 4.
    expect(body.usageMetadata.promptTokenCount).toBe(11);
    const streamed = await app.request('/endpoint/gem/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', {
      method: 'POST',
      body: '{}',
    });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const chunks = (await streamed.text())
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')));
    expect(chunks.map((chunk) => chunk.candidates[0].content.parts[0].text).join('')).toBe('Model gemini-2.5-flash');
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
  });
});
