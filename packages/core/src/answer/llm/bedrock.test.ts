// Bedrock's Converse wire format with fixed ids: the exact JSON body, ConverseStream's events in
// Bedrock's order, the errors as the AWS SDK reads them; and the checks at save that are Bedrock's
// own (its api decides streaming; no retry-after).
import { describe, expect, it } from 'vitest';
import type { LlmAnswer } from '../../api/answer-llm.js';
import { createApp } from '../../index.js';
import { type LlmSource, llmWire } from './llm-wire.js';

const FIXED: LlmSource = { random: (_alphabet, count) => 'x'.repeat(count), now: () => Date.UTC(2025, 0, 1) };

function wire(answer: LlmAnswer, stream?: boolean) {
  const request = { includeUsage: false, inputChars: 40, ...(stream === undefined ? {} : { stream }) };
  return llmWire({ answer, text: answer.text, request, maxChunks: 1000 }, FIXED);
}

describe('Bedrock converse', () => {
  it('a JSON answer, exactly: content blocks, stopReason, usage, metrics', () => {
    const result = wire({
      provider: 'bedrock',
      api: 'converse',
      text: 'Hi!',
      toolCalls: [{ name: 'lookup', arguments: { q: 1.5 } }],
    });
    expect(result.kind).toBe('json');
    expect(result.kind === 'json' && result.body).toBe(
      '{"output":{"message":{"role":"assistant","content":[{"text":"Hi!"},{"toolUse":{"toolUseId":"tooluse_xxxxxxxxxxxxxxxxxxxxxx","name":"lookup","input":{"q":1.5}}}]}},"stopReason":"tool_use","usage":{"inputTokens":10,"outputTokens":9,"totalTokens":19},"metrics":{"latencyMs":1}}',
    );
    expect(result.status).toBe(200);
    expect(result.headers).toEqual({
      'content-type': 'application/json',
      'x-amzn-requestid': 'xxxxxxxx-xxxx-4xxx-xxxx-xxxxxxxxxxxx',
    });
  });

  it('ends its turn without tool calls; a request asking to stream gets JSON all the same', () => {
    const result = wire({ provider: 'bedrock', api: 'converse', text: 'ok', usage: { outputTokens: 7 } }, true);
    expect(result.kind === 'json' && JSON.parse(result.body)).toMatchObject({
      output: { message: { content: [{ text: 'ok' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 7, totalTokens: 17 },
    });
  });
});

describe('Bedrock converse-stream', () => {
  it('messageStart, text deltas, block stop, a tool block with input deltas, messageStop, metadata', () => {
    const result = wire({
      provider: 'bedrock',
      api: 'converse-stream',
      text: 'Hi there',
      toolCalls: [{ name: 'f', id: 'tooluse_1', arguments: { a: 1 } }],
      chunkDelayMs: 5,
    });
    expect(result.kind).toBe('eventstream');
    if (result.kind !== 'eventstream') return;
    expect(result.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    expect(result.events.map((event) => [event.event, JSON.parse(event.data), event.chunk])).toEqual([
      ['messageStart', { role: 'assistant' }, false],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }, true],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' there' } }, true],
      ['contentBlockStop', { contentBlockIndex: 0 }, false],
      ['contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'f' } } }, false],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"' } } }, true],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: 'a' } } }, true],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '":' } } }, true],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '1' } } }, true],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '}' } } }, true],
      ['contentBlockStop', { contentBlockIndex: 1 }, false],
      ['messageStop', { stopReason: 'tool_use' }, false],
      ['metadata', { usage: { inputTokens: 10, outputTokens: 7, totalTokens: 17 }, metrics: { latencyMs: 35 } }, false],
    ]);
  });
});

