// The wire formats an llm answer produces, with fixed ids and time: the exact JSON bodies, the
// SSE events in the providers' order, the error shapes and headers; and through the app, the
// engine's own answers (respond, stream with chunk delays, a reset halfway).
import { describe, expect, it } from 'vitest';
import type { LlmAnswer } from '../../api/answer-llm.js';
import { createApp } from '../../index.js';
import { NOT_JSON } from '../../journal/request-filter.js';
import { llmAnswer, llmRequestOf } from './llm-answer.js';
import { type LlmSource, llmWire } from './llm-wire.js';

/** Ids of repeated `x`, and 2025-01-01T00:00:00Z. */
const FIXED: LlmSource = { random: (_alphabet, count) => 'x'.repeat(count), now: () => Date.UTC(2025, 0, 1) };
const REQUEST = { model: 'gpt-test', includeUsage: false, inputChars: 40 };

function wire(answer: LlmAnswer, request: Partial<typeof REQUEST> & { stream?: boolean } = {}) {
  return llmWire({ answer, text: answer.text, request: { ...REQUEST, ...request }, maxChunks: 1000 }, FIXED);
}

function events(answer: LlmAnswer, request: Partial<typeof REQUEST> = {}) {
  const result = wire({ ...answer, stream: true }, request);
  if (result.kind !== 'sse') throw new Error('not streamed');
  return result.events.map((event) => ({
    event: event.event,
    data: JSON.parse(event.data === '[DONE]' ? '"[DONE]"' : event.data),
  }));
}

describe('OpenAI chat.completions', () => {
  it('a JSON completion, exactly', () => {
    const result = wire({
      provider: 'openai',
      api: 'chat.completions',
      text: 'Hi!',
      toolCalls: [{ name: 'f', arguments: { a: 1 } }],
    });
    expect(result.kind === 'json' && result.body).toBe(
      '{"id":"chatcmpl-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx","object":"chat.completion","created":1735689600,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"Hi!","refusal":null,"annotations":[],"tool_calls":[{"id":"call_xxxxxxxxxxxxxxxxxxxxxxxx","type":"function","function":{"name":"f","arguments":"{\\"a\\":1}"}}]},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":7,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"service_tier":"default","system_fingerprint":"fp_xxxxxxxxxx"}',
    );
    expect(result.status).toBe(200);
    expect(result.headers).toMatchObject({
      'content-type': 'application/json',
      'x-request-id': `req_${'x'.repeat(32)}`,
    });
  });

  it('streamed: a role chunk, content deltas, the finish, usage when asked, [DONE]', () => {
    const all = events({ provider: 'openai', api: 'chat.completions', text: 'Hi there' }, { includeUsage: true });
    expect(all.map((e) => e.event)).toEqual(Array(all.length).fill(undefined));
    expect(all.map((e) => (typeof e.data === 'string' ? e.data : (e.data.choices[0]?.delta ?? 'usage')))).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: 'Hi' },
      { content: ' there' },
      {},
      'usage',
      '[DONE]',
    ]);
    expect(all[3]?.data.choices[0].finish_reason).toBe('stop');
    expect(all[4]?.data.usage).toMatchObject({ completion_tokens: 2, prompt_tokens: 10 });
  });
});

