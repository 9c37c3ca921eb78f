/** The status the routes view shows for an llm answer: an overload is 529 for Anthropic only. */
import { describe, expect, test } from 'vitest';
import { describeLlm, llmStatus } from '../src/answer-marks.js';

describe('llmStatus', () => {
  test("each provider's status for each error, 200 without one", () => {
    expect(llmStatus({ provider: 'gemini', api: 'generateContent', text: 'x' })).toBe(200);
    expect(llmStatus({ provider: 'anthropic', api: 'messages', error: 'overloaded' })).toBe(529);
    for (const [provider, api] of [
      ['openai', 'chat.completions'],
      ['gemini', 'generateContent'],
      ['ollama', 'chat'],
    ] as const) {
      expect(llmStatus({ provider, api, error: 'overloaded' })).toBe(503);
      expect(llmStatus({ provider, api, error: { type: 'rate_limit' } })).toBe(429);
    }
    expect(describeLlm({ provider: 'ollama', api: 'chat', error: 'server' })).toBe('llm: ollama chat, error server');
    expect(llmStatus({ provider: 'bedrock', api: 'converse', error: 'overloaded' })).toBe(503);
    expect(llmStatus({ provider: 'bedrock', api: 'converse-stream', error: 'rate_limit' })).toBe(429);
  });

  test("Bedrock's converse-stream with text and an error: a 200 stream the error breaks", () => {
    const llm = { provider: 'bedrock', api: 'converse-stream', text: 'x', error: 'rate_limit' } as const;
    expect(llmStatus(llm)).toBe(200);
    expect(describeLlm(llm)).toBe('llm: bedrock converse-stream, streamed, error rate_limit');
  });
});