describe('Bedrock converse-stream with an error beside text', () => {
  it('streams the chunks, then the exception in place of the ends', () => {
    const result = wire({
      provider: 'bedrock',
      api: 'converse-stream',
      text: 'Hi there',
      error: { type: 'rate_limit', message: 'slow' },
    });
    expect(
      result.kind === 'eventstream' && result.events.map((event) => [event.event, JSON.parse(event.data)]),
    ).toEqual([
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' there' } }],
      ['throttlingException', { message: 'slow' }],
    ]);
    expect(result.status).toBe(200);
  });

  it.each([
    ['overloaded', 'serviceUnavailableException'],
    ['server', 'internalServerException'],
    ['context_length', 'validationException'],
  ] as const)('%s: %s with its message', (type, exception) => {
    const result = wire({ provider: 'bedrock', api: 'converse-stream', toolCalls: [{ name: 'f' }], error: type });
    const last = result.kind === 'eventstream' ? result.events.at(-1) : undefined;
    expect(last?.event).toBe(exception);
    expect(JSON.parse(last?.data ?? '{}').message.length).toBeGreaterThan(10);
  });
});

describe('Bedrock errors', () => {
  it.each([
    ['rate_limit', 429, 'ThrottlingException', 'Too many requests, please wait before trying again.'],
    ['overloaded', 503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.'],
    ['server', 500, 'InternalServerException', 'The system encountered an unexpected error'],
    ['context_length', 400, 'ValidationException', 'Input is too long for requested model.'],
  ] as const)('%s: %i with x-amzn-errortype %s and a { message } body', (type, status, exception, message) => {
    const result = wire({ provider: 'bedrock', api: 'converse-stream', error: type });
    expect(result.kind).toBe('json');
    if (result.kind !== 'json') return;
    expect(result.status).toBe(status);
    expect(result.headers['x-amzn-errortype']).toBe(exception);
    expect(result.headers['retry-after']).toBeUndefined();
    expect(Object.keys(JSON.parse(result.body))).toEqual(['message']);
    expect(JSON.parse(result.body).message).toContain(message);
  });

  it('says its own message when given one', () => {
    const result = wire({ provider: 'bedrock', api: 'converse', error: { type: 'rate_limit', message: 'slow down' } });
    expect(result.kind === 'json' && result.body).toBe('{"message":"slow down"}');
  });
});

describe('Bedrock answers at save', () => {
  async function save(llm: unknown) {
    const app = createApp();
    const response = await app.request('/api/endpoints/br/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ answer: { llm } }] }),
    });
    const body = (await response.json()) as { error?: { code: string; message: string } };
    return { status: response.status, code: body.error?.code, message: body.error?.message ?? '' };
  }

  it('keeps converse and converse-stream answers', async () => {
    expect((await save({ provider: 'bedrock', api: 'converse', text: 'a' })).status).toBe(200);
    expect((await save({ provider: 'bedrock', api: 'converse-stream', stream: true, text: 'a' })).status).toBe(200);
    expect((await save({ provider: 'bedrock', api: 'converse-stream', text: 'a', error: 'server' })).status).toBe(200);
  });

  it.each([
    [{ provider: 'bedrock', api: 'messages' }, 'bedrock has converse and converse-stream, not messages'],
    [{ provider: 'openai', api: 'converse' }, 'openai has chat.completions and responses and embeddings, not converse'],
    [{ provider: 'bedrock', api: 'converse', stream: true }, "bedrock's converse never streams"],
    [{ provider: 'bedrock', api: 'converse-stream', stream: false }, "bedrock's converse-stream always streams"],
    [{ provider: 'bedrock', api: 'converse', error: { type: 'rate_limit', retryAfter: 2 } }, 'no retry-after'],
    [{ provider: 'bedrock', api: 'converse', text: 'a', error: 'server' }, 'the error alone'],
    [{ provider: 'bedrock', api: 'converse-stream', text: 'a', error: 'server', end: 'reset' }, 'the error alone'],
  ])('refuses %j with INVALID_LLM', async (llm, message) => {
    const result = await save(llm);
    expect(result.status).toBe(400);
    expect(result.code).toBe('INVALID_LLM');
    expect(result.message).toContain(message);
  });
});
