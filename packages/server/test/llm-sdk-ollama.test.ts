// Ollama `llm` answers on the built daemon as a real process, read by the official `ollama` npm
// package (`new Ollama({ host: http://127.0.0.1:<port>/endpoint/<name> })`): chat with
// `stream: false` (one object with the counts), the NDJSON stream (lines joining into the text,
// a last `done: true` line), tool calls with their arguments as objects, and the errors as the
// package's ResponseError with the status and Ollama's `error` text.

import { createClient } from '@mockpoint/core';
import { Ollama } from 'ollama';
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
const MESSAGES = [{ role: 'user', content: 'What is the capital of France?' }];

async function ollama(name: string, llm: Record<string, unknown>): Promise<Ollama> {
  await createClient({ baseUrl: daemon.url }).setRoutes(name, [
    { match: { method: 'POST', path: '/api/chat' }, answer: { llm: { provider: 'ollama', api: 'chat', ...llm } } },
  ]);
  return new Ollama({ host: `${daemon.url}/endpoint/${name}` });
}

describe('Ollama chat with the ollama package', () => {
  it('stream: false: one response with the text, the model, done_reason and the counts', async () => {
    const client = await ollama('ol-json', { text: TEXT, usage: { inputTokens: 11, outputTokens: 16 } });
    const response = await client.chat({ model: 'llama3.2', messages: MESSAGES, stream: false });
    expect(response.message).toEqual({ role: 'assistant', content: TEXT });
    expect(response).toMatchObject({ model: 'llama3.2', done: true, done_reason: 'stop' });
    expect(response).toMatchObject({ prompt_eval_count: 11, eval_count: 16 });
    expect(response.total_duration).toBe(
      response.load_duration + response.prompt_eval_duration + response.eval_duration,
    );
    expect(Number.isNaN(Date.parse(String(response.created_at)))).toBe(false);
  });

  it('streamed (NDJSON): done:false parts that join into the text, then a done:true part', async () => {
    const client = await ollama('ol-stream', { text: TEXT, chunkDelayMs: 1 });
    const parts = [];
    for await (const part of await client.chat({ model: 'qwen3:8b', messages: MESSAGES, stream: true }))
      parts.push(part);
    const last = parts.at(-1);
    expect(parts.slice(0, -1).every((part) => part.done === false)).toBe(true);
    expect(parts.map((part) => part.message.content).join('')).toBe(TEXT);
    expect(last).toMatchObject({ done: true, done_reason: 'stop', model: 'qwen3:8b', eval_count: parts.length - 1 });
  });

  it('the request stream field decides when the route sets none (Ollama streams by default)', async () => {
    await createClient({ baseUrl: daemon.url }).setRoutes('ol-default', [
      { match: { path: '/api/chat' }, answer: { llm: { provider: 'ollama', api: 'chat', text: 'Hi there' } } },
    ]);
    const url = `${daemon.url}/endpoint/ol-default/api/chat`;
    const streamed = await fetch(url, { method: 'POST', body: JSON.stringify({ model: 'm', messages: MESSAGES }) });
    expect(streamed.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await streamed.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line).done)).toEqual([false, false, true]);
    const json = await fetch(url, { method: 'POST', body: JSON.stringify({ model: 'm', stream: false }) });
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await json.json()).toMatchObject({ message: { content: 'Hi there' }, done: true });
  });

  it('tool calls: message.tool_calls with the arguments as objects, in JSON and streamed', async () => {
    const args = { city: 'Paris', unit: 'celsius', days: [1, 2] };
    const client = await ollama('ol-tools', { toolCalls: [{ name: 'get_weather', arguments: args }] });
    const response = await client.chat({ model: 'llama3.2', messages: MESSAGES, stream: false });
    expect(response.message.tool_calls).toEqual([{ function: { name: 'get_weather', arguments: args } }]);
    const calls = [];
    for await (const part of await client.chat({ model: 'llama3.2', messages: MESSAGES, stream: true })) {
      calls.push(...(part.message.tool_calls ?? []));
    }
    expect(calls).toEqual([{ function: { name: 'get_weather', arguments: args } }]);
  });

  it('errors: ResponseError with the status and the error text, streamed or not', async () => {
    for (const [type, status] of [
      ['rate_limit', 429],
      ['overloaded', 503],
      ['server', 500],
      ['context_length', 400],
    ] as const) {
      const client = await ollama(`ol-${type.replace('_', '-')}`, { error: { type, message: `no: ${type}` } });
      for (const stream of [false, true] as const) {
        const error = await client.chat({ model: 'llama3.2', messages: MESSAGES, stream } as never).then(
          () => undefined,
          (caught: unknown) => caught as { name: string; status_code: number; error: string },
        );
        expect(error).toMatchObject({ name: 'ResponseError', status_code: status, error: `no: ${type}` });
      }
    }
  });
});
