// Gemini `llm` answers on the built daemon as a real process, read by the official `@google/genai`
// SDK with its base URL at http://127.0.0.1:<port>/endpoint/<name>: a generateContent response
// (text, usageMetadata, the model of the path; SDK 3.x calls /v1/models/…, 2.x /v1beta/models/…: the route docs/llm.md
// shows answers both), the stream of generateContentStream joining into the text, function calls with their args, and
// the quota error as the SDK's ApiError with Google's body.

import { readFileSync } from 'node:fs';
import { ApiError, GoogleGenAI } from '@google/genai';
import { createClient, type RouteInput } from '@mockpoint/core';
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

/** The path the Gemini route of docs/llm.md matches (its first JSON block under the Gemini heading). */
const DOCUMENTED_PATH = (() => {
  const page = readFileSync(new URL('../../../docs/llm.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('### Google Gemini'));
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return (JSON.parse(block) as { match: { path: string } }).match.path;
})();

/**
 * A client of the documented route on a fresh endpoint, answering both Gemini methods; `apiVersion`
 * `v1beta` sends what `@google/genai` 2.x sends by default (3.x: `v1`).
 */
async function gemini(name: string, llm: Record<string, unknown>, apiVersion?: 'v1beta'): Promise<GoogleGenAI> {
  const routes: RouteInput[] = [
    {
      match: { method: 'POST', path: DOCUMENTED_PATH },
      answer: { llm: { provider: 'gemini', api: 'generateContent', ...llm } },
    },
  ];
  await createClient({ baseUrl: daemon.url }).setRoutes(name, routes);
  const httpOptions = {
    baseUrl: `${daemon.url}/endpoint/${name}`,
    ...(apiVersion === undefined ? {} : { apiVersion }),
  };
  return new GoogleGenAI({ apiKey: 'test-key', httpOptions });
}

const CONTENTS = 'What is the capital of France?';

describe('Gemini generateContent with @google/genai', () => {
  it('a response: the text, usageMetadata, the model of the path', async () => {
    const ai = await gemini('gem-json', { text: TEXT, usage: { inputTokens: 9, outputTokens: 14 } });
    const response = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents: CONTENTS });
    expect(response.text).toBe(TEXT);
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.candidates?.[0]?.content?.role).toBe('model');
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 9,
      candidatesTokenCount: 14,
      totalTokenCount: 23,
    });
    expect(response.modelVersion).toBe('gemini-2.5-pro');
    expect(response.responseId).toMatch(/^[A-Za-z0-9]{22}$/);
  });

  it('the documented route answers what @google/genai 2.x sends too (/v1beta/models/…), streamed or not', async () => {
    const paths: string[] = [];
    const ai = await gemini('gem-beta', { text: TEXT }, 'v1beta');
    const response = await ai.models.generateContent({ model: 'gemini-2.0-flash', contents: CONTENTS });
    expect(response.text).toBe(TEXT);
    expect(response.modelVersion).toBe('gemini-2.0-flash');
    const texts: string[] = [];
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.0-flash', contents: CONTENTS }))
      texts.push(chunk.text ?? '');
    expect(texts.join('')).toBe(TEXT);
    const journal = (await (await fetch(`${daemon.url}/api/endpoints/gem-beta/requests`)).json()) as {
      requests: { subpath: string }[];
    };
    for (const request of journal.requests) paths.push(request.subpath.split('?')[0] as string);
    expect(paths.sort()).toEqual([
      '/v1beta/models/gemini-2.0-flash:generateContent',
      '/v1beta/models/gemini-2.0-flash:streamGenerateContent',
    ]);
  });

  it('streamed (generateContentStream, :streamGenerateContent?alt=sse): chunks that join into the text', async () => {
    const ai = await gemini('gem-stream', { text: TEXT, chunkDelayMs: 1 });
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: CONTENTS });
    const texts: string[] = [];
    let last: Awaited<ReturnType<typeof ai.models.generateContent>> | undefined;
    for await (const chunk of stream) {
      texts.push(chunk.text ?? '');
      last = chunk;
    }
    expect(texts.length).toBeGreaterThan(10);
    expect(texts.join('')).toBe(TEXT);
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata?.candidatesTokenCount).toBe(texts.length - 1);
  });

  it('function calls, in a response and streamed: name and args as given', async () => {
    const args = { city: 'Paris', unit: 'celsius', days: [1, 2] };
    const ai = await gemini('gem-tools', { toolCalls: [{ name: 'get_weather', arguments: args }] });
    const request = { model: 'gemini-2.5-flash', contents: CONTENTS };
    const response = await ai.models.generateContent(request);
    expect(response.functionCalls).toEqual([{ name: 'get_weather', args }]);
    const calls: unknown[] = [];
    for await (const chunk of await ai.models.generateContentStream(request))
      calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([{ name: 'get_weather', args }]);
  });

  it("the quota error: ApiError 429 with Google's RESOURCE_EXHAUSTED body and its RetryInfo", async () => {
    const ai = await gemini('gem-quota', { error: { type: 'rate_limit', retryAfter: 7 } });
    const error = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: CONTENTS }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    const body = JSON.parse((error as ApiError).message);
    expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(body.error.message).toMatch(/exceeded your current quota/);
    expect(body.error.details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '7s',
    });
  });

  it('the other errors: 503 UNAVAILABLE, 500 INTERNAL, 400 INVALID_ARGUMENT', async () => {
    for (const [type, status, name] of [
      ['overloaded', 503, 'UNAVAILABLE'],
      ['server', 500, 'INTERNAL'],
      ['context_length', 400, 'INVALID_ARGUMENT'],
    ] as const) {
      const ai = await gemini(`gem-${type.replace('_', '-')}`, { error: type });
      const error = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: CONTENTS }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect(JSON.parse((error as ApiError).message).error).toMatchObject({ code: status, status: name });
    }
  });
});
