// Seeded fuzz of the places a request's bytes reach an llm answer (its `model`, echoed in the
// answer; its messages, rendered into a templated `text` and split into streamed chunks) with
// random code points, against the built daemon: every answer is well-formed JSON or SSE whose
// model and text are the request's values exactly (a lone surrogate sent as a JSON escape comes
// back as one), and /api/health answers after.
import { createClient } from '@mockpoint/core';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons({ kill: 'file' });

const SEED = 36;
const CASES = 200;

/** The data of each SSE event of `text` (the `data:` lines joined). */
function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    );
}

it(`answers ${CASES} requests with random model names and messages (seed ${SEED}), exactly`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  await createClient({ baseUrl: daemon.url }).setRoutes('fuzz', [
    {
      match: { path: '/chat/completions' },
      answer: {
        template: true,
        llm: { provider: 'openai', api: 'chat.completions', text: '<{{body.messages.0.content}}>' },
      },
    },
    {
      match: { path: '/v1/messages' },
      answer: {
        template: true,
        llm: { provider: 'anthropic', api: 'messages', text: '<{{body.messages.0.content}}>' },
      },
    },
  ]);
  const random = prng(SEED);
  for (let i = 0; i < CASES; i++) {
    const model = randomText(random, 1 + Math.floor(random() * 30));
    const content = randomText(random, Math.floor(random() * 80));
    const stream = i % 2 === 1;
    const anthropic = i % 4 >= 2;
    const body = `{"model":${jsonString(model)},"stream":${stream},"messages":[{"role":"user","content":${jsonString(content)}}]}`;
    const response = await fetch(`${daemon.url}/endpoint/fuzz${anthropic ? '/v1/messages' : '/chat/completions'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const where = `case ${i}: ${body}`;
    expect(response.status, where).toBe(200);
    const text = await response.text();
    const expected = `<${content}>`;
    if (!stream) {
      const json = JSON.parse(text);
      expect(json.model, where).toBe(model);
      expect(anthropic ? json.content[0].text : json.choices[0].message.content, where).toBe(expected);
      continue;
    }
    const events = sseData(text);
    if (!anthropic) expect(events.pop(), where).toBe('[DONE]');
    const parsed = events.map((data) => JSON.parse(data));
    const joined = anthropic
      ? parsed
          .filter((event) => event.type === 'content_block_delta')
          .map((event) => event.delta.text)
          .join('')
      : parsed.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(joined, where).toBe(expected);
    const named = anthropic ? parsed[0].message.model : parsed[0].model;
    expect(named, where).toBe(model);
  }
  await health.check();
});
