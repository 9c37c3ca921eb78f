// An llm answer is checked when it is saved (provider and api, tool calls, errors, sizes, the
// stream's length), kept exact (tool arguments as their text), and its text split into chunks
// that join back into it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';
import { llmChunks } from './answer-llm.js';

async function save(answer: unknown, options: Parameters<typeof createApp>[0] = {}) {
  const app = createApp(options);
  const response = await app.request('/api/endpoints/ai/routes', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ routes: [{ answer }] }),
  });
  const body = (await response.json()) as { error?: { code: string; message: string } };
  return { status: response.status, code: body.error?.code, message: body.error?.message ?? '' };
}

const openai = { provider: 'openai', api: 'chat.completions' };

describe('llm answers at save', () => {
  it('keeps a valid answer, tool arguments as their exact text', async () => {
    const app = createApp();
    const text =
      '{"routes":[{"id":"r1","answer":{"delay":5,"llm":{"provider":"anthropic","api":"messages","text":"Hi","toolCalls":[{"name":"f","arguments":{"n":1.0,"big":123456789012345678901234}}],"stream":true,"chunkDelayMs":10,"usage":{"inputTokens":3},"end":"reset","model":"claude-x"},"setState":"s"}}]}';
    const response = await app.request('/api/endpoints/ai/routes', { method: 'PUT', body: text });
    expect(response.status).toBe(200);
    const listed = await (await app.request('/api/endpoints/ai/routes')).text();
    expect(listed).toContain('"toolCalls":[{"name":"f","arguments":{"n":1.0,"big":123456789012345678901234}}]');
  });

  it.each([
    [{ llm: { provider: 'anthropic', api: 'responses' } }, 'INVALID_LLM', 'anthropic has messages, not responses'],
    [{ llm: { provider: 'openai', api: 'messages' } }, 'INVALID_LLM', 'openai has chat.completions and responses'],
    [{ llm: { provider: 'gemini', api: 'messages' } }, 'INVALID_LLM', 'gemini has generateContent, not messages'],
    [{ llm: { provider: 'ollama', api: 'generateContent' } }, 'INVALID_LLM', 'ollama has chat, not generateContent'],
    [{ llm: { provider: 'anthropic', api: 'embeddings' } }, 'INVALID_LLM', 'anthropic has messages'],
    [{ llm: { provider: 'mistral', api: 'chat' } }, 'INVALID_LLM', 'provider'],
    [{ llm: { provider: 'openai', api: 'embeddings', text: 'x' } }, 'INVALID_LLM', 'llm.text: an embeddings answer'],
    [{ llm: { provider: 'openai', api: 'embeddings', stream: true } }, 'INVALID_LLM', 'llm.stream'],
    [
      { llm: { provider: 'ollama', api: 'chat', toolCalls: [{ name: 'f', arguments: 1 }] } },
      'INVALID_LLM',
      'JSON object',
    ],
    [
      { llm: { provider: 'gemini', api: 'generateContent', error: 'rate_limit', end: 'reset' } },
      'INVALID_LLM',
      'alone',
    ],
    [{ llm: { provider: 'gemini', api: 'generateContent', text: '{{x' }, template: true }, 'INVALID_TEMPLATE', 'text'],
    [{ llm: { ...openai, toolCalls: [{ name: 'a b' }] } }, 'INVALID_LLM', 'toolCalls[0].name'],
    [{ llm: { ...openai, toolCalls: [{ name: 'f', id: 'x\ny' }] } }, 'INVALID_LLM', 'toolCalls[0].id'],
    [{ llm: { ...openai, toolCalls: [{ name: 'f', arguments: [1] }] } }, 'INVALID_LLM', 'must be a JSON object'],
    [{ llm: { ...openai, error: 'rate_limit', text: 'x' } }, 'INVALID_LLM', 'the error alone'],
    [{ llm: { ...openai, error: { type: 'server', retryAfter: 3 } } }, 'INVALID_LLM', 'rate_limit and overloaded'],
    [{ llm: { ...openai, error: 'teapot' } }, 'INVALID_LLM', ''],
    [{ llm: { ...openai, end: 'hang' } }, 'INVALID_LLM', ''],
    [{ llm: { ...openai, chunkDelayMs: -1 } }, 'INVALID_LLM', ''],
    [{ llm: { ...openai, bogus: 1 } }, 'UNKNOWN_FIELD', 'bogus'],
    [{ llm: openai, statusCode: 201 }, 'INVALID_ANSWER', 'statusCode do not apply'],
    [{ llm: openai, body: 'x' }, 'INVALID_ANSWER', 'body do not apply'],
    [{ llm: { ...openai, text: '{{nope' }, template: true }, 'INVALID_TEMPLATE', 'llm.text'],
    [{ llm: { ...openai, text: '{{item.id}}' }, template: true }, 'INVALID_TEMPLATE', 'item'],
  ])('refuses %j with %s', async (answer, code, message) => {
    const result = await save(answer);
    expect(result.status).toBe(400);
    expect(result.code).toBe(code);
    expect(result.message).toContain(message);
  });

  it('bounds the text by the body limit and the stream by its events and time', async () => {
    expect(await save({ llm: { ...openai, text: 'x'.repeat(2000) } }, { maxBodyBytes: 1000 })).toMatchObject({
      code: 'BODY_TOO_LARGE',
    });
    const words = 'word '.repeat(300);
    expect(await save({ llm: { ...openai, text: words } }, { maxStreamEvents: 100 })).toMatchObject({
      code: 'STREAM_TOO_LONG',
    });
    // Not streamed: the events' limit does not apply.
    expect(await save({ llm: { ...openai, text: words, stream: false } }, { maxStreamEvents: 100 })).toMatchObject({
      status: 200,
    });
    expect(await save({ llm: { ...openai, text: words, chunkDelayMs: 2500 } })).toMatchObject({
      code: 'STREAM_TOO_LONG',
    });
  });

  it('bounds Gemini and Ollama answers alike, and keeps a valid one of each new api', async () => {
    const words = 'word '.repeat(300);
    for (const llm of [
      { provider: 'gemini', api: 'generateContent' },
      { provider: 'ollama', api: 'chat' },
    ]) {
      expect(await save({ llm: { ...llm, text: 'x'.repeat(2000) } }, { maxBodyBytes: 1000 })).toMatchObject({
        code: 'BODY_TOO_LARGE',
      });
      expect(await save({ llm: { ...llm, text: words } }, { maxStreamEvents: 100 })).toMatchObject({
        code: 'STREAM_TOO_LONG',
      });
      expect(
        await save({ llm: { ...llm, text: 'Hi', toolCalls: [{ name: 'f', arguments: { a: 1 } }] } }),
      ).toMatchObject({ status: 200 });
    }
    expect(await save({ llm: { provider: 'openai', api: 'embeddings', model: 'e', end: 'reset' } })).toMatchObject({
      status: 200,
    });
  });

  it('is for routes only: a queued answer refuses it', async () => {
    const app = createApp();
    const response = await app.request('/api/endpoints/ai/queue', {
      method: 'POST',
      body: JSON.stringify({ answers: [{ llm: openai }] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_FIELD');
  });
});

describe('llmChunks', () => {
  it('splits like a tokenizer: words with their leading space, punctuation apart', () => {
    expect(llmChunks('Hello, world! How are you?')).toEqual(['Hello', ',', ' world', '!', ' How', ' are', ' you', '?']);
    expect(llmChunks('{"city":"Paris"}')).toEqual(['{"', 'city', '":"', 'Paris', '"}']);
    expect(llmChunks('a\n\nb')).toEqual(['a', '\n\n', 'b']);
    expect(llmChunks('')).toEqual([]);
  });

  it('joins neighbours to stay within the most chunks asked', () => {
    const chunks = llmChunks('one two three four five six seven', 3);
    expect(chunks.length).toBeLessThanOrEqual(3);
    expect(chunks.join('')).toBe('one two three four five six seven');
  });

  it('joined, the chunks are the text, for any code points (lone surrogates too)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 1, max: 50 }), (text, most) => {
        expect(llmChunks(text).join('')).toBe(text);
        const capped = llmChunks(text, most);
        expect(capped.join('')).toBe(text);
        expect(capped.length).toBeLessThanOrEqual(most);
      }),
      { numRuns: 300 },
    );
  });
});
