// Ollama's /api/chat as an llm answer gives it, with fixed time: the exact JSON object, the NDJSON
// lines (done:false chunks, the tool calls, a done:true line with the counts and durations), the
// request's stream honoured with Ollama's default (true), the error bodies; through the app, the
// lines as the engine writes them, each chunk after chunkDelayMs, and a reset halfway.
import { describe, expect, it } from 'vitest';
import type { LlmAnswer } from '../../api/answer-llm.js';
import { createApp } from '../../index.js';
import { RenderBudget } from '../template.js';
import { llmAnswer } from './llm-answer.js';
import { type LlmRequest, type LlmSource, llmWire } from './llm-wire.js';

const FIXED: LlmSource = { random: (_alphabet, count) => 'x'.repeat(count), now: () => Date.UTC(2025, 0, 1) };

function wire(answer: Omit<LlmAnswer, 'provider' | 'api'>, request: Partial<LlmRequest> = {}) {
  const llm: LlmAnswer = { provider: 'ollama', api: 'chat', ...answer };
  return llmWire(
    {
      answer: llm,
      text: llm.text,
      request: { includeUsage: false, inputChars: 40, model: 'llama3.2', ...request },
      maxChunks: 1000,
    },
    FIXED,
  );
}

const DONE =
  '"done_reason":"stop","done":true,"total_duration":{total},"load_duration":1000000,"prompt_eval_count":10,"prompt_eval_duration":2500000,"eval_count":{n},"eval_duration":{eval}}';

function done(outputTokens: number): string {
  return DONE.replace('{n}', String(outputTokens))
    .replace('{eval}', String(outputTokens * 10_000_000))
    .replace('{total}', String(3_500_000 + outputTokens * 10_000_000));
}

describe('Ollama chat', () => {
  it('stream: false: one object, exactly, tool calls with their arguments as objects', () => {
    const result = wire(
      {
        text: 'Hi!',
        toolCalls: [
          { name: 'f', arguments: { a: 1 } },
          { name: 'g', id: 'c1' },
        ],
      },
      { stream: false },
    );
    expect(result.kind === 'json' && result.body).toBe(
      `{"model":"llama3.2","created_at":"2025-01-01T00:00:00.000Z","message":{"role":"assistant","content":"Hi!","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}},{"id":"c1","function":{"name":"g","arguments":{}}}]},${done(8)}`,
    );
    expect(result.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it("streams by default (Ollama's default), as the request asks, or as the route says", () => {
    expect(wire({ text: 'Hi' }).kind).toBe('ndjson');
    expect(wire({ text: 'Hi' }, { stream: true }).kind).toBe('ndjson');
    expect(wire({ text: 'Hi' }, { stream: false }).kind).toBe('json');
    expect(wire({ text: 'Hi', stream: true }, { stream: false }).kind).toBe('ndjson');
    expect(wire({ text: 'Hi', stream: false }).kind).toBe('json');
  });

  it('NDJSON: a done:false line per chunk, the tool calls, a done:true line', () => {
    const result = wire({ text: 'Hi there', toolCalls: [{ name: 'f' }] });
    if (result.kind !== 'ndjson') throw new Error('not NDJSON');
    expect(result.headers['content-type']).toBe('application/x-ndjson');
    const head = '{"model":"llama3.2","created_at":"2025-01-01T00:00:00.000Z","message":';
    expect(result.events.map((event) => event.data)).toEqual([
      `${head}{"role":"assistant","content":"Hi"},"done":false}`,
      `${head}{"role":"assistant","content":" there"},"done":false}`,
      `${head}{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{}}}]},"done":false}`,
      `${head}{"role":"assistant","content":""},${done(3)}`,
    ]);
    expect(result.events.map((event) => event.chunk)).toEqual([true, true, true, false]);
  });

  it('errors: {"error": "…"} with the status, retry-after on a quota error and an overload', () => {
    for (const [type, status] of [
      ['rate_limit', 429],
      ['overloaded', 503],
      ['server', 500],
      ['context_length', 400],
    ] as const) {
      const result = wire({ error: type });
      expect(result.status).toBe(status);
      expect(result.kind === 'json' && Object.keys(JSON.parse(result.body))).toEqual(['error']);
      expect(result.headers['retry-after']).toBe(status === 429 || status === 503 ? '1' : undefined);
    }
    const own = wire({ error: { type: 'rate_limit', message: 'slow down', retryAfter: 9 } });
    expect(own.kind === 'json' && own.body).toBe('{"error":"slow down"}');
    expect(own.headers['retry-after']).toBe('9');
  });

  it('as the engine answers: lines each ending in a newline, chunks after chunkDelayMs, reset halfway', () => {
    const render = llmAnswer({
      llm: { provider: 'ollama', api: 'chat', text: 'a b c d', chunkDelayMs: 25, end: 'reset' },
      delay: 0,
      template: false,
      headers: () => new Map(),
      source: FIXED,
    });
    const context = { params: {}, query: {}, headers: {}, json: {}, seq: 1, budget: new RenderBudget(1000) };
    const answer = render(false, context);
    if (answer.kind !== 'stream') throw new Error('not a stream');
    expect(answer.end).toBe('reset');
    expect(answer.headers['content-type']).toBe('application/x-ndjson');
    const lines = answer.frames.map((frame) => new TextDecoder().decode(frame.bytes));
    // "a" and " b" of the four chunks, before the middle one.
    expect(lines.map((line) => JSON.parse(line).message.content)).toEqual(['a', ' b']);
    expect(lines.every((line) => line.endsWith('}\n'))).toBe(true);
    expect(answer.frames.map((frame) => frame.delay)).toEqual([25, 25]);
  });

  it('through the app: the request model echoed, the messages counted, text templated', async () => {
    const app = createApp();
    await app.request('/api/endpoints/ol/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          {
            match: { path: '/api/chat' },
            answer: {
              template: true,
              llm: { provider: 'ollama', api: 'chat', text: 'Hi {{body.messages.0.content}}' },
            },
          },
        ],
      }),
    });
    const response = await app.request('/endpoint/ol/api/chat', {
      method: 'POST',
      body: '{"model":"qwen3","messages":[{"role":"user","content":"Ada"}]}',
    });
    const lines = (await response.text()).split('\n');
    expect(lines.pop()).toBe('');
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.map((line) => line.message.content).join('')).toBe('Hi Ada');
    // The messages' JSON text, 33 characters, / 4.
    expect(parsed.at(-1)).toMatchObject({ model: 'qwen3', done: true, prompt_eval_count: 9, eval_count: 2 });
  });
});
