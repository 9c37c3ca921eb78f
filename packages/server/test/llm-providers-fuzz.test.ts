// Seeded fuzz of the places a request's bytes reach the Gemini, Ollama, OpenAI embeddings and
// Bedrock answers (a model in the path or the body, messages rendered into a templated `text`
// and split into streamed chunks, embeddings' inputs and `dimensions`) with random code points,
// against the built daemon: every answer is under 500, the text of each 200 (JSON, SSE, NDJSON)
// is the request's exactly, and /api/health answers throughout.
import { createClient } from '@mockpoint/core';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons({ kill: 'file' });

const SEED = 253;
const CASES = 240;

/** Every byte of `text`'s UTF-8 (a lone surrogate as U+FFFD) percent-encoded: a path segment. */
function segment(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** The data of each SSE event of `text` (the `data:` lines joined). */
function sseData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim().length > 0)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    );
}

it(`answers ${CASES} random Gemini, Ollama, embeddings and Bedrock requests (seed ${SEED}) exactly, under 500`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  await createClient({ baseUrl: daemon.url }).setRoutes('fuzz', [
    {
      match: { method: 'POST', path: '/v1beta/models/*' },
      answer: {
        template: true,
        llm: { provider: 'gemini', api: 'generateContent', text: '<{{body.contents.0.parts.0.text}}>' },
      },
    },
    {
      match: { method: 'POST', path: '/api/chat' },
      answer: { template: true, llm: { provider: 'ollama', api: 'chat', text: '<{{body.messages.0.content}}>' } },
    },
    { match: { method: 'POST', path: '/v1/embeddings' }, answer: { llm: { provider: 'openai', api: 'embeddings' } } },
    {
      match: { method: 'POST', path: '/model/:model/converse' },
      answer: {
        template: true,
        llm: { provider: 'bedrock', api: 'converse', text: '<{{body.messages.0.content.0.text}}>' },
      },
    },
  ]);
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    const model = randomText(random, 1 + Math.floor(random() * 30));
    const content = randomText(random, Math.floor(random() * 80));
    const expected = `<${content}>`;
    const kind = i % 5;
    let url: string;
    let body: string;
    if (kind === 0 || kind === 1) {
      url = `/v1beta/models/${segment(model)}:${kind === 1 ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
      body = `{"contents":[{"role":"user","parts":[{"text":${jsonString(content)}}]}]}`;
    } else if (kind === 2) {
      url = '/api/chat';
      body = `{"model":${jsonString(model)},"stream":${random() < 0.5},"messages":[{"role":"user","content":${jsonString(content)}}]}`;
    } else if (kind === 3) {
      url = '/v1/embeddings';
      const dimensions = random() < 0.7 ? String(1 + Math.floor(random() * 64)) : jsonString(randomText(random, 5));
      body = `{"model":${jsonString(model)},"input":[${jsonString(content)},${jsonString(model)}],"dimensions":${dimensions},"encoding_format":"float"}`;
    } else {
      url = `/model/${segment(model)}/converse`;
      body = `{"messages":[{"role":"user","content":[{"text":${jsonString(content)}}]}]}`;
    }
    const response = await fetch(`${daemon.url}/endpoint/fuzz${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const where = `case ${i}: POST ${url} ${body}`;
    const text = await response.text();
    expect(response.status, `${where} → ${text.slice(0, 300)}`).toBeLessThan(500);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status !== 200) {
      // Only a `dimensions` that is not a whole number may be refused (OpenAI's 400).
      expect(kind, where).toBe(3);
      expect(response.status, where).toBe(400);
      continue;
    }
    if (kind === 0) {
      const parts = JSON.parse(text).candidates[0].content.parts as { text?: string }[];
      expect(parts.map((part) => part.text ?? '').join(''), where).toBe(expected);
    } else if (kind === 1) {
      const chunks = sseData(text).map((data) => JSON.parse(data));
      const joined = chunks
        .flatMap((chunk) => (chunk.candidates?.[0]?.content?.parts ?? []) as { text?: string }[])
        .map((part) => part.text ?? '')
        .join('');
      expect(joined, where).toBe(expected);
    } else if (kind === 2) {
      const lines = text
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line));
      expect(lines.at(-1).done, where).toBe(true);
      expect(lines.map((line) => line.message?.content ?? '').join(''), where).toBe(expected);
      for (const line of lines) expect(line.model, where).toBe(JSON.parse(jsonString(model)));
    } else if (kind === 3) {
      const json = JSON.parse(text) as { data: { embedding: number[] }[] };
      const size = JSON.parse(body).dimensions as number;
      expect(
        json.data.map((item) => item.embedding.length),
        where,
      ).toEqual([size, size]);
      for (const item of json.data)
        for (const value of item.embedding) expect(Number.isFinite(value), where).toBe(true);
    } else {
      expect(JSON.parse(text).output.message.content[0].text, where).toBe(expected);
    }
  }
  expect(statuses.get(200)).toBeGreaterThan(CASES * 0.8);
  await health.check();
});
