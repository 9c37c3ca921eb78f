// The summarizer library (src/summarizer.ts) against mockpoint `llm` answers, for both providers:
// a streamed summary, tags from a tool call, a 429 retried by the SDK after retry-after, a stream
// broken halfway started again, and the errors that stay (overloaded, context length) as
// SummarizerError. The official SDKs are the real clients; only the API behind them is a fake.
import { expect, it, type RouteInput, useMockServer } from '@mockpoint/vitest';
import { describe } from 'vitest';
import { createSummarizer, type Provider, SummarizerError } from './summarizer.js';

const mock = useMockServer({ resetAfterEach: true });

const PATHS = { openai: '/chat/completions', anthropic: '/v1/messages' } as const;
const API = { openai: 'chat.completions', anthropic: 'messages' } as const;
const SUMMARY = 'Mockpoint answers like an LLM API, so client code is tested without one.';

/** An llm route for `provider` (the rest of the llm answer from `llm`). */
function route(provider: Provider, llm: Record<string, unknown>, extra: Partial<RouteInput> = {}): RouteInput {
  return {
    ...extra,
    match: { method: 'POST', path: PATHS[provider], ...extra.match },
    answer: { ...extra.answer, llm: { provider, api: API[provider], ...llm } as never },
  };
}

describe.each(['openai', 'anthropic'] as const)('%s', (provider) => {
  it('streams a summary piece by piece', async () => {
    const api = await mock.api('llm', [route(provider, { text: SUMMARY, chunkDelayMs: 2 })]);
    const pieces: string[] = [];
    const summary = await createSummarizer({ provider, baseURL: api.url }).summarize('A long text.', (delta) =>
      pieces.push(delta),
    );
    expect(summary).toBe(SUMMARY);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(SUMMARY);
    await expect(api).toHaveBeenRequestedWith({ method: 'POST', path: PATHS[provider], body: { stream: true } });
  });

  it('tags the text from the set_tags tool call', async () => {
    const api = await mock.api('llm', [
      route(provider, { toolCalls: [{ name: 'set_tags', arguments: { tags: ['testing', 'llm', 'mocks'] } }] }),
    ]);
    expect(await createSummarizer({ provider, baseURL: api.url }).tags('…')).toEqual(['testing', 'llm', 'mocks']);
  });

  it('a 429: the SDK waits for retry-after and retries, and the summary comes', async () => {
    const api = await mock.api('llm', [
      route(
        provider,
        { error: { type: 'rate_limit', retryAfter: 0 } },
        { match: { state: 'started' }, answer: { setState: 'limited' } },
      ),
      route(provider, { text: SUMMARY }),
    ]);
    expect(await createSummarizer({ provider, baseURL: api.url }).summarize('A text.')).toBe(SUMMARY);
    expect((await api.requests()).map((entry) => entry.statusCode)).toEqual([429, 200]);
  });

  it('a stream broken halfway is started again once', async () => {
    const api = await mock.api('llm', [
      route(provider, { text: SUMMARY, end: 'reset' }, { match: { state: 'started' }, answer: { setState: 'broke' } }),
      route(provider, { text: SUMMARY }),
    ]);
    const pieces: string[] = [];
    const summary = await createSummarizer({ provider, baseURL: api.url }).summarize('A text.', (delta) =>
      pieces.push(delta),
    );
    expect(summary).toBe(SUMMARY);
    // The first half came twice: once before the break, then again from the start.
    expect(pieces.join('').length).toBeGreaterThan(SUMMARY.length);
  });

  it('a stream that breaks every time: SummarizerError broken', async () => {
    const api = await mock.api('llm', [route(provider, { text: SUMMARY, end: 'reset' })]);
    const error = await createSummarizer({ provider, baseURL: api.url })
      .summarize('A text.')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SummarizerError);
    expect((error as SummarizerError).reason).toBe('broken');
  });

  it.each([
    ['overloaded', 'overloaded'],
    ['rate_limit', 'rate_limited'],
    ['context_length', 'too_long'],
  ] as const)('an error that stays (%s): SummarizerError %s', async (type, reason) => {
    const api = await mock.api('llm', [route(provider, { error: type })]);
    const error = await createSummarizer({ provider, baseURL: api.url, maxRetries: 0 })
      .tags('A text.')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SummarizerError);
    expect((error as SummarizerError).reason).toBe(reason);
  });
});

it('the request reaches the API as the library builds it: model and messages', async () => {
  const api = await mock.api('llm', [
    route('openai', { text: 'for the big model' }, { match: { body: { model: 'gpt-4o' } } }),
    route('openai', { text: 'hello {{body.messages.1.content}}' }, { answer: { template: true } }),
  ]);
  expect(await createSummarizer({ provider: 'openai', baseURL: api.url, model: 'gpt-4o' }).summarize('x')).toBe(
    'for the big model',
  );
  expect(await createSummarizer({ provider: 'openai', baseURL: api.url }).summarize('world')).toBe('hello world');
  await expect(api).toHaveBeenRequestedWith({
    body: { model: 'gpt-4o-mini', messages: [{ role: 'system' }, { role: 'user', content: 'world' }] },
  });
});
