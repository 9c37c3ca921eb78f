// OpenAI embeddings and Azure OpenAI paths on the built daemon as a real process, read by the
// official `openai` SDK: embeddings.create as the SDK asks by default (base64, decoded by the SDK)
// and as floats, the same vectors for the same input on every request and route, `dimensions`
// honoured, the API's 400 for a bad request; and AzureOpenAI's deployment paths
// (/openai/deployments/{deployment}/…?api-version=…) answered like chat.completions and embeddings.

import { createClient, type RouteInput } from '@mockpoint/core';
import OpenAI, { AzureOpenAI } from 'openai';
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

async function endpoint(name: string, routes: RouteInput[]): Promise<string> {
  await createClient({ baseUrl: daemon.url }).setRoutes(name, routes);
  return `${daemon.url}/endpoint/${name}`;
}

const EMBEDDINGS: RouteInput = {
  match: { method: 'POST', path: '/embeddings' },
  answer: { llm: { provider: 'openai', api: 'embeddings' } },
};

const norm = (vector: readonly number[]): number => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));

describe('OpenAI embeddings', () => {
  it("the SDK's default (base64): unit vectors of the model's size, the same for the same input", async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: await endpoint('emb', [EMBEDDINGS]), maxRetries: 0 });
    const response = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['cat', 'dog', 'cat'] });
    expect(response.object).toBe('list');
    expect(response.model).toBe('text-embedding-3-small');
    const [cat, dog, again] = response.data.map((item) => item.embedding);
    expect(response.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(cat).toHaveLength(1536);
    expect(norm(cat as number[])).toBeCloseTo(1, 5);
    expect(again).toEqual(cat);
    expect(dog).not.toEqual(cat);
    expect(response.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    // Floats asked for: the same float32 values, as numbers.
    const floats = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'cat',
      encoding_format: 'float',
    });
    expect(floats.data[0]?.embedding.map((x) => Math.fround(x))).toEqual(cat);
  });

  it('dimensions honoured; a 3-large model is 3072 long; a bad request is the API 400', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: await endpoint('emb-dims', [EMBEDDINGS]), maxRetries: 0 });
    const short = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'cat', dimensions: 256 });
    expect(short.data[0]?.embedding).toHaveLength(256);
    const large = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'cat' });
    expect(large.data[0]?.embedding).toHaveLength(3072);
    const error = await client.embeddings.create({ model: 'text-embedding-3-small', input: [] }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'input' });
  });
});

describe('Azure OpenAI paths with AzureOpenAI', () => {
  it('chat completions and embeddings on /openai/deployments/{deployment}/…?api-version=…', async () => {
    const url = await endpoint('azure', [
      {
        match: {
          method: 'POST',
          path: '/openai/deployments/:deployment/chat/completions',
          query: { 'api-version': '2024-10-21' },
        },
        answer: {
          llm: { provider: 'openai', api: 'chat.completions', text: 'Hello from {{params.deployment}}' },
          template: true,
        },
      },
      {
        match: { method: 'POST', path: '/openai/deployments/:deployment/embeddings' },
        answer: { llm: { provider: 'openai', api: 'embeddings' } },
      },
    ]);
    const azure = new AzureOpenAI({
      endpoint: url,
      apiKey: 'azure-key',
      apiVersion: '2024-10-21',
      deployment: 'prod-4o',
      maxRetries: 0,
    });
    const completion = await azure.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from prod-4o');
    const chunks: string[] = [];
    const stream = await azure.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta.content ?? '');
    expect(chunks.join('')).toBe('Hello from prod-4o');
    const embedded = await azure.embeddings.create({ model: 'text-embedding-3-small', input: 'cat', dimensions: 8 });
    expect(embedded.data[0]?.embedding).toHaveLength(8);
  });
});
