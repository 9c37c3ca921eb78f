// LLM API answers (`llm`) on the built daemon as a real process, read by the providers' official
// SDKs (`openai`, `@anthropic-ai/sdk`) pointed at http://127.0.0.1:<port>/endpoint/<name>: every
// form parses (JSON and streamed, the streams' helpers, tool calls with their arguments
// accumulated), each error raises the SDK's typed error (a 429's retry-after honoured by a retry),
// a stream reset halfway raises, routes match the request's model and messages, and text renders
// from the request.

import Anthropic from '@anthropic-ai/sdk';
import { createClient, type RouteInput } from '@mockpoint/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Daemon, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

let daemon: Daemon;

beforeAll(async () => {
  assertBuilt();
  daemon = await startDaemon({ args: ['--memory'] });
});
afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

const TEXT = 'Paris is the capital of France. It has about 2.1 million people!';
const CALL = { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius', days: [1, 2] } };

/** Routes on a fresh endpoint name; its base URL for the SDKs. */
async function llmEndpoint(name: string, routes: RouteInput[]): Promise<string> {
  await createClient({ baseUrl: daemon.url }).setRoutes(name, routes);
  return `${daemon.url}/endpoint/${name}`;
}

function openai(baseURL: string, maxRetries = 0): OpenAI {
  return new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries });
}

function anthropic(baseURL: string, maxRetries = 0): Anthropic {
  return new Anthropic({ apiKey: 'sk-ant-test', baseURL, maxRetries });
}

