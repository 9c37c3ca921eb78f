// Routes with a rate limit (docs/rate-limits.md) on the built daemon as a real process, read by
// the official OpenAI SDK: it gets our 429 in OpenAI's style, raises its own RateLimitError
// when it may not retry, and when it may, waits what the 429 says and its retry is answered
// (Stripe's SDK: core's engine/pipeline/rate-limit-stripe.test.ts). The daemon's buckets run on its real clock here, so the windows are
// short (the OpenAI style's retry-after-ms, 100 ms); a retry that comes early is refused and
// retried again, so the tests assert what the SDK ends with, never how long it took.

import { createClient, type JournalEntry, type RouteInput } from '@mockpoint/core';
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

async function endpoint(name: string, routes: RouteInput[]): Promise<string> {
  await createClient({ baseUrl: daemon.url }).setRoutes(name, routes);
  return `${daemon.url}/endpoint/${name}`;
}

async function journal(name: string): Promise<JournalEntry[]> {
  return createClient({ baseUrl: daemon.url }).requests(name);
}

const USER = [{ role: 'user' as const, content: 'Hello' }];

describe('the OpenAI SDK', () => {
  const chat = (per: string): RouteInput => ({
    match: { method: 'POST', path: '/chat/completions' },
    rateLimit: { limit: 1, per, style: 'openai' },
    answer: { llm: { provider: 'openai', api: 'chat.completions', text: 'Hi!' } },
  });

  it('raises its RateLimitError with our headers when it may not retry', async () => {
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: await endpoint('oa-refused', [chat('1h')]),
      maxRetries: 0,
    });
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages: USER }).withResponse();
    expect(first.response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const error = await client.chat.completions.create({ model: 'gpt-4o', messages: USER }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const refused = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect([refused.status, refused.code, refused.type]).toEqual([429, 'rate_limit_exceeded', 'requests']);
    expect(refused.headers?.get('retry-after')).toBe('3600');
  });

  it('retries after retry-after-ms and gets the completion', async () => {
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: await endpoint('oa-retry', [chat('100ms')]),
      maxRetries: 5,
    });
    await client.chat.completions.create({ model: 'gpt-4o', messages: USER });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: USER });
    expect(completion.choices[0]?.message.content).toBe('Hi!');
    const entries = await journal('oa-retry');
    expect(entries.slice(0, 2).map((e) => [e.statusCode, e.rateLimited ?? null])).toEqual([
      [200, null],
      [429, true],
    ]);
    expect(entries.at(-1)?.statusCode).toBe(200);
  });
});