describe('OpenAI responses', () => {
  it('streamed: the event types in order, numbered', () => {
    const all = events({ provider: 'openai', api: 'responses', text: 'Hi', toolCalls: [{ name: 'f' }] });
    expect(all.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(all.map((e) => e.data.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all.every((e) => e.data.type === e.event)).toBe(true);
    expect(all.at(-1)?.data.response.output.map((item: { type: string }) => item.type)).toEqual([
      'message',
      'function_call',
    ]);
  });
});

describe('Anthropic messages', () => {
  it('a JSON message keeps the tool input as its exact text', () => {
    const result = wire({
      provider: 'anthropic',
      api: 'messages',
      toolCalls: [{ name: 'f', id: 'toolu_1', arguments: { z: 1, a: [true] } }],
    });
    expect(result.kind === 'json' && result.body).toContain(
      '"content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{"z":1,"a":[true]}}],"stop_reason":"tool_use"',
    );
  });

  it('streamed: message_start, blocks with deltas, message_delta, message_stop', () => {
    const all = events({
      provider: 'anthropic',
      api: 'messages',
      text: 'Hi',
      toolCalls: [{ name: 'f', arguments: { a: 1 } }],
    });
    expect(all.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(all[0]?.data.message.id).toBe(`msg_01${'x'.repeat(22)}`);
    expect(all[5]?.data.content_block).toEqual({
      type: 'tool_use',
      id: `toolu_01${'x'.repeat(22)}`,
      name: 'f',
      input: {},
    });
    expect(
      all
        .slice(6, 11)
        .map((e) => e.data.delta.partial_json)
        .join(''),
    ).toBe('{"a":1}');
    expect(all[12]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 6 },
    });
  });
});

describe('errors', () => {
  it.each([
    ['openai', 'rate_limit', 429, { type: 'requests', code: 'rate_limit_exceeded', param: null }],
    ['openai', 'overloaded', 503, { type: 'server_error', code: null }],
    ['openai', 'server', 500, { type: 'server_error', code: null }],
    [
      'openai',
      'context_length',
      400,
      { type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' },
    ],
  ] as const)('%s %s: %i', (provider, type, status, shape) => {
    const result = wire({ provider, api: 'chat.completions', error: type });
    expect(result.status).toBe(status);
    expect(result.kind === 'json' && JSON.parse(result.body).error).toMatchObject(shape);
  });

  it.each([
    ['rate_limit', 429, 'rate_limit_error'],
    ['overloaded', 529, 'overloaded_error'],
    ['server', 500, 'api_error'],
    ['context_length', 400, 'invalid_request_error'],
  ] as const)('anthropic %s: %i %s', (type, status, errorType) => {
    const result = wire({ provider: 'anthropic', api: 'messages', error: type });
    expect(result.status).toBe(status);
    const body = result.kind === 'json' ? JSON.parse(result.body) : undefined;
    expect(body).toEqual({
      type: 'error',
      error: { type: errorType, message: expect.any(String) },
      request_id: result.headers['request-id'],
    });
  });

  it('the rate limit message names the model the request sent, as it is', () => {
    // `$&`, `$'` and `{retry}` are replacement patterns or placeholders, not the model's name.
    const model = "gpt-$&-$'-{retry}";
    const result = wire({ provider: 'openai', api: 'chat.completions', error: 'rate_limit' }, { model });
    expect(result.kind === 'json' && JSON.parse(result.body).error.message).toContain(
      `Rate limit reached for ${model} in`,
    );
  });

  it('a rate limit carries retry-after and the counters at zero', () => {
    const openai = wire({
      provider: 'openai',
      api: 'responses',
      error: { type: 'rate_limit', retryAfter: 7, message: 'slow down' },
    });
    expect(openai.headers).toMatchObject({
      'retry-after': '7',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '7s',
    });
    expect(openai.kind === 'json' && JSON.parse(openai.body).error.message).toBe('slow down');
    const anthropic = wire({ provider: 'anthropic', api: 'messages', error: { type: 'rate_limit', retryAfter: 7 } });
    expect(anthropic.headers).toMatchObject({
      'retry-after': '7',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2025-01-01T00:00:07Z',
    });
  });
});

describe('the request read', () => {
  it('takes model, stream and include_usage when they are what they should be', () => {
    expect(
      llmRequestOf({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: ['abcd'] }),
    ).toEqual({
      model: 'm',
      stream: true,
      includeUsage: true,
      inputChars: 8,
    });
    expect(llmRequestOf({ model: 7, stream: 'yes', stream_options: null })).toEqual({
      includeUsage: false,
      inputChars: 0,
    });
    expect(llmRequestOf({ model: 'm'.repeat(257) })).toEqual({ includeUsage: false, inputChars: 0 });
    expect(llmRequestOf(NOT_JSON)).toEqual({ includeUsage: false, inputChars: 0 });
    expect(llmRequestOf(JSON.parse('{"__proto__":{"model":"x"}}'))).toEqual({ includeUsage: false, inputChars: 0 });
  });
});

describe('as the engine answers', () => {
  const context = { params: {}, query: {}, headers: {}, json: { stream: true }, seq: 1 } as const;

  it('a stream: SSE frames, each chunk after chunkDelayMs; reset cuts before the middle chunk', async () => {
    const { RenderBudget } = await import('../template.js');
    const render = llmAnswer({
      llm: { provider: 'openai', api: 'chat.completions', text: 'a b c d', chunkDelayMs: 25, end: 'reset' },
      delay: 0,
      template: false,
      headers: () => new Map([['x-own', ['1']]]),
      source: FIXED,
    });
    const answer = render(false, { ...context, budget: new RenderBudget(1000) });
    expect(answer.kind).toBe('stream');
    if (answer.kind !== 'stream') return;
    expect(answer.end).toBe('reset');
    expect(answer.headers['x-own']).toBe('1');
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const texts = answer.frames.map((frame) => new TextDecoder().decode(frame.bytes));
    // The role chunk, then "a" and " b" of the four chunks.
    expect(texts).toHaveLength(3);
    expect(answer.frames.map((frame) => frame.delay)).toEqual([0, 25, 25]);
    expect(texts[2]).toMatch(/^data: \{.*"delta":\{"content":" b"\}.*\}\n\n$/);
  });

  it('through the app: JSON unless the request streams, and text templated from the request', async () => {
    const app = createApp();
    await app.request('/api/endpoints/ai/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          { answer: { template: true, llm: { provider: 'anthropic', api: 'messages', text: 'Hello {{body.name}}' } } },
        ],
      }),
    });
    const json = await app.request('/endpoint/ai/v1/messages', {
      method: 'POST',
      body: '{"name":"Ada","model":"c-1"}',
    });
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toMatchObject({ model: 'c-1', content: [{ type: 'text', text: 'Hello Ada' }] });
    const streamed = await app.request('/endpoint/ai/v1/messages', {
      method: 'POST',
      body: '{"name":"Bo","stream":true}',
    });
    const text = await streamed.text();
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(text).toContain('"model":"claude-sonnet-4-5-20250929"');
  });
});