/** What a promise rejects with (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const USER = [{ role: 'user' as const, content: 'What is the capital of France?' }];

describe('OpenAI chat.completions', () => {
  const chat = (extra: Record<string, unknown> = {}): RouteInput => ({
    match: { method: 'POST', path: '/chat/completions' },
    answer: { llm: { provider: 'openai', api: 'chat.completions', text: TEXT, ...extra } },
  });

  it('a JSON completion, with the model of the request and usage', async () => {
    const url = await llmEndpoint('oa-json', [chat({ usage: { inputTokens: 12, outputTokens: 20 } })]);
    const completion = await openai(url).chat.completions.create({ model: 'gpt-4o', messages: USER, stream: false });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(completion.model).toBe('gpt-4o');
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: TEXT });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 });
  });

  it('streamed as the request asks: chunks that join into the text, [DONE], usage when asked', async () => {
    const url = await llmEndpoint('oa-stream', [chat({ chunkDelayMs: 1 })]);
    const stream = await openai(url).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      const choice = chunk.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(TEXT);
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBe(deltas.length);
  });

  it('the stream helper: finalChatCompletion() and content events', async () => {
    const url = await llmEndpoint('oa-helper', [chat()]);
    const stream = openai(url).chat.completions.stream({ model: 'gpt-4o', messages: USER });
    const seen: string[] = [];
    stream.on('content', (delta) => seen.push(delta));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(TEXT);
    expect(seen.join('')).toBe(TEXT);
  });

  it('tool calls, JSON and streamed: the arguments accumulated by the SDK', async () => {
    const url = await llmEndpoint('oa-tools', [
      {
        match: { method: 'POST', path: '/chat/completions' },
        answer: {
          llm: {
            provider: 'openai',
            api: 'chat.completions',
            toolCalls: [CALL, { name: 'get_time', arguments: { zone: 'Europe/Paris' }, id: 'call_fixed1' }],
          },
        },
      },
    ]);
    const client = openai(url);
    const json = await client.chat.completions.create({ model: 'gpt-4o', messages: USER });
    const [first, second] = json.choices[0]?.message.tool_calls ?? [];
    expect(json.choices[0]?.finish_reason).toBe('tool_calls');
    expect(json.choices[0]?.message.content).toBeNull();
    expect(first?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(first?.type === 'function' && JSON.parse(first.function.arguments)).toEqual(CALL.arguments);
    expect(second?.id).toBe('call_fixed1');
    const streamed = await client.chat.completions.stream({ model: 'gpt-4o', messages: USER }).finalChatCompletion();
    const calls = streamed.choices[0]?.message.tool_calls ?? [];
    expect(
      calls.map((call) => call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]),
    ).toEqual([
      ['get_weather', CALL.arguments],
      ['get_time', { zone: 'Europe/Paris' }],
    ]);
    expect(streamed.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('a stream reset halfway: the first half of the text, then the SDK throws', async () => {
    const url = await llmEndpoint('oa-reset', [chat({ end: 'reset' })]);
    const stream = await openai(url).chat.completions.create({ model: 'gpt-4o', messages: USER, stream: true });
    const deltas: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
      })(),
    );
    // Node's fetch reports the cut body as `TypeError: terminated`; the SDK passes it on.
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
    const text = deltas.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(text) && text.length < TEXT.length).toBe(true);
  });

  it('a JSON answer cut halfway: the SDK rejects', async () => {
    const url = await llmEndpoint('oa-cut', [chat({ end: 'reset', stream: false })]);
    const error = await rejection(openai(url).chat.completions.create({ model: 'gpt-4o', messages: USER }));
    // The status and headers came: the SDK reads the body, and fetch's error passes through.
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
  });

  it('a connection reset before any answer (a plain fault route): the SDKs raise APIConnectionError', async () => {
    const url = await llmEndpoint('oa-fault', [{ answer: { fault: 'reset' } }]);
    const error = await rejection(openai(url).chat.completions.create({ model: 'gpt-4o', messages: USER }));
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    const fromAnthropic = await rejection(anthropic(url).messages.create(PARAMS_A));
    expect(fromAnthropic).toBeInstanceOf(Anthropic.APIConnectionError);
  });
});

describe('OpenAI responses', () => {
  const responses = (extra: Record<string, unknown> = {}): RouteInput => ({
    match: { method: 'POST', path: '/responses' },
    answer: { llm: { provider: 'openai', api: 'responses', text: TEXT, ...extra } },
  });

  it('a JSON response: output_text, usage, resp_ id', async () => {
    const url = await llmEndpoint('re-json', [responses()]);
    const response = await openai(url).responses.create({ model: 'gpt-4.1', input: 'Capital of France?' });
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe(TEXT);
    expect(response.model).toBe('gpt-4.1');
    expect(response.usage?.output_tokens).toBeGreaterThan(10);
  });

  it('streamed: the events in order, and the helper finalResponse()', async () => {
    const url = await llmEndpoint('re-stream', [responses({ toolCalls: [CALL] })]);
    const stream = await openai(url).responses.create({ model: 'gpt-4.1', input: 'Weather?', stream: true });
    const types: string[] = [];
    let text = '';
    let args = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(new Set(types)).toEqual(
      new Set([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.completed',
      ]),
    );
    expect(text).toBe(TEXT);
    expect(JSON.parse(args)).toEqual(CALL.arguments);
    const final = await openai(url).responses.stream({ model: 'gpt-4.1', input: 'Weather?' }).finalResponse();
    expect(final.output_text).toBe(TEXT);
    const call = final.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && [call.name, JSON.parse(call.arguments)]).toEqual([
      'get_weather',
      CALL.arguments,
    ]);
  });
});

describe('Anthropic messages', () => {
  const messages = (extra: Record<string, unknown> = {}): RouteInput => ({
    match: { method: 'POST', path: '/v1/messages' },
    answer: { llm: { provider: 'anthropic', api: 'messages', text: TEXT, ...extra } },
  });
  const PARAMS = { model: 'claude-under-test', max_tokens: 256, messages: USER };

  it('a JSON message with text and a tool_use block', async () => {
    const url = await llmEndpoint('an-json', [messages({ toolCalls: [CALL] })]);
    const message = await anthropic(url).messages.create(PARAMS);
    expect(message.id).toMatch(/^msg_01[1-9A-HJ-NP-Za-km-z]{22}$/);
    expect(message.model).toBe('claude-under-test');
    expect(message.stop_reason).toBe('tool_use');
    const [text, tool] = message.content;
    expect(text).toEqual({ type: 'text', text: TEXT });
    expect(tool).toMatchObject({ type: 'tool_use', name: 'get_weather', input: CALL.arguments });
    expect(tool?.type === 'tool_use' && tool.id).toMatch(/^toolu_01/);
  });

  it('streamed: the raw events, and the helper finalMessage() with the tool input parsed', async () => {
    const url = await llmEndpoint('an-stream', [messages({ toolCalls: [CALL], chunkDelayMs: 1 })]);
    const client = anthropic(url);
    const raw = await client.messages.create({ ...PARAMS, stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of raw) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(text).toBe(TEXT);
    const stream = client.messages.stream(PARAMS);
    const seen: string[] = [];
    stream.on('text', (delta) => seen.push(delta));
    const final = await stream.finalMessage();
    expect(seen.join('')).toBe(TEXT);
    expect(final.content[1]).toMatchObject({ type: 'tool_use', input: CALL.arguments });
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.output_tokens).toBeGreaterThan(10);
  });

  it('a stream reset halfway: the helper rejects with the first half seen', async () => {
    const url = await llmEndpoint('an-reset', [messages({ end: 'reset' })]);
    const stream = anthropic(url).messages.stream(PARAMS);
    const seen: string[] = [];
    stream.on('text', (delta) => seen.push(delta));
    const error = await rejection(stream.finalMessage());
    // The helper wraps fetch's `terminated` in its own error class.
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect((error as Error).message).toBe('terminated');
    const text = seen.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(TEXT.startsWith(text) && text.length < TEXT.length).toBe(true);
  });
});

describe('errors raise the SDKs typed errors', () => {
  const CASES = [
    ['rate_limit', OpenAI.RateLimitError, 429, Anthropic.RateLimitError, 429],
    ['overloaded', OpenAI.InternalServerError, 503, Anthropic.OverloadedError, 529],
    ['server', OpenAI.InternalServerError, 500, Anthropic.InternalServerError, 500],
    ['context_length', OpenAI.BadRequestError, 400, Anthropic.BadRequestError, 400],
  ] as const;

  it.each(CASES)('%s', async (type, OpenAIError, openaiStatus, AnthropicError, anthropicStatus) => {
    const url = await llmEndpoint(`err-${type.replace('_', '-')}`, [
      {
        match: { path: '/chat/completions' },
        answer: { llm: { provider: 'openai', api: 'chat.completions', error: type } },
      },
      { match: { path: '/v1/messages' }, answer: { llm: { provider: 'anthropic', api: 'messages', error: type } } },
    ]);
    const fromOpenAI = await rejection(openai(url).chat.completions.create({ model: 'gpt-4o', messages: USER }));
    expect(fromOpenAI).toBeInstanceOf(OpenAIError);
    const openaiError = fromOpenAI as InstanceType<typeof OpenAI.APIError>;
    expect(openaiError.status).toBe(openaiStatus);
    expect(openaiError.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    expect(openaiError.error).toHaveProperty('param');
    expect(openaiError.requestID).toMatch(/^req_/);
    const fromAnthropic = await rejection(anthropic(url).messages.create({ ...PARAMS_A, stream: true }));
    expect(fromAnthropic).toBeInstanceOf(AnthropicError);
    const anthropicError = fromAnthropic as InstanceType<typeof Anthropic.APIError>;
    expect(anthropicError.status).toBe(anthropicStatus);
    expect(anthropicError.error).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    if (type === 'rate_limit') {
      expect(openaiError.code).toBe('rate_limit_exceeded');
      expect(openaiError.headers?.get('retry-after')).toBe('1');
      expect(openaiError.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(anthropicError.headers?.get('retry-after')).toBe('1');
      expect(anthropicError.headers?.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    }
    if (type === 'context_length') expect(openaiError.code).toBe('context_length_exceeded');
  });

  it('a 429 with retry-after: the SDK waits and retries, and gets the answer', async () => {
    const limited = { error: { type: 'rate_limit' as const, retryAfter: 0 } };
    const url = await llmEndpoint('err-retry', [
      {
        match: { path: '/chat/completions', state: 'started' },
        answer: { llm: { provider: 'openai', api: 'chat.completions', ...limited }, setState: 'openai-limited' },
      },
      {
        match: { path: '/v1/messages', state: 'openai-limited' },
        answer: { llm: { provider: 'anthropic', api: 'messages', ...limited }, setState: 'both-limited' },
      },
      {
        match: { path: '/chat/completions' },
        answer: { llm: { provider: 'openai', api: 'chat.completions', text: 'ok' } },
      },
      { match: { path: '/v1/messages' }, answer: { llm: { provider: 'anthropic', api: 'messages', text: 'ok' } } },
    ]);
    const completion = await openai(url, 1).chat.completions.create({ model: 'gpt-4o', messages: USER });
    expect(completion.choices[0]?.message.content).toBe('ok');
    const message = await anthropic(url, 1).messages.create(PARAMS_A);
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
    const requests = await createClient({ baseUrl: daemon.url }).requests('err-retry');
    expect(requests.map((entry) => [entry.path, entry.statusCode])).toEqual([
      ['/endpoint/err-retry/chat/completions', 429],
      ['/endpoint/err-retry/chat/completions', 200],
      ['/endpoint/err-retry/v1/messages', 429],
      ['/endpoint/err-retry/v1/messages', 200],
    ]);
  });
});

const PARAMS_A = { model: 'claude-haiku-4-5', max_tokens: 64, messages: USER };

describe('match and templates over the request', () => {
  it('routes match the model and the messages; text renders from them', async () => {
    const url = await llmEndpoint('ai-match', [
      {
        match: { path: '/chat/completions', body: { model: 'gpt-4o-mini' } },
        answer: { llm: { provider: 'openai', api: 'chat.completions', text: 'the small one' } },
      },
      {
        match: { path: '/chat/completions', body: { messages: [{ role: 'user', content: 'ping' }] } },
        answer: { llm: { provider: 'openai', api: 'chat.completions', text: 'pong' } },
      },
      {
        match: { path: '/chat/completions' },
        answer: {
          template: true,
          llm: {
            provider: 'openai',
            api: 'chat.completions',
            text: 'You ({{body.model}}) said: {{body.messages.0.content}}',
          },
        },
      },
    ]);
    const client = openai(url);
    const say = async (model: string, content: string) =>
      (await client.chat.completions.create({ model, messages: [{ role: 'user', content }] })).choices[0]?.message
        .content;
    expect(await say('gpt-4o-mini', 'hello')).toBe('the small one');
    expect(await say('gpt-4o', 'ping')).toBe('pong');
    expect(await say('gpt-4o', 'héllo "wörld" 🌍')).toBe('You (gpt-4o) said: héllo "wörld" 🌍');
    const streamed = await client.chat.completions
      .stream({ model: 'o3', messages: [{ role: 'user', content: 'a b c' }] })
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('You (o3) said: a b c');
  });
});
